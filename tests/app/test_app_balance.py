"""Balance... by keys at 80x24: B (or the palette), a chance typed, each step then what it
settled on; Accept makes it one change that one u takes back; Esc stops the tune and changes
nothing; a chance that is none is one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label, Static

from rules.dice import SeededDice
from rules.history import History
from tests.app.support import until
from tests.picks import a_demo, every_demo, plays_solo, scales_nothing
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.headless import forecast_pool
from tracker.screens import balance
from tracker.screens.balance import BalanceScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession
from tracker.store import storage

ROOT = Path(__file__).resolve().parents[2]
SMALL = (80, 24)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(balance, "RUNS", 20)
    monkeypatch.setattr(forecast_pool, "default_jobs", lambda: 1)


def demo_save() -> History:
    return storage.read(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}")


async def test_balance_shows_each_step_and_accept_is_one_change_undone_by_one_u(
    tmp_path: Path,
) -> None:
    session = EncounterSession(demo_save(), SeededDice(1), tmp_path / "pit.fight")
    app = TrackerApp(session, saves=tmp_path)
    before, records = session.state, len(session.history.records)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BalanceScreen), "the dialog")
        dialog = app.screen
        assert isinstance(dialog, BalanceScreen)
        await pilot.press("backspace", "backspace", "backspace", *"20", "enter")
        await until(pilot, lambda: dialog.tuning is not None, "the tune")
        assert dialog.tuning is not None and dialog.tuning.command is not None
        text = screen_text(app)
        assert " 1. as it is" in text and "party wins" in text
        assert "Settled on" in text or "Cannot reach 20%" in text
        # The title says it in a few words, uncut (it was the whole line, cut mid-word).
        title = str(dialog.query_one("#balance-title", Label).content)
        assert title.startswith("Balance: ") and "(asked 20%)" in title, title
        assert title in text
        assert session.state is before  # nothing changed before Accept
        await pilot.press("enter")  # Accept has the focus
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
        assert len(session.history.records) == records + 1
        assert session.history.records[-1].label.startswith("balance: ")
        assert session.state != before
        await pilot.press("u")
        await until(pilot, lambda: session.state == before, "one undo")


async def test_escape_stops_the_tune_and_changes_nothing(tmp_path: Path) -> None:
    session = EncounterSession(demo_save(), SeededDice(1), tmp_path / "pit.fight")
    app = TrackerApp(session, saves=tmp_path)
    records = len(session.history.records)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BalanceScreen), "the dialog")
        await pilot.press("enter", "escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
        await app.workers.wait_for_complete()
        assert len(session.history.records) == records
        await pilot.press("o", *"still here", "enter")  # the table answers
        await until(pilot, lambda: len(session.history.records) > records, "the note")


async def test_a_chance_that_is_none_is_one_line(tmp_path: Path) -> None:
    session = EncounterSession(demo_save(), SeededDice(1), None)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, BalanceScreen), "the dialog")
        await pilot.press("backspace", "backspace", "backspace", *"150", "enter")
        await until(pilot, lambda: "is not from 0% to 100%" in screen_text(app), "the line")


async def test_balance_is_in_the_command_palette(tmp_path: Path) -> None:
    session = EncounterSession(demo_save(), SeededDice(1), None)
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        assert any(title == "Balance..." for title, _, _ in screen.palette_commands())
        await pilot.press("ctrl+p", *"Balance", "enter")
        await until(pilot, lambda: isinstance(app.screen, BalanceScreen), "the dialog")


@pytest.mark.parametrize("demo", every_demo(plays_solo))
async def test_the_dialog_offers_to_scale_hit_points_only_where_there_are_some(
    tmp_path: Path, demo: str
) -> None:
    history = storage.read(ROOT / "saves" / f"{demo}{storage.SUFFIX}")
    app = TrackerApp(EncounterSession(history, SeededDice(1), tmp_path / "pit.fight"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("B")
        await until(pilot, lambda: "until the forecast" in screen_text(app), "the dialog")
        said = str(app.screen.query_one("#balance-steps", Static).content)
        offered = "then scale their hit points" in said
        assert offered != scales_nothing(history.state.system)
