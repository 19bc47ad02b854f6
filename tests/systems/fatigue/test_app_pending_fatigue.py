"""Fatigue's unpaid consequence in the app, by keys at 80x24: a new roll, by key or on the
`:` line, asks first (moved from tests/app/test_app_pending.py)."""

from __future__ import annotations

from pathlib import Path

from rules.systems.fatigue.demo import build as fatigue_demo
from tests.app.test_app_pending import SMALL, discards, make_app, where
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen


def demo_app(tmp_path: Path) -> tuple[TrackerApp, tuple[str, ...]]:
    """The demo, the dice seed and the keys that leave a result waiting."""
    # The demo ends on Mara's Bad defense, unpaid.
    return make_app(tmp_path, fatigue_demo(), 1), ()


async def test_a_new_roll_asks_first_and_esc_goes_back(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        before = app.session.state
        for key in ("r", "t"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, WaitingScreen), key
            assert "Apply it before you roll again?" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, EncounterScreen)
        assert app.session.state == before
        await pilot.press("r", "x")  # discarded: then the roll dialog opens
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert [d.what for d in discards(app)] == ["Mara pays for Bad defense"]


async def test_the_command_line_asks_too(tmp_path: Path) -> None:
    app, _ = demo_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        turn = where(app)
        await pilot.press(":", *"next", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Apply it before you end the turn?" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert where(app) == turn
        await pilot.press(":", *"attack mara brute", "enter")
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Apply it before you roll again?" in screen_text(app)
        await pilot.press("d")  # paid: then the attack rolls
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        state = app.session.state
        assert state.last_roll.attacker.combatant_id == "c1"  # type: ignore[union-attr]
        assert not discards(app)
