"""The d20 fight's summary with its heroes dying: the State column whole or left out."""

from __future__ import annotations

from pathlib import Path

from msgspec import structs
from textual.widgets import DataTable

from rules.commands import EditCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide
from rules.systems.d20.demo import STEM, build
from tests.app.test_app_summary import check_words_whole, open_summary
from tracker.app import TrackerApp
from tracker.session import EncounterSession


async def test_a_dying_heros_state_is_never_shortened_to_dyi(tmp_path: Path) -> None:
    history = build()
    for hero in [c for c in history.state.combatants if c.side == "party"]:
        dying = EditCombatant(combatant_id=hero.id, sheet=structs.replace(hero.sheet, hp=0))
        history.commit(decide(history.state, dying, ScriptedDice([])))
    session = EncounterSession(history, SeededDice(1), tmp_path / f"{STEM}.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_summary(app, pilot)
        for width in range(80, 101, 2):
            await check_words_whole(app, pilot, width)
        table = app.screen.query_one("#summary-table", DataTable)
        state = next(key for key, c in table.columns.items() if c.label.plain.strip() == "State")
        assert "dying 0✓0✗" in [cell.plain.strip() for cell in table.get_column(state)]
