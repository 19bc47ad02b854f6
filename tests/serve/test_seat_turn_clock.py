"""The turn clock on a served player's seat, at 80x24: it counts the turn of a combatant the
player sees, as the GM's does, and no time (`⏱ -:--`) for the turn of one hidden from them."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, NextTurn
from rules.dice import SeededDice
from tests.app.support import fight_of, until
from tests.app.test_turn_clock import Clock
from tests.picks import a_system, keeps_added_order
from tests.screen import screen_text
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession

SECRET = "Zorbex"


def served(tmp_path: Path) -> tuple[Table, Clock]:
    history = fight_of(
        a_system(keeps_added_order),
        AddCombatant(name="Orla", side="party"),
        AddCombatant(name="Brak", side="party"),
        AddCombatant(name=SECRET, gm_only=True),
    )
    session = EncounterSession(history, SeededDice(3), tmp_path / "cellar.fight")
    clock = Clock()
    session.clock = clock  # type: ignore[method-assign]
    table = Table(session)
    table.assign("Alice", frozenset({"c1"}))
    return table, clock


def top_line(app: TableApp) -> str:
    return screen_text(app).splitlines()[0]


async def test_a_players_seat_counts_the_turns_it_sees_and_no_hidden_ones(tmp_path: Path) -> None:
    table, clock = served(tmp_path)
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        table.session.execute(NextTurn())  # Brak's turn
        clock.now += 45
        await until(pilot, lambda: "⏱ 0:45" in top_line(app), "Brak's turn timed on her seat")
        table.session.execute(NextTurn())  # the hidden foe's turn
        clock.now += 30
        assert table.session.turn_started() == clock.now - 30  # the GM's clock runs
        await until(pilot, lambda: "⏱ -:--" in top_line(app), "no time for a hidden turn")
        assert SECRET not in screen_text(app)
