"""Regeneration as a stat block's trait (SRD 5.1, a troll's: "The troll regains 10 hit points
at the start of its turn. If the troll takes acid or fire damage, this trait doesn't function
at the start of the troll's next turn. The troll dies only if it starts its turn with 0 hit
points and doesn't regenerate."), written ``Regeneration 10 acid fire at 0`` (without ``at
0``, a vampire's: dead at 0 as any monster). A creature joining (or edited) with it
regenerates at each turn's start as *Start of turn* would set it (``turn_edges.py``), and a
damage of those types it takes switches it off for its next turn, as *Regeneration off*
would; rulings D5-15. A troll's at 0 is down, not dead (``traits.down_not_dead``), and dies
as a turn of its starts without regenerating (``perishes``; D5-16)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.encounter import CombatantAdded, CombatantEdited

from .events import system_state
from .sheet import D20Sheet
from .traits import down_not_dead, regeneration_of
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
        now = regeneration_of(sheet.traits)
        was = state.find(cid)
        before = regeneration_of(was.sheet.traits) if was is not None else None
        if was is not None and now == before:  # an edit of something else: a turn's start
            continue  # set by hand (Start of turn) stays
        dropped = 0 if before is not None else start.regeneration  # the trait taken away
        wanted = now.amount if now is not None else dropped
        if wanted != start.regeneration:
            found.append(D20TurnStartSet(structs.replace(start, regeneration=wanted)))
    return found


def stopped(target: D20Combatant, kinds: Iterable[str], amount: int) -> list[Any]:
    """Its regeneration off for its next turn when a damage of ``kinds`` (``amount`` taken)
    is of a type its trait names."""
    found = regeneration_of(target.sheet.traits) if amount > 0 else None
    if found is None or not set(found.stops) & set(kinds):
        return []
    return [D20RegenerationStopped(target.id)]


def perishes(state: D20Encounter, following: D20Combatant) -> bool:
    """Whether ``following``, whose turn starts, is a troll down at 0 that will not
    regenerate (its regeneration off, or set to none), and so dies."""
    sheet = following.sheet
    if sheet.hp > 0 or sheet.dead or sheet.hero or not down_not_dead(sheet.traits):
        return False
    found = system_state(state)
    regenerates = any(s.combatant_id == following.id and s.regeneration for s in found.starts)
    return not regenerates or following.id in found.regeneration_off_ids
