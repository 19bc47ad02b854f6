"""Only regular files are read: a pipe, a device or a folder in a save's or a journal's place
is refused at once, in one line, and so is a file too big to be a save; the temporary files
of a writer killed mid-compaction are removed at the next open."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.cli.support import tracker
from tests.storage.support import fresh, start
from tracker.session import EncounterSession
from tracker.store import files, storage


def a_save(folder: Path, name: str = "odd.fight") -> Path:
    path = folder / name
    session = EncounterSession(fresh("Odd"), SeededDice(1), path)
    session.execute(AddNote("one"))
    session.execute(AddNote("two"))  # in the journal
    return path


def fifo(path: Path) -> Path:
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["open", "replay", "export"])
def test_a_pipe_named_like_a_save_is_refused_not_waited_on(tmp_path: Path, command: str) -> None:
    path = fifo(tmp_path / "x.fight")
    done = tracker("--saves", str(tmp_path), command, str(path))  # a hang times out: a failure
    assert done.returncode == 2
    assert done.stderr == f"tracker: {path}: is a pipe (FIFO), not a save file\n"


def test_a_pipe_as_journal_is_refused_by_every_reader(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    journal = fifo(storage.journal_path(path))
    for read in (storage.load, storage.open_save):
        with pytest.raises(storage.SaveError, match="is a pipe") as refused:
            read(path)
        assert refused.value.path == journal
    assert storage.describe_save(path).problem == "is a pipe (FIFO), not a save file"


def test_a_pipe_as_journal_fails_an_append_instead_of_hanging(tmp_path: Path) -> None:
    path = tmp_path / "x.fight"
    history = fresh("Odd")
    storage.write(path, history)
    fifo(storage.journal_path(path))
    journal = storage.Journal(path)
    with pytest.raises(storage.SaveError, match="could not save"):
        journal.append(1, history.records[0])


@pytest.mark.parametrize("which", ["save", "journal"])
def test_a_link_to_a_device_is_refused_before_reading(tmp_path: Path, which: str) -> None:
    # Refused as a link: the tracker never reads its files through one.
    path = a_save(tmp_path)
    target = path if which == "save" else storage.journal_path(path)
    target.unlink()
    target.symlink_to("/dev/zero")
    done = tracker("export", str(path))
    assert done.returncode == 2
    assert done.stderr == f"tracker: {target}: {files.LINK}\n"


def test_a_folder_as_journal_is_refused(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    journal = storage.journal_path(path)
    journal.unlink()
    journal.mkdir()
    with pytest.raises(storage.SaveError, match="is a folder"):
        storage.load(path)


@pytest.mark.parametrize("which", ["save", "journal"])
def test_a_huge_sparse_file_is_refused_by_its_size(tmp_path: Path, which: str) -> None:
    path = a_save(tmp_path)
    target = path if which == "save" else storage.journal_path(path)
    with open(target, "r+b") as file:
        file.truncate(2 * 2**30)  # 2 GB, sparse: costs no disk, and reading it would take long
    with pytest.raises(storage.SaveError, match="2048 MB, too big for a save"):
        storage.load(path)


def test_export_to_a_pipe_never_opens_it_to_look(tmp_path: Path) -> None:
    # Checking whether the output is a save must not hang on a pipe with no writer.
    assert not storage.is_save(fifo(tmp_path / "out.md"))


# --- a writer killed mid-compaction ---------------------------------------------------------

STUCK_WRITER = """
import os
import sys
from pathlib import Path

from rules.dice import SeededDice
from tracker.store import storage
from tracker.session import EncounterSession

session, error = EncounterSession.resume(storage.open_save(Path(sys.argv[1])), SeededDice(1))
assert error is None, error


def stuck(source, target):
    print("compacting", flush=True)  # the temporary file is written: now it dies
    sys.stdin.read()


os.replace = stuck
session.save()
"""


def test_temp_files_of_a_writer_killed_mid_compaction_are_removed_at_the_next_open(
    tmp_path: Path,
) -> None:
    path = a_save(tmp_path)
    # Another save's temporary file, whose name begins like this one's, is not ours to touch.
    other = tmp_path / f".{path.name}.x.fight.abcdefgh.tmp"
    other.write_bytes(b"another save's")
    stale: list[Path] = []
    for _ in range(2):
        writer = start(STUCK_WRITER, path, "compacting")
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        found = [p for p in tmp_path.glob(f".{path.name}.*.tmp") if p != other]
        assert len(found) == 1 and found[0].stat().st_size > 0
        stale += found
    opened = storage.open_save(path)
    assert not any(p.exists() for p in stale)
    assert other.exists()
    assert len(opened.history.records) == 3  # the killed writers lost nothing
