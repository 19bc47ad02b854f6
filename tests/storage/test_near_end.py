"""A long fight's save keeps a state near its end, so it opens to play without folding its
whole log first (``storage.open_save(check_later=True)``, as ``tracker`` opens one): the log
is folded after the first frame or at the first input, and a log that does not fold is still
refused in one line, its files never written."""

from __future__ import annotations

import os
import time
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from rules import history as history_module
from rules import snapshot
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.history import NEAR, History
from tests.cli.support import tracker
from tests.storage.support import body_of, fresh, rewrite
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession
from tracker.store import storage
from tracker.widgets.roll_log import RollLog

LONG = NEAR + 40  # records: a state is kept NEAR before the end
GHOST = {"type": "track-changed", "combatant_id": "c999", "track": "t", "before": 0, "after": 5}


def long_save(path: Path, records: int = LONG) -> History:
    """A save of ``records`` notes, compacted (its snapshot holds them all); its history."""
    session = EncounterSession(fresh("Long"), SeededDice(1), path)
    for number in range(records):
        session.execute(AddNote(f"note {number}"))
    assert session.close() is None
    return session.history


def crafted(path: Path, record: int) -> bytes:
    """A long save whose ``record``-th record names a combatant its log never added (its
    checksum made good): its bytes and its journal's."""
    long_save(path)
    body = body_of(path)
    body["records"][record]["events"] = [GHOST]
    return rewrite(path, body) + storage.journal_path(path).read_bytes()


def files_of(path: Path) -> bytes:
    return path.read_bytes() + storage.journal_path(path).read_bytes()


def test_a_long_fights_save_keeps_the_state_before_its_last_records(tmp_path: Path) -> None:
    history = long_save(tmp_path / "long.fight")
    near = body_of(tmp_path / "long.fight")["near_step"]
    assert near == len(history.done_indices()) - 1 - NEAR
    opened = storage.load(tmp_path / "long.fight").history
    assert opened.near_known
    assert opened.near_end() == history.near_end()
    assert opened.state == history.state


def test_a_short_fights_save_keeps_none(tmp_path: Path) -> None:
    long_save(tmp_path / "short.fight", NEAR - 1)
    assert "near" not in body_of(tmp_path / "short.fight")  # as older saves: no bytes more
    assert not storage.load(tmp_path / "short.fight").history.near_known
    opened = storage.open_save(tmp_path / "short.fight", check_later=True)
    assert opened.checked  # nothing to gain: folded as it opens
    assert opened.lock is not None
    opened.lock.release()


def test_a_save_opened_to_check_later_folds_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "long.fight"
    history = long_save(path)
    opened = storage.open_save(path, check_later=True)
    assert not opened.checked
    session = EncounterSession.resume(opened, SeededDice(1))[0]
    assert session.check() is None and session.refused is None
    assert list(session.history.in_effect()) == list(history.in_effect())
    session.execute(AddNote("after"))
    assert session.close() is None
    assert storage.read(path).state == session.state


def test_a_save_whose_tail_does_not_fold_is_refused_as_it_opens(tmp_path: Path) -> None:
    path = tmp_path / "tail.fight"
    before = crafted(path, LONG - 3)  # after the state kept near the end
    with pytest.raises(storage.SaveError, match="its event log cannot be replayed"):
        storage.open_save(path, check_later=True)
    assert files_of(path) == before


def test_a_tail_that_does_not_fold_is_refused_with_a_journal_after_it(tmp_path: Path) -> None:
    """The changes since the snapshot, in its journal, are folded as they are read: the
    snapshot's own tail is folded too, not taken as checked because they were."""
    path = tmp_path / "journal.fight"
    session = EncounterSession(fresh("Long"), SeededDice(1), path)
    for number in range(LONG):
        session.execute(AddNote(f"note {number}"))
    assert session.save() is None
    for number in range(3):
        session.execute(AddNote(f"later {number}"))  # to the journal, as kill -9 leaves it
    session.let_go()
    body = body_of(path)
    body["records"][LONG - 3]["events"] = [GHOST]
    before = rewrite(path, body) + storage.journal_path(path).read_bytes()
    with pytest.raises(storage.SaveError, match="its event log cannot be replayed"):
        storage.open_save(path, check_later=True)
    assert files_of(path) == before


