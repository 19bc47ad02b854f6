"""A hit point maximum lowered by the damage taken (SRD 5.1: a wight's Life Drain, a
specter's, a vampire's bite: "reduced by an amount equal to the necrotic damage taken")
until a long rest; a creature whose maximum reaches 0 dies."""

from __future__ import annotations

from msgspec import structs

from .sheet import D20Sheet
from .wounds import take_damage


def drained(sheet: D20Sheet, amount: int, critical: bool = False) -> D20Sheet:
    """The sheet after ``amount`` damage that also lowers its maximum by as much: hit points
    no higher than the new maximum, dead at a maximum of 0 (a hero too: no death saves)."""
    after = take_damage(sheet, amount, critical)
    if amount <= 0 or sheet.dead:
        return after
    most = max(sheet.hp_max - amount, 0)
    return structs.replace(
        after,
        hp_max=most,
        hp=min(after.hp, most),
        hp_max_lost=sheet.hp_max_lost + sheet.hp_max - most,
        dead=after.dead or most == 0,
    )


def restored(sheet: D20Sheet) -> D20Sheet:
    """The maximum back as a long rest gives it (hit points not healed by it here)."""
    if not sheet.hp_max_lost:
        return sheet
    return structs.replace(sheet, hp_max=sheet.hp_max + sheet.hp_max_lost, hp_max_lost=0)
