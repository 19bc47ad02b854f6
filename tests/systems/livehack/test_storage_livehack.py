"""LiveHack's saves from older formats (``data/``, written by earlier trackers) open and play
on in the current format. Their recorded state is not quite the fold of their log (format 2's
has no LiveHack state, where its log leaves a rollover): a save before format 3 is read by
replaying its log, so the recorded state is never used."""

from __future__ import annotations

from pathlib import Path

from rules import snapshot
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.history import History
from tracker.session import EncounterSession
from tracker.store import storage

DATA = Path(__file__).parent / "data"


def test_a_format_1_save_is_migrated_on_open(tmp_path: Path) -> None:
    old = DATA / "format-1-livehack.fight"
    assert snapshot.read_header(old.read_bytes()).format == 1
    history = storage.read(old)
    state = history.state
    assert (state.name, state.round, len(state.combatants)) == ("Goblin Warren", 2, 4)
    # Playing on writes format 2; the old file itself is not touched by opening it.
    copy = tmp_path / "warren.fight"
    session = EncounterSession(history, SeededDice(1), copy)
    session.execute(AddNote("migrated"))
    assert snapshot.read_header(copy.read_bytes()).format == snapshot.FORMAT
    assert storage.read(copy).state == session.state
    assert snapshot.read_header(old.read_bytes()).format == 1


def test_a_format_2_save_with_undo_and_redo_is_migrated(tmp_path: Path) -> None:
    old = DATA / "format-2-livehack.fight"
    assert snapshot.read_header(old.read_bytes()).format == 2
    history = storage.read(old)
    replayed = History.from_records(list(history.records))
    assert history.state == replayed.state
    assert history.done_indices() == replayed.done_indices()
    assert history.undone_indices() == replayed.undone_indices() == [10]
    assert history.state.current_id == "c2"  # the last turn was undone
    history.redo()
    replayed.redo()
    assert history.state == replayed.state
