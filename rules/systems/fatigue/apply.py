"""How Fatigue & Thresholds' events change the state: pools paid, and the open check with its
suckage, call-off and aid. Never rolls or refuses: saves and undo replay it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from .check import (
    first_comparison,
    next_comparison,
    paying_sides,
    spend,
)
from .events import (
    FatigueAided,
    FatigueCalledOff,
    FatigueChecked,
    FatiguePoolsSpent,
    FatigueSuckageTaken,
    FatigueTraded,
    pending,
)

if TYPE_CHECKING:
    from .events import FatigueEncounter


def apply(state: FatigueEncounter, event: object) -> FatigueEncounter:
    match event:
        case FatigueChecked():
            state = state.update(last_roll=first_comparison(event), last_roll_applied=False)
            for side in paying_sides(event):
                state = spend(state, side.combatant_id, side.upfront, event.spill)
            return state
        case FatigueSuckageTaken():
            roll = pending(state)
            return state.update(
                last_roll=structs.replace(roll, suckage=(*roll.suckage, event.suckage))
            )
        case FatigueCalledOff():
            return state.update(last_roll=structs.replace(pending(state), called_off=event.levels))
        case FatigueTraded():
            return state.update(last_roll=structs.replace(pending(state), traded=event.wind))
        case FatigueAided():
            roll = pending(state)
            state = state.update(last_roll=structs.replace(roll, aids=(*roll.aids, event.aid)))
            return spend(state, event.aid.helper.combatant_id, event.aid.helper.upfront, roll.spill)
        case FatiguePoolsSpent():
            spill = isinstance(state.last_roll, FatigueChecked) and state.last_roll.spill
            state = spend(state, event.combatant_id, event.costs, spill)
            return settled(state)
    raise TypeError(f"not a Fatigue & Thresholds event: {event!r}")


def settled(state: FatigueEncounter) -> FatigueEncounter:
    """The open comparison settled: the next defender's comes up, if one lost."""
    roll = state.last_roll
    following = next_comparison(roll) if isinstance(roll, FatigueChecked) else None
    if following is None:
        return state.update(last_roll_applied=True)
    return state.update(last_roll=following, last_roll_applied=False)
