"""Undead Fortitude (SRD 5.1, a zombie's trait): "If damage reduces the zombie to 0 hit
points, it must make a Constitution saving throw with a DC of 5 + the damage taken, unless the
damage is radiant or from a critical hit. On a success, the zombie drops to 1 hit point
instead." The save is rolled as the damage is dealt and kept in its event
(``D20Damaged.fortitude``), so no part of the tracker reads the creature dead for a moment
before its save stands it up again; rulings D5-09."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from .events import D20Damaged
from .sheet import D20Sheet
from .standing import save_made
from .traits import UNDEAD_FORTITUDE

if TYPE_CHECKING:
    from .events import D20Combatant

BASE_DC = 5
ABILITY = "con"
RADIANT = "radiant"


def may_save(sheet: D20Sheet, critical: bool, kinds: Iterable[str]) -> bool:
    """Whether a damage of ``kinds`` that drops ``sheet`` to 0 asks for the save."""
    return UNDEAD_FORTITUDE in sheet.traits and not critical and RADIANT not in kinds


def dc_owed(
    sheet: D20Sheet, after: D20Sheet, amount: int, kinds: Iterable[str], critical: bool
) -> int:
    """The DC of the save a damage of ``amount`` (of ``kinds``) asks of ``sheet``, which it
    takes to ``after``: 0 when it asks none (no such trait, not dropped to 0 by it, radiant,
    a critical hit, or a hit point maximum drained to 0)."""
    kinds = set(kinds)
    if not may_save(sheet, critical, kinds) or sheet.hp <= 0:
        return 0
    if after.hp > 0 or after.hp_max <= 0:
        return 0
    return BASE_DC + amount


def kinds_of(event: D20Damaged) -> set[str]:
    """The damage types a damage dealt any of (a type of several that came to 0 is none)."""
    return {p.damage_type for p in event.parts if p.amount} or {event.damage_type}


def held_chance(target: D20Combatant, amount: int) -> Fraction:
    """The chance ``target`` makes its save when ``amount`` drops it (the odds' reading)."""
    return save_made(target, ABILITY, BASE_DC + amount)
