"""Concentration that ends of itself (SRD 5.1, *Concentration*): "You lose concentration on a
spell if you are incapacitated or if you die"; and the tracker's reading of an effect whose
every target it held is dead (rulings.md, D4-08).

After every command (a system's, and the core's that change a combatant: a condition added, a
sheet edited, hit points changed by hand), the state its events leave is read again; each
concentration that cannot go on ends there, with the conditions its effect laid, in events of
the same record: a replay folds them as they were decided."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.encounter import CombatantEdited
from rules.engine import fold_onto
from rules.events import ConditionAdded, TrackChanged

from .decide import end_concentration
from .events import (
    TARGETS_DEAD,
    D20ConcentrationStarted,
    D20Damaged,
    D20DeathSaved,
    D20Exhausted,
    sheet_of,
    system_state,
)
from .sheet import life_word
from .standing import why_not

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

# The events that can incapacitate, drop or kill someone, or start a concentration: no other
# can end one of itself (a miss, a heal, a condition lifted). By their exact types: asked
# after every command (a forecast's runs).
CHANGES = frozenset(
    (
        D20Damaged,
        ConditionAdded,
        D20DeathSaved,
        D20Exhausted,
        D20ConcentrationStarted,
        CombatantEdited,
        TrackChanged,
    )
)


def lapsed_after(state: D20Encounter, events: list[Any]) -> list[Any]:
    """What ends after ``events`` (decided on ``state``): nothing, at once, when none of them
    changes what a combatant is or nobody concentrates (most commands: a forecast's runs)."""
    kinds = {type(e) for e in events}
    if kinds.isdisjoint(CHANGES):
        return []
    if D20ConcentrationStarted not in kinds and not any(
        c.sheet.concentrating for c in state.combatants
    ):
        return []
    return lapsed(fold_onto(state, events))


def lapsed(state: D20Encounter) -> list[Any]:
    """Each concentration that cannot go on in ``state``, ended, with why: its caster
    incapacitated (a condition that includes it: stunned, paralyzed, petrified, unconscious),
    at 0 hit points or dead; or every target its effect held dead or gone."""
    events: list[Any] = []
    for caster in state.combatants:
        if not sheet_of(caster).concentrating:
            continue
        why = why_not(state, caster) or _targets_dead(state, caster)
        if why:
            events += end_concentration(state, caster, why)
    return events


def _targets_dead(state: D20Encounter, caster: D20Combatant) -> str:
    held = [h.target_id for h in system_state(state).held if h.source_id == caster.id]
    if not held:
        return ""  # it holds nobody the tracker knows of (Bless; Hex moves to another)
    for target_id in held:
        target = state.find(target_id)
        if target is not None and life_word(sheet_of(target)) != "dead":
            return ""
    return TARGETS_DEAD