def test_a_kept_state_damaged_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "damaged.fight"
    long_save(path)
    body = body_of(path)
    body["near"] = body["near"][: len(body["near"]) // 2]  # cut short, its checksum made good
    rewrite(path, body)
    cut = r"damaged \(the state it keeps near its end is cut short\)"
    with pytest.raises(storage.SaveError, match=cut):
        storage.load(path)


def test_a_kept_state_out_of_the_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "far.fight"
    long_save(path)
    body = body_of(path)
    body["near_step"] = len(body["done"]) + 5
    rewrite(path, body)
    with pytest.raises(storage.SaveError, match="cannot be replayed"):
        storage.load(path)


def test_a_log_that_does_not_fold_is_refused_at_the_check_and_never_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ghost.fight"
    before = crafted(path, 1)  # long before the state kept near the end
    opened = storage.open_save(path, check_later=True)
    assert not opened.checked  # its tail folds: the rest is checked later
    session = EncounterSession.resume(opened, SeededDice(1))[0]
    session.execute(AddNote("too soon"))  # before the check: never written
    assert session.refused is not None
    assert "its event log cannot be replayed" in session.refused
    assert session.close() is None
    assert files_of(path) == before
    storage.SaveLock.take(path).release()  # ... and its lock let go


@pytest.mark.parametrize("at", ["first frame", "first key"])
async def test_the_app_ends_once_the_log_is_found_not_to_fold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    path = tmp_path / "ghost.fight"
    before = crafted(path, 1)
    session = EncounterSession.resume(storage.open_save(path, check_later=True), SeededDice(1))[0]
    if at == "first key":  # a key typed before the first frame's check: checked first
        monkeypatch.setattr(EncounterScreen, "_after_first_frame", lambda self: None)
    built: list[str] = []  # nothing is built ahead for a fight that ends (a worker left unrun)
    monkeypatch.setattr(EncounterScreen, "build_ahead", lambda self, action: built.append(action))
    app = TrackerApp(session, saves=tmp_path)
    app.builds_ahead = True
    records = len(session.history.records)
    async with app.run_test(size=(80, 24)) as pilot:
        if at == "first key":
            await pilot.pause()
            assert app.return_code is None and session.refused is None
            await pilot.press("colon", *"note x", "enter")
        for _ in range(1000):  # a bound, so a failing check fails the test, not hangs it
            if app.return_code is not None:
                break
            await pilot.pause()
    assert app.return_code == 2
    assert session.refused is not None and "cannot be replayed" in session.refused
    assert len(session.history.records) == records  # no key acted on it
    assert built == []
    assert files_of(path) == before


def test_tracker_open_refuses_it_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ghost.fight"
    before = crafted(path, 1)
    done = tracker("--saves", str(tmp_path), "open", str(path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"tracker: {path}: its event log cannot be replayed")
    assert files_of(path) == before


@pytest.mark.parametrize("others", ["an older save", "nothing else"])
def test_tracker_passes_over_a_newest_save_refused_after_its_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], others: str
) -> None:
    """Started on the newest save (no file named), one whose log is found not to fold only
    after its first frame is passed over as one refused as it opens is: the app starts again
    on the next save, saying why. With nothing left to start on, the refusal is said."""
    from tracker import cli

    older = tmp_path / "older.fight"
    if others == "an older save":
        long_save(older, 3)
    ghost = tmp_path / "ghost.fight"
    before = crafted(ghost, 1)
    os.utime(ghost, (time.time() + 60, time.time() + 60))  # the newest
    ran: list[tuple[Path | None, list[str]]] = []

    def run(app: TrackerApp, **_: Any) -> None:  # as the app: the log checked after its frame
        assert app.session is not None
        ran.append((app.session.path, list(app.notes)))
        app.session.check()

    monkeypatch.setattr(TrackerApp, "run", run)
    if others == "an older save":
        assert cli.main(["--saves", str(tmp_path)]) == 0
        (first, _), (second, notes) = ran
        assert (first, second) == (ghost, older)
        assert any(n.startswith(f"Skipped {ghost}: its event log cannot be") for n in notes)
        assert capsys.readouterr().err == ""
    else:
        assert cli.main(["--saves", str(tmp_path)]) == 2
        said = capsys.readouterr().err.splitlines()
        assert len(ran) == 1 and len(said) == 2, said
        assert said[0].startswith(f"tracker: Skipped {ghost}: its event log cannot be replayed")
        assert "no saves and no demo here" in said[1]
    assert files_of(ghost) == before


