"""The journal: every record durable as it happens, compacted now and then, torn ends dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import snapshot
from rules.commands import AddCombatant, AddNote, NextTurn
from rules.dice import SeededDice
from rules.history import History
from tests.storage.support import body_of, fresh, rewrite
from tracker.session import EncounterSession
from tracker.store import storage


def session_at(path: Path) -> EncounterSession:
    return EncounterSession(fresh("Journal"), SeededDice(1), path)


def frames_in(path: Path) -> snapshot.Frames:
    """The frames of a save's journal, after the save's id that heads it."""
    _, frames = snapshot.journal_owner(storage.journal_path(path).read_bytes())
    return snapshot.decode_frames(frames, snapshot.read_header(path.read_bytes()).system)


def play(session: EncounterSession, notes: int) -> None:
    for number in range(notes):
        session.execute(AddNote(f"note {number}"))


def test_each_record_goes_to_the_journal_and_reopens(tmp_path: Path) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    session.execute(AddCombatant(name="Ann"))
    session.execute(AddCombatant(name="Bob"))
    session.execute(NextTurn())
    session.undo()
    journal = storage.journal_path(path)
    # The first change wrote the snapshot (there was none); the rest are journal frames.
    assert journal.read_bytes().startswith(snapshot.JOURNAL_MAGIC)
    assert [e.number for e in frames_in(path).entries] == [2, 3, 4]
    assert storage.read(path).state == session.state
    assert storage.read(path).records == session.history.records


def test_compaction_folds_the_journal_into_the_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    session.COMPACT_EVERY = 5
    play(session, 12)
    frames = frames_in(path)
    # Note 1 wrote the first snapshot; notes 2-6 and 7-11 filled the journal and were
    # compacted; note 12 (record 12) is the only frame left.
    assert [e.number for e in frames.entries] == [12]
    assert storage.read(path).state == session.state
    assert session.close() is None
    assert frames_in(path).entries == []
    assert storage.read(path).records == session.history.records


def test_a_crash_between_snapshot_and_clearing_skips_the_repeats(tmp_path: Path) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    play(session, 4)
    journal = storage.journal_path(path).read_bytes()
    storage.write(path, session.history, storage.load(path).save_id)  # the snapshot landed...
    storage.journal_path(path).write_bytes(journal)  # ...but the journal was not yet emptied
    loaded = storage.load(path)
    assert loaded.notice is None
    assert loaded.history.records == session.history.records


@pytest.mark.parametrize("cut", [1, 5, 9, 20])
def test_a_torn_last_record_is_dropped_with_a_notice(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    play(session, 3)
    journal = storage.journal_path(path)
    whole = journal.read_bytes()
    journal.write_bytes(whole[:-cut])
    before = (path.read_bytes(), journal.read_bytes())
    loaded = storage.load(path)
    assert "cut short" in (loaded.notice or "") or "damaged" in (loaded.notice or "")
    assert loaded.history.records == session.history.records[:-1]
    assert (path.read_bytes(), journal.read_bytes()) == before  # opening never writes

    # Playing on from the repaired save starts with a fresh snapshot, then appends.
    opened = storage.open_save(path)
    assert opened.repaired
    again = EncounterSession(opened.history, SeededDice(2), path)
    assert again.save() is None
    again.execute(AddNote("after the crash"))
    reopened = storage.load(path)
    assert reopened.notice is None
    assert reopened.history.state == again.state


def test_damage_in_the_middle_keeps_what_came_before(tmp_path: Path) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    play(session, 4)
    journal = storage.journal_path(path)
    data = bytearray(journal.read_bytes())
    data[len(data) // 2] ^= 0xFF
    journal.write_bytes(bytes(data))
    loaded = storage.load(path)
    assert loaded.notice and "damaged" in loaded.notice
    kept = len(loaded.history.records)
    assert loaded.history.records == session.history.records[:kept]
    assert 1 <= kept < len(session.history.records)


def test_a_failed_append_is_followed_by_a_snapshot_not_a_gap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.fight"
    session = session_at(path)
    play(session, 2)

    def full_disk(self: storage.Journal, number: int, record: object) -> None:
        raise storage.SaveError(self.journal, "could not save (No space left on device)")

    with monkeypatch.context() as patch:
        patch.setattr(storage.Journal, "append", full_disk)
        session.execute(AddNote("lost?"))
    session.execute(AddNote("disk is back"))
    loaded = storage.load(path)
    assert loaded.notice is None
    assert loaded.history.state == session.state
    assert "lost?" in [getattr(e, "text", "") for e in loaded.history.effective_events()]


def test_a_long_save_opens_lazily_and_undoes_correctly(tmp_path: Path) -> None:
    path = tmp_path / "long.fight"
    session = session_at(path)
    session.execute(AddCombatant(name="Ann"))
    session.execute(AddCombatant(name="Bob"))
    for number in range(60):
        session.execute(NextTurn() if number % 3 else AddNote(f"n{number}"))
    session.undo()
    session.undo()
    assert session.close() is None
    opened = storage.read(path)
    assert opened.state == session.state
    # Undo folds the states it needs from the start; they match a full replay step by step.
    replayed = History.from_records(list(opened.records))
    for _ in range(20):
        assert opened.undo() == replayed.undo()
        assert opened.state == replayed.state
    opened.redo()
    replayed.redo()
    assert opened.state == replayed.state
    assert list(opened.records) == list(replayed.records)


def test_unknown_fields_from_a_later_minor_change_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "plain.fight"
    session = session_at(path)
    session.execute(AddCombatant(name="Ann"))
    session.execute(AddNote("a note"))
    history = session.history
    assert session.close() is None
    doc = body_of(path)
    doc["written_by"] = "a later tracker"
    doc["state"]["weather"] = "rain"
    doc["records"][1]["events"][0]["combatant"]["mood"] = "grim"
    extra = tmp_path / "extra.fight"
    rewrite(extra, doc)
    opened = storage.read(extra)
    assert opened.state == history.state
    assert list(opened.records) == list(history.records)
