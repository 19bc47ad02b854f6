"""Health a player's seat sees as a band (`:hp foes band`) is left out of a payment's line:
the seat reads what was paid and the other pools, the GM Health's figures too."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.systems.fatigue.arithmetic import Cost
from rules.systems.fatigue.events import FatiguePoolsSpent
from tests.app.support import fight_of
from tests.seat_view import banded, seat_line


def test_a_banded_health_pool_is_not_in_a_payment_line_on_the_seat() -> None:
    history = banded(
        fight_of(
            "fatigue",
            AddCombatant(name="Orla", side="party"),
            AddCombatant(name="Goblin", side="foes"),
        )
    )
    costs = (Cost("health", 5), Cost("wind", 2))
    paid = FatiguePoolsSpent(combatant_id="c2", costs=costs, what="a cut", reckoning="")
    assert seat_line(history, paid, gm=True).endswith("-> HP 25/30, Wind 38/40")
    assert seat_line(history, paid).endswith("pays 5 HP 2 Wind for a cut -> Wind 38/40")
