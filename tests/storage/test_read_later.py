"""A long save opened to play reads only its newest records; the rest are read by the check
after its first frame (``snapshot.open_lazily``'s read_later, ``RecordLog.read``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import snapshot
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.events import NoteAdded
from rules.history import NEAR
from tests.cli.support import tracker
from tests.storage.support import body_of, fresh, rewrite
from tests.storage.test_near_end import GHOST, LONG, files_of, long_save
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession
from tracker.store import storage
from tracker.widgets.roll_log import RollLog


def decoded_counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many records each call decodes, from now on."""
    counts: list[int] = []
    real = snapshot._decoded

    def counting(raws: list[Any], types: Any) -> Any:
        counts.append(len(raws))
        return real(raws, types)

    monkeypatch.setattr(snapshot, "_decoded", counting)
    return counts


def opened(path: Path) -> EncounterSession:
    return EncounterSession.resume(storage.open_save(path, check_later=True), SeededDice(1))[0]


def test_a_long_save_opens_reading_only_its_newest_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "long.fight"
    history = long_save(path)
    counts = decoded_counted(monkeypatch)
    session = opened(path)
    assert not session.history.records.all_read
    assert sum(counts) <= NEAR + 3  # the first record, and those after the kept state
    assert session.state == history.state
    assert session.check() is None
    assert session.history.records.all_read
    assert sum(counts) == len(history.records)  # each once
    assert list(session.history.records) == list(history.records)
    session.let_go()


def test_read_whole_anywhere_else(tmp_path: Path) -> None:
    """A replay, an export, a save opened to be checked as it opens: every record read."""
    path = tmp_path / "long.fight"
    long_save(path)
    assert storage.load(path).history.records.all_read
    whole = storage.open_save(path)
    assert whole.history.records.all_read
    assert whole.lock is not None
    whole.lock.release()


def test_the_newest_entries_and_turns_are_read_without_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "long.fight"
    history = long_save(path)
    session = opened(path)
    tail = list(session.history.in_effect_tail())
    pairs = list(history.in_effect())
    assert [event for event, _ in tail] == [event for event, _ in pairs[-len(tail) :]]
    assert NEAR <= len(tail) < len(pairs)
    assert tail[0][1] == pairs[-len(tail)][1]  # the first given its state
    newest = list(session.history.newest_in_effect())
    assert newest == history.applied_in_effect()[::-1][: len(newest)]
    assert session.turn_started() is None  # no turn given: looked for in the tail alone
    assert not session.history.records.all_read
    session.let_go()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda record: record["events"][0].update(text="x" * 10**5), "what no input could"),
        (lambda record: record["events"][0].update(type="no-such-event"), "does not know"),
        (lambda record: record.update(type="undone"), "not all changes"),
    ],
    ids=["out of bounds", "unknown", "not a change"],
)
def test_an_old_record_that_is_none_is_refused_at_the_check(
    tmp_path: Path, change: Any, said: str
) -> None:
    """Read at the check, an old record that could not be one is refused there, in one line,
    as at the open; nothing is written, and the lock is let go."""
    path = tmp_path / "crafted.fight"
    long_save(path)
    body = body_of(path)
    change(body["records"][2])
    before = rewrite(path, body) + storage.journal_path(path).read_bytes()
    session = opened(path)
    refused = session.check()
    assert refused is not None and refused.startswith(f"{path}: ") and said in refused
    assert "\n" not in refused
    assert session.close() is None
    assert files_of(path) == before
    storage.SaveLock.take(path).release()
    done = tracker("--saves", str(tmp_path), "open", str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert said in done.stderr
    assert files_of(path) == before


async def test_the_log_shows_its_newest_entries_then_every_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its first frame from the newest records; the whole log once the check read the rest,
    still at its end."""
    path = tmp_path / "long.fight"
    history = long_save(path, LONG * 2)
    session = opened(path)
    after_first_frame = EncounterScreen._after_first_frame
    monkeypatch.setattr(EncounterScreen, "_after_first_frame", lambda self, waited=0: None)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        tail = len(log.entries)
        last = log.entries[-1]
        assert NEAR <= tail < len(list(history.in_effect()))
        assert not session.checked and not session.history.records.all_read
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        after_first_frame(screen, 1)
        await pilot.pause()
        assert session.checked and len(log.entries) == len(list(history.in_effect()))
        assert log.entries[-1] == last
        assert log.scroll_y == log.max_scroll_y  # still following the newest


def test_a_log_without_a_kept_state_gives_every_pair_as_its_tail(tmp_path: Path) -> None:
    long_save(tmp_path / "short.fight", NEAR - 1)
    history = storage.load(tmp_path / "short.fight").history
    assert list(history.in_effect_tail()) == list(history.in_effect_sparse())


def test_the_ghost_is_still_refused_at_the_check(tmp_path: Path) -> None:
    """An old record that reads but does not fold: refused by the fold, as before."""
    path = tmp_path / "ghost.fight"
    long_save(path)
    body = body_of(path)
    body["records"][1]["events"] = [GHOST]
    rewrite(path, body)
    session = opened(path)
    refused = session.check()
    assert refused is not None and "its event log cannot be replayed" in refused
    session.let_go()


def test_undone_past_the_kept_state_in_the_journal_reads_the_rest_as_it_opens(
    tmp_path: Path,
) -> None:
    """A journal that undoes more than the records after the kept state (as kill -9 leaves
    it) needs the older records as the save opens: they are read then, and checked then."""
    path = tmp_path / "undone.fight"
    session = EncounterSession(fresh("Long"), SeededDice(1), path)
    for number in range(LONG):
        session.execute(AddNote(f"note {number}"))
    assert session.save() is None
    for _ in range(NEAR + 10):
        session.undo()  # to the journal
    expected = session.state
    session.let_go()
    reopened = opened(path)
    assert reopened.history.records.all_read
    assert reopened.state == expected
    assert reopened.check() is None
    reopened.let_go()
    body = body_of(path)
    body["records"][2]["events"][0]["text"] = "x" * 10**5
    before = rewrite(path, body) + storage.journal_path(path).read_bytes()
    with pytest.raises(storage.SaveError, match="what no input could"):
        storage.open_save(path, check_later=True)
    assert files_of(path) == before


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["note", "note", "note", "undo", "redo"]), max_size=120))
def test_read_later_then_read_is_the_save_read_whole(steps: list[str]) -> None:
    """Any log of changes, undos and redos, saved long enough to keep a state near its end:
    opened to read later and then read, it is the save read whole, record for record, and
    its newest entries are the whole log's last."""
    history = fresh("Long")
    for number in range(NEAR + 20):
        history.commit([NoteAdded(f"note {number}")])
    for number, step in enumerate(steps):
        if step == "note":
            history.commit([NoteAdded(f"later {number}")])
        elif step == "undo" and history.can_undo:
            history.undo()
        elif step == "redo" and history.can_redo:
            history.redo()
    data = snapshot.encode(history)
    whole = snapshot.open_lazily(data)
    later = snapshot.open_lazily(data, read_later=True)
    tail = [event for event, _ in later.in_effect_tail()]
    assert tail == [event for event, _ in whole.in_effect_sparse()][-len(tail) :]
    later.refold()
    assert later.records.all_read
    assert list(later.records) == list(whole.records)
    assert later.done_indices() == whole.done_indices()
    assert later.undone_indices() == whole.undone_indices()
    assert list(later.in_effect()) == list(whole.in_effect())
