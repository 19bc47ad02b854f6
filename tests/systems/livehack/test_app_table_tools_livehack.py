"""LiveHack's tracks from the app's tools, at 80x24, by keys: Wounds and its own healing on
the `:` line, + and - on the selected row (moved from tests/app/test_app_table_tools.py)."""

from __future__ import annotations

from pathlib import Path

from rules.systems.livehack.demo import build as livehack_demo
from tests.app import test_app_table_tools
from tests.app.test_app_command_line import type_line
from tests.app.test_app_table_tools import SMALL
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.widgets.combatants import CombatantsPane


def make_app(tmp_path: Path) -> TrackerApp:
    return test_app_table_tools.make_app(tmp_path, livehack_demo())  # type: ignore[no-any-return]


def wounds(app: TrackerApp, cid: str) -> int:
    return app.session.state.combatant(cid).sheet.wounds  # type: ignore[no-any-return]


async def test_wound_and_heal_on_the_line_and_undo(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, "wound orla 2")
        assert wounds(app, "c1") == 2
        assert "Orla Wounds: 0 → 2 (+2)" in screen_text(app)
        await type_line(pilot, "heal orla")  # LiveHack's own healing: 1 level
        assert wounds(app, "c1") == 1
        assert "Orla heals 1 Wounds" in screen_text(app)
        await type_line(pilot, "undo 2")
        assert wounds(app, "c1") == 0
        await type_line(pilot, "heal orla")
        assert isinstance(app.screen, CommandLineScreen)
        assert "Orla's Wounds is already at its best (0)" in screen_text(app)


async def test_plus_and_minus_on_the_selected_row(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        pane = app.screen.query_one(CombatantsPane)
        pane.focus()
        await pilot.pause()
        selected = pane.selected_id
        assert selected is not None
        before = wounds(app, selected)
        await pilot.press("plus", "plus")
        await pilot.pause()
        assert wounds(app, selected) == before + 2  # + raises the number shown: Wounds
        await pilot.press("minus")
        await pilot.pause()
        assert wounds(app, selected) == before + 1
        await pilot.press("u")
        await pilot.pause()
        assert wounds(app, selected) == before + 2
