"""Regeneration as a stat block's trait (SRD 5.1, a troll's: "The troll regains 10 hit points
at the start of its turn. If the troll takes acid or fire damage, this trait doesn't function
at the start of the troll's next turn."), written ``Regeneration 10 acid fire``. A creature
joining (or edited) with it regenerates at each turn's start as *Start of turn* would set it
(``turn_edges.py``), and a damage of those types it takes switches it off for its next turn,
as *Regeneration off* would; rulings D5-15."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.encounter import CombatantAdded, CombatantEdited

from .events import system_state
from .sheet import D20Sheet
from .traits import REGENERATION, written
from .turn_edge_events import D20RegenerationStopped, D20TurnStartSet, TurnStart

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter


def joined(state: D20Encounter, events: list[Any]) -> list[Any]:
    """The regeneration each combatant added or edited in ``events`` brings in its sheet
    (``state``: before them), where its turn's start does not hold it already; one whose
    edit took the trait away stops regenerating."""
    found: list[Any] = []
    for event in events:
        if not isinstance(event, CombatantAdded | CombatantEdited):
            continue
        sheet = event.combatant.sheet
        if not isinstance(sheet, D20Sheet):
            continue
        cid = event.combatant.id
        start = next((s for s in system_state(state).starts if s.combatant_id == cid), None)
        start = start or TurnStart(cid)
        now = written(sheet.traits, REGENERATION)
        was = state.find(cid)
        before = written(was.sheet.traits, REGENERATION) if was is not None else None
        if was is not None and now == before:  # an edit of something else: a turn's start
            continue  # set by hand (Start of turn) stays
        wanted = now[0] if now is not None else (0 if before is not None else start.regeneration)
        if wanted != start.regeneration:
            found.append(D20TurnStartSet(structs.replace(start, regeneration=wanted)))
    return found


def stopped(target: D20Combatant, kinds: Iterable[str], amount: int) -> list[Any]:
    """Its regeneration off for its next turn when a damage of ``kinds`` (``amount`` taken)
    is of a type its trait names."""
    found = written(target.sheet.traits, REGENERATION) if amount > 0 else None
    if found is None or not set(found[1]) & set(kinds):
        return []
    return [D20RegenerationStopped(target.id)]
