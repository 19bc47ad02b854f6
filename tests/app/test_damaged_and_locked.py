"""In the app: a damaged save's notice is a dialog to read, and a save another process is
writing is offered as a read-only replay."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddNote
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.picks import a_system
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.notice import NoticeScreen
from tracker.session import EncounterSession
from tracker.store import storage


def save_with_notes(path: Path, name: str, cut: int = 0) -> Path:
    session = EncounterSession(History(new_encounter(name, a_system())), SeededDice(1), path)
    for number in range(3):
        session.execute(AddNote(f"{name} note {number}"))
    if cut:
        journal = storage.journal_path(path)
        journal.write_bytes(journal.read_bytes()[:-cut])
    return path


def current_app(folder: Path) -> TrackerApp:
    opened = storage.create(folder, History(new_encounter("Bridge", a_system())))
    session, _ = EncounterSession.resume(opened, SeededDice(1))
    return TrackerApp(session, saves=folder)


async def test_opening_a_damaged_save_shows_a_dialog_until_it_is_read(tmp_path: Path) -> None:
    torn = save_with_notes(tmp_path / "torn.fight", "Torn", cut=3)
    app = current_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_path(torn)
        await pilot.pause()
        text = screen_text(app)
        assert "The save was damaged" in text and "cut short" in text
        assert isinstance(app.screen, NoticeScreen)  # a notice to dismiss, not one that goes
        await pilot.press("enter")
        await pilot.pause()
        assert "The save was damaged" not in screen_text(app)
        assert "⚔ Torn" in screen_text(app)
    assert len(list(tmp_path.glob("torn.fight*.damaged-*"))) == 2


async def test_a_damaged_save_given_at_start_is_shown_in_a_dialog(tmp_path: Path) -> None:
    app = current_app(tmp_path)
    app.warnings.append("torn.fight: its last record was cut short")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "The save was damaged" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "⚔ Bridge" in screen_text(app)


async def test_a_save_open_elsewhere_is_offered_as_a_replay(tmp_path: Path) -> None:
    held = save_with_notes(tmp_path / "held.fight", "Held")
    lock = storage.SaveLock.take(held)  # as another process would (flock is per open file)
    app = current_app(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_path(held)
            await pilot.pause()
            assert "is already open by PID" in screen_text(app)
            assert "Replay it read-only?" in screen_text(app)
            await pilot.press("y")
            await pilot.pause()
            text = screen_text(app)
            assert "Held note" in text
            assert app.session is not None and app.session.path != held  # not taken over
    finally:
        lock.release()
    assert len(storage.read(held).records) == 4  # untouched


async def test_declining_the_replay_stays_on_the_encounter(tmp_path: Path) -> None:
    held = save_with_notes(tmp_path / "held.fight", "Held")
    lock = storage.SaveLock.take(held)
    app = current_app(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            app.open_path(held)
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert "⚔ Bridge" in screen_text(app)
    finally:
        lock.release()
