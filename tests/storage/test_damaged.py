"""A damaged journal is reported by every reader and never hidden: ``export`` refuses it
unless forced, ``open`` keeps copies of the damaged files before anything rewrites them."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from msgspec import structs

from rules.commands import AddNote, RollDice
from rules.dice import SeededDice
from rules.engine import decide
from tests.cli.support import tracker
from tests.storage.support import fresh
from tracker import launch
from tracker.session import EncounterSession
from tracker.store import storage


def damaged_save(folder: Path) -> tuple[Path, bytes, bytes]:
    """A save whose journal's last record is cut short; its bytes as damaged."""
    path = folder / "torn.fight"
    session = EncounterSession(fresh("Torn"), SeededDice(1), path)
    for number in range(4):
        session.execute(AddNote(f"note {number}"))
    journal = storage.journal_path(path)
    journal.write_bytes(journal.read_bytes()[:-3])
    return path, path.read_bytes(), journal.read_bytes()


def test_export_refuses_a_damaged_save_unless_forced(tmp_path: Path) -> None:
    path, _, _ = damaged_save(tmp_path)
    refused = tracker("export", str(path))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert refused.stderr == (
        f"tracker: {path}: its last record was cut short (a crash while saving); "
        "--force exports the records before it\n"
    )
    forced = tracker("export", str(path), "--force")
    assert forced.returncode == 0
    assert "note 2" in forced.stdout and "note 3" not in forced.stdout
    assert forced.stderr.count("\n") == 1 and "the records before it were kept" in forced.stderr


def test_opening_keeps_the_damaged_files_before_the_session_rewrites_them(
    tmp_path: Path,
) -> None:
    path, snapshot, journal = damaged_save(tmp_path)
    opened = storage.open_save(path)
    assert opened.repaired
    kept = sorted(tmp_path.glob("torn.fight*.damaged-*"))
    assert [p.name.split(".damaged-")[0] for p in kept] == ["torn.fight", "torn.fight.journal"]
    assert [p.read_bytes() for p in kept] == [snapshot, journal]
    assert all(p.name in opened.note for p in kept)
    assert "\n" not in opened.note
    session, error = EncounterSession.resume(opened, SeededDice(1))
    assert error is None
    assert storage.load(path).notice is None  # repaired; the damage is in the copies
    assert [p.read_bytes() for p in kept] == [snapshot, journal]
    session.close()
    # The copies are not saves: the browser lists the one save only.
    assert [item.path for item in storage.list_saves(tmp_path)] == [path]


def test_a_damaged_save_that_cannot_be_copied_aside_is_not_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, snapshot, journal = damaged_save(tmp_path)

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.files, "write_new", full)
    with pytest.raises(storage.SaveError, match="could not be kept"):
        storage.open_save(path)
    assert (path.read_bytes(), storage.journal_path(path).read_bytes()) == (snapshot, journal)
    storage.SaveLock.take(path).release()  # not left locked


def test_open_says_so_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _, _ = damaged_save(tmp_path)
    args = argparse.Namespace(command="open", file=path, saves=tmp_path)
    opened, _ = launch.choose_encounter(args)
    assert capsys.readouterr().err == f"tracker: {opened.note}\n"


@pytest.mark.parametrize("mean", ["1e99999999", "bogus"])
def test_a_crafted_dice_roll_the_log_would_choke_on_is_refused_in_one_line(
    tmp_path: Path, mean: str
) -> None:
    """A plain dice roll's mean is read back as a fraction each time its log line is drawn:
    an exponent took minutes, other text a traceback. Such a save is refused as it is read."""
    path = tmp_path / "crafted.fight"
    history = fresh("Crafted")
    events = decide(history.state, RollDice("2d6+3"), SeededDice(1))
    history.commit([structs.replace(e, mean=mean) for e in events], "2d6+3")
    EncounterSession(history, SeededDice(1), path).close()  # its snapshot written with it
    with pytest.raises(storage.SaveError) as refused:
        storage.load(path)
    assert "\n" not in str(refused.value) and "mean" in str(refused.value)
    done = tracker("export", str(path))
    assert done.returncode == 2 and done.stderr == f"tracker: {refused.value}\n"
