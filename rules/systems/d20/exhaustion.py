"""Exhaustion's six levels (SRD 5.1, *Appendix PH-A: Conditions*, Exhaustion), each with what
the levels below it do: 1 disadvantage on ability checks, 2 speed halved, 3 disadvantage on
attack rolls and saving throws, 4 hit point maximum halved, 5 speed 0, 6 death. A long rest
takes one level off (and gives back a drained maximum and every hit point: ``rested``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.errors import Rejected

from .drain import restored
from .events import D20Exhausted, D20Rest, D20Rested, D20SetExhaustion, sheet_of
from .sheet import D20Sheet
from .uses import rest_words
from .uses import restored as uses_back

if TYPE_CHECKING:
    from .events import D20Encounter

MOST = 6
CHECKS, ROLLS, HALVED, STILL, DEATH = 1, 3, 4, 5, 6  # STILL: speed 0
LEVELS = (
    ("0", "0: none"),
    ("1", "1: disadvantage on ability checks"),
    ("2", "2: speed halved"),
    ("3", "3: disadvantage on attacks and saves"),
    ("4", "4: hit point maximum halved"),
    ("5", "5: speed 0"),
    ("6", "6: death"),
)
WHAT = dict(LEVELS)


def exhausted(sheet: D20Sheet, level: int) -> D20Sheet:
    """The sheet at exhaustion ``level``: its maximum halved from level 4 (rounded down, at
    least 1; what was taken comes back below 4), dead at 6."""
    level = max(0, min(level, MOST))
    changes: dict[str, object] = {"exhaustion": level}
    if level >= HALVED > sheet.exhaustion:
        most = max(sheet.hp_max // 2, 1)
        changes.update(hp_max=most, hp=min(sheet.hp, most), exhaustion_halved=sheet.hp_max - most)
    elif sheet.exhaustion >= HALVED > level:
        changes.update(hp_max=sheet.hp_max + sheet.exhaustion_halved, exhaustion_halved=0)
    if level >= DEATH:
        changes["dead"] = True
    return structs.replace(sheet, **changes)


def rested(sheet: D20Sheet) -> D20Sheet:
    """A long rest: one level of exhaustion off, a drained maximum back, every hit point back
    (temporary ones gone), the uses a day back (uses.py). A creature at 0 hit points gains
    none of it (the SRD's "at least 1 hit point at the start of the rest"), the dead nothing."""
    if sheet.dead or sheet.hp <= 0:
        return sheet
    sheet = exhausted(restored(sheet), sheet.exhaustion - 1)
    return structs.replace(uses_back(sheet), hp=sheet.hp_max, temp_hp=0)


def set_exhaustion(state: D20Encounter, cmd: D20SetExhaustion) -> list[Any]:
    who = state.combatant(cmd.combatant_id)
    sheet = sheet_of(who)
    if sheet.dead:
        raise Rejected(f"{who.name} is dead")
    if not 0 <= cmd.level <= MOST:
        raise Rejected(f"Exhaustion is a level from 0 to {MOST}")
    if cmd.level == sheet.exhaustion:
        raise Rejected(f"{who.name} is at exhaustion {cmd.level} already")
    if cmd.level > sheet.exhaustion and "exhaustion" in sheet.condition_immunities:
        raise Rejected(f"{who.name} is immune to exhaustion")
    return [D20Exhausted(who.id, sheet.exhaustion, cmd.level)]


def rest(state: D20Encounter, cmd: D20Rest) -> list[Any]:
    ids = tuple(c for c in dict.fromkeys(cmd.combatant_ids) if state.find(c) is not None)
    if not ids:
        raise Rejected("Nobody to rest")
    return [D20Rested(ids)]


def rest_line(before: D20Sheet, after: D20Sheet, veiled: bool = False) -> str:
    """What a long rest gave one creature ("" when nothing). ``veiled``: its hit points are
    a band or hidden to the reader (rules.hp_view), so they and its maximum go unsaid."""
    parts = []
    if after.hp != before.hp and not veiled:
        parts.append(f"HP {before.hp} → {after.hp}")
    if after.hp_max != before.hp_max and not veiled:
        parts.append(f"maximum {before.hp_max} → {after.hp_max}")
    if after.exhaustion != before.exhaustion:
        parts.append(f"exhaustion {before.exhaustion} → {after.exhaustion}")
    if after.resisted != before.resisted or after.used_today != before.used_today:
        parts.append(rest_words(before))
    if not parts and (before.dead or before.hp <= 0):
        parts.append("no benefit at 0 hit points" if not before.dead else "dead")
    return ", ".join(parts)
