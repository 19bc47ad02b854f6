"""Fights of any size for the forecast's benchmark and tests, in any system.

``crowd(system, combatants)`` takes the first two sides of the system's demo and fields
``combatants`` of them, half a side, each a fresh copy of that side's demo combatants in turn
(``fresh_sheet``: at full strength, as a new fight starts them), added as the table adds them
(initiative rolled as they join, on seeded dice). The same arguments always give the same
fight, and nothing here is per system: a new system's demo is its crowd.
"""

from __future__ import annotations

from rules.commands import AddCombatant, AddCombatants
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto, initial_state, new_encounter
from rules.registry import get_system, part

SEED = 45  # the number: any fixed seed gives a fixed crowd


def crowd(system: str, combatants: int) -> Encounter:
    """A fresh fight of ``combatants`` (even, at least 2) from ``system``'s demo, two sides."""
    demo = part(system, "demo")
    if demo is None:
        raise LookupError(f"{system} has no demo to field a crowd from")
    start = demo.build().state
    rules = get_system(system)
    sides = list(dict.fromkeys(c.side for c in start.combatants))[:2]
    teams = [[c for c in start.combatants if c.side == side] for side in sides]
    members = []
    for number in range(combatants):
        team = teams[number % 2]
        model = team[(number // 2) % len(team)]
        sheet = rules.fresh_sheet(model.sheet)
        members.append(AddCombatant(name=model.name, side=model.side, sheet=sheet))
    state = initial_state(new_encounter("Crowd", system))
    return fold_onto(state, decide(state, AddCombatants(tuple(members)), SeededDice(SEED)))
