"""The table tools in Fatigue's demo: its own word for damage on the `:` line, and + on a
track that falls (moved from tests/app/test_app_table_tools.py)."""

from __future__ import annotations

from pathlib import Path

from rules.systems.fatigue.demo import build as fatigue_demo
from tests.app.test_app_command_line import type_line
from tests.app.test_app_table_tools import SMALL, make_app
from tests.screen import screen_text
from tracker.widgets.combatants import CombatantsPane


async def test_the_systems_own_word_and_a_falling_track(tmp_path: Path) -> None:
    app = make_app(tmp_path, fatigue_demo())
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        pane = app.screen.query_one(CombatantsPane)
        first = app.session.state.combatant(pane.selected_id or "")
        health = first.sheet.health
        await type_line(pilot, f"damage {first.id} 3")  # Fatigue's word for the worse way
        assert app.session.state.combatant(first.id).sheet.health == health - 3
        assert f"{first.name} Health: {health} → {health - 3} (-3)" in screen_text(app)
        pane.focus()
        await pilot.press("plus")  # + raises the number shown: Health, so it heals
        await pilot.pause()
        assert app.session.state.combatant(first.id).sheet.health == health - 2
