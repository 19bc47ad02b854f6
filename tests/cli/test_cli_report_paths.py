"""A report never lands on a save's own files (issue #46): ``tracker export -o`` onto a
journal, a lock file, a temporary file, a copy kept aside or another save's journal, by its
name, through a link or by a hard link, is refused in one line (exit 2) and no file changes;
an open fight keeps its unsaved changes and its lock."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.commands import AddNote
from rules.dice import SeededDice
from rules.events import NoteAdded
from tests.cli.support import tracker
from tests.contract.support import demo
from tests.picks import a_system, has_demo
from tests.storage.support import fresh
from tracker.cli import main
from tracker.session import EncounterSession
from tracker.store import library, storage

STAMP = "20260101-120000"


@pytest.fixture
def open_fight(tmp_path: Path) -> Iterator[EncounterSession]:
    """``x.fight`` open to play (locked), with changes only its journal holds yet; beside it
    a dead writer's temporary file, the copies an open kept aside, and another save."""
    path = tmp_path / "x.fight"
    storage.write(path, fresh("X"))
    session, error = EncounterSession.resume(storage.open_save(path), SeededDice(1))
    assert error is None
    for note in ("unsaved one", "unsaved two"):
        session.execute(AddNote(note))
    other = EncounterSession(fresh("Y"), SeededDice(1), tmp_path / "y.fight")
    other.execute(AddNote("theirs"))
    other.execute(AddNote("theirs too"))
    other.let_go()
    for kept in (".x.fight.k3y_9abc.tmp", f"x.fight.damaged-{STAMP}"):
        (tmp_path / kept).write_bytes(b"kept")
    (tmp_path / f"x.fight.journal.stray-{STAMP}").write_bytes(b"kept")
    yield session
    session.close()


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file's bytes (a link: where it points), by name."""
    return {
        p.name: os.readlink(p).encode() if p.is_symlink() else p.read_bytes()
        for p in folder.iterdir()
        if not p.is_dir()
    }


def notes_in(path: Path) -> list[str]:
    return [e.text for e in storage.read(path).effective_events() if isinstance(e, NoteAdded)]


@pytest.mark.parametrize(
    ("out", "said"),
    [
        ("x.fight.journal", "is the journal of x.fight"),
        (".x.fight.lock", "is the lock file of x.fight"),
        (".x.fight.k3y_9abc.tmp", "is a temporary file of x.fight"),
        (f"x.fight.damaged-{STAMP}", "is a copy of x.fight kept aside"),
        (f"x.fight.journal.stray-{STAMP}", "is a copy of x.fight.journal kept aside"),
        ("y.fight.journal", "is the journal of y.fight"),
        ("journal-link.md", "is the journal of x.fight"),  # a link to it
        ("linked/x.fight.journal", "is the journal of x.fight"),  # through a linked folder
        ("lock-hard.md", "is the lock file of x.fight"),  # another name of it
        ("journal-hard.md", "is a save's journal"),  # another name of it: what it holds
    ],
)
def test_a_report_onto_a_saves_own_file_is_refused_and_nothing_changes(
    open_fight: EncounterSession,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    out: str,
    said: str,
) -> None:
    (tmp_path / "journal-link.md").symlink_to("x.fight.journal")
    (tmp_path / "linked").symlink_to(tmp_path)
    os.link(tmp_path / ".x.fight.lock", tmp_path / "lock-hard.md")
    os.link(tmp_path / "x.fight.journal", tmp_path / "journal-hard.md")
    before = files_in(tmp_path)
    target = tmp_path / out
    status = main(["export", str(tmp_path / "x.fight"), "-o", str(target)])
    err = capsys.readouterr().err
    assert status == 2
    assert err == f"tracker: {target}: {said}; choose another file for the report\n"
    assert files_in(tmp_path) == before
    # The fight is still the one writer, and its changes are still there to keep.
    with pytest.raises(storage.SaveLocked):
        storage.open_save(tmp_path / "x.fight")
    open_fight.close()
    assert notes_in(tmp_path / "x.fight") == ["unsaved one", "unsaved two"]


def test_the_real_program_refuses_a_report_onto_an_open_fights_journal(
    open_fight: EncounterSession, tmp_path: Path
) -> None:
    """The issue's own case: it wrote the report there, exit 0, and the changes were lost."""
    before = files_in(tmp_path)
    done = tracker("export", "-o", "x.fight.journal", "x.fight", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "tracker: x.fight.journal: is the journal of x.fight; choose another file for the report\n"
    )
    assert files_in(tmp_path) == before


def test_a_report_beside_the_save_is_still_written(
    open_fight: EncounterSession, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Names near a save's own: a report may take them.
    for out in ("x.md", "x.fight.md", "x.fight.journal.md", "notes.lock", ".x.md.lock"):
        assert main(["export", str(tmp_path / "x.fight"), "-o", str(tmp_path / out)]) == 0
        assert (tmp_path / out).read_text().startswith("# X")
    assert capsys.readouterr().err.count("Wrote ") == 5


def test_a_stat_block_is_never_kept_over_a_saves_own_file(
    open_fight: EncounterSession, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`tracker library add --replace`: the library's file for it is another name of the
    open fight's journal (a library folder shared with the saves')."""
    state = demo(a_system(has_demo)).state
    entry = library.from_combatant(state.system, state.combatants[0], fresh=True)
    block = tmp_path / "block.toml"
    block.write_text(library.to_toml(entry))
    kept = library.path_for(tmp_path / "lib", entry)
    kept.parent.mkdir(parents=True)
    os.link(tmp_path / "x.fight.journal", kept)
    before = files_in(tmp_path)
    argv = ["library", "add", str(block), "--replace", "--library", str(tmp_path / "lib")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"tracker: {kept}: is a save's journal; a stat block is never kept in its place\n"
    assert files_in(tmp_path) == before and os.path.samefile(kept, tmp_path / "x.fight.journal")
