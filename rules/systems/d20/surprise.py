"""Surprise in Generic d20, two ways a table may play it (rulings.md, D4-07).

The 2014 way: each of the side still in the fight is Surprised until the first round ends:
it takes no turn in that round, and has no reaction until then. The 2024 way: the side rolls
its initiative again with disadvantage (two d20s, the lower kept), every die in the event,
and the order is sorted by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules import initiative
from rules.conditions import Condition, Duration, Expiry
from rules.dice import DiceSource
from rules.events import ConditionAdded
from rules.system import RuleSystem

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

SURPRISED = "Surprised"
WAYS = (
    ("2014", "no turn in the first round, no reaction until it ends"),
    ("2024", "initiative rolled with disadvantage"),
)


def surprised(state: D20Encounter, combatant: D20Combatant) -> bool:
    """Whether it is Surprised in the first round (the 2014 way): it takes no turn."""
    return state.round == 1 and combatant.condition(SURPRISED) is not None


def surprise(
    system: RuleSystem, state: D20Encounter, side: str, way: str, dice: DiceSource
) -> tuple[str, list[Any]]:
    members = [c for c in state.combatants if c.side == side and not system.out_of_fight(state, c)]
    if way == "2024":
        rolls = [
            initiative.rolled_for(system, state, (c,), _at_disadvantage(system, state, c), dice)
            for c in members
        ]
        after = state
        for roll in rolls:
            after = initiative.apply_set(after, roll)
        sort = initiative.sorted_event(system, after, first_turn=state)
        effect = "initiative rolled again with disadvantage (the 2024 way)"
        return effect, [*rolls, *([sort] if sort is not None else [])]
    lasts = Condition(SURPRISED, Duration("end-of-round"), Expiry(state.round))
    effect = "no turn in the first round, no reaction until it ends (the 2014 way)"
    return effect, [ConditionAdded(c.id, lasts) for c in members]


def _at_disadvantage(system: RuleSystem, state: D20Encounter, combatant: D20Combatant) -> str:
    """Its initiative dice with the d20 rolled twice, the lower kept (a constant stays)."""
    dice = system.initiative_dice(state, combatant)
    return dice.replace("1d20", "2d20kl1", 1)