@pytest.mark.parametrize("named", [True, False], ids=["named", "the newest"])
def test_tracker_serve_refuses_it_in_one_line_before_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: bool
) -> None:
    """Served, the whole log is checked before anything is drawn: a seat's view folds it as
    it is drawn, and it once ended the table with a traceback after the GM's first frame.
    The newest save (no file named) is passed over, as `tracker` passes over it: here there
    is no other to serve."""
    path = tmp_path / "ghost.fight"
    before = crafted(path, 1)
    monkeypatch.setenv("TRACKER_TABLE_PASSWORD", "pw")
    serve = ["--saves", str(tmp_path), "serve", "--password", "--listen", "127.0.0.1:0"]
    done = tracker(*serve, *([str(path)] if named else []))
    said = done.stderr.splitlines()
    assert done.returncode == 2 and len(said) == (1 if named else 2), done.stderr
    refusal = f"{path}: its event log cannot be replayed"
    assert said[0].startswith(f"tracker: {refusal}" if named else f"tracker: Skipped {refusal}")
    assert "Traceback" not in done.stderr + done.stdout
    assert files_of(path) == before


def test_a_format_5_save_without_a_kept_state_still_opens(tmp_path: Path) -> None:
    """The first format-5 saves kept none: opened, they are folded as before."""
    path = tmp_path / "older.fight"
    history = long_save(path)
    body = body_of(path)
    del body["near"], body["near_step"]
    rewrite(path, body)
    opened = storage.open_save(path, check_later=True)
    assert opened.checked and opened.history.state == history.state
    assert opened.lock is not None
    opened.lock.release()
    assert snapshot.FORMAT == 5


def test_opened_then_checked_each_event_is_folded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tail as it opens, the rest at the check: never the same record twice."""
    path = tmp_path / "long.fight"
    history = long_save(path)
    applied: list[object] = []
    real = history_module.apply

    def counted(state: Any, event: Any) -> Any:
        applied.append(event)
        return real(state, event)

    monkeypatch.setattr(history_module, "apply", counted)
    session = EncounterSession.resume(storage.open_save(path, check_later=True), SeededDice(1))[0]
    tail = len(applied)
    assert 0 < tail <= NEAR + 1
    assert session.check() is None
    events = sum(len(record.events) for record in history.applied_in_effect())
    assert len(applied) == events - 1  # every event but the creation, once
    session.let_go()


async def test_the_check_waits_for_the_logs_first_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first frame of a long fight can come before its log has its width: the check,
    and the dialog built ahead, wait for the frame with the log's lines."""
    path = tmp_path / "long.fight"
    long_save(path)
    session = EncounterSession.resume(storage.open_save(path, check_later=True), SeededDice(1))[0]
    app = TrackerApp(session, saves=tmp_path)
    seen: list[bool] = []
    check = EncounterSession.check

    def checking(self: EncounterSession) -> str | None:
        if not self._checked:
            seen.append(app.screen.query_one(RollLog).drawn)
        return check(self)

    monkeypatch.setattr(EncounterSession, "check", checking)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(1000):  # a bound, so a check never made fails the test, not hangs it
            if seen:
                break
            await pilot.pause()
    assert seen == [True]
    assert session.refused is None


@pytest.mark.parametrize("kept", ["state", "near"])
def test_a_kept_state_holding_what_no_input_could_is_refused(tmp_path: Path, kept: str) -> None:
    """Each state a save keeps is walked for what no input could hold only where its bytes
    hold a wide value (``snapshot._lazy``): a round past the bounds is one."""
    path = tmp_path / "far.fight"
    long_save(path)
    body = body_of(path)
    state = msgspec.msgpack.decode(zlib.decompress(body["near"])) if kept == "near" else body[kept]
    state["round"] = 10**15
    if kept == "near":
        body["near"] = zlib.compress(msgspec.msgpack.encode(state))
    rewrite(path, body)
    with pytest.raises(storage.SaveError, match="it holds what no input could"):
        storage.load(path)
