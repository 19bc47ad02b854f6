"""A damage as its target takes it, in words: the log's line, and what `d` will deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.odds import percent

from . import fortitude, taken
from .decide import hit_damage
from .events import D20Attacked, D20Damaged, D20Saved, damage_words, sheet_of
from .traits import RELENTLESS, UNDEAD_FORTITUDE
from .turn_edge_events import D20RegenerationStopped

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter


def damage_notes(event: D20Damaged) -> str:
    """What the target made of a damage, as the log says it after the amount: `` (half,
    resistant, of 8)``, each type's when it has several, or "" when it took it all."""
    notes = []
    if event.half:
        notes.append("half")
    if event.modifier:
        notes.append(event.modifier)
    if event.parts:  # each type as rolled, then what the target made of each
        notes.append(" + ".join(f"{p.rolled} {p.damage_type}".rstrip() for p in event.parts))
        notes += [f"{p.damage_type} {p.modifier}: {p.amount}" for p in event.parts if p.modifier]
        return f" ({', '.join(notes)})"
    return f" ({', '.join(notes)}, of {event.rolled})" if notes else ""


def attack_taken(state: D20Encounter, roll: D20Attacked) -> str:
    """What a hit does to its target, as applying it deals it: ``Wight takes 4 slashing
    (resistant, of 8)``; the damage rolled when the target has gone."""
    target = state.find(roll.target_id)
    if target is None:
        rolled = damage_words(roll.damage_total, roll.damage_type, roll.damage_parts)
        return f"{state.name_of(roll.target_id)} takes {rolled}"
    events = hit_damage(state, roll)
    dealt = next(e for e in events if isinstance(e, D20Damaged))
    # Several types: the whole, each type's in the notes ("takes 28 (18 piercing + 10 fire)",
    # as the log says it); the types once said here too, the notes said them twice.
    said = str(dealt.amount) if dealt.parts else f"{dealt.amount} {dealt.damage_type}".rstrip()
    off = any(isinstance(e, D20RegenerationStopped) for e in events)
    then = ", and no regeneration at its next turn's start" if off else ""
    return f"{target.name} takes {said}{damage_notes(dealt)}{at_zero_then(target, dealt)}{then}"


def at_zero_then(target: D20Combatant, dealt: D20Damaged) -> str:
    """What a trait will do as a damage about to be dealt drops its target: Relentless
    spent, or Undead Fortitude's save with its chance (``, then Undead Fortitude: Con save
    DC 14 (45.0% to stay up)``); "" when nothing."""
    if dealt.relentless:
        return f", then {RELENTLESS}: 1 hit point instead"
    sheet = sheet_of(target)
    after = taken.dealt(sheet, dealt)
    dc = fortitude.dc_owed(sheet, after, dealt.amount, fortitude.kinds_of(dealt), dealt.critical)
    if not dc:
        return ""
    chance = percent(fortitude.held_chance(target, dealt.amount))
    return f", then {UNDEAD_FORTITUDE}: Con save DC {dc} ({chance} to stay up)"


def save_taken(state: D20Encounter, roll: D20Saved) -> str:
    """What a save effect's result waiting to be dealt holds: ``Claws on Orla: failed``, or
    ``Fire Breath on 3 targets: 2 failed``."""
    if len(roll.rolls) == 1:
        made = "saved" if roll.rolls[0].success else "failed"
        return f"{roll.effect} on {state.name_of(roll.rolls[0].target_id)}: {made}"
    failed = sum(not r.success for r in roll.rolls)
    return f"{roll.effect} on {len(roll.rolls)} targets: {failed} failed"
