"""What damage and healing do to a Generic d20 sheet: temporary hit points spent first, hit
points down to 0, a hero's death save failures taken at 0, the SRD's instant death from
massive damage, and healing up to the maximum (``drain.py`` lowers the maximum too,
``fortitude.py`` stands a zombie up)."""

from __future__ import annotations

from msgspec import structs

from .sheet import D20Sheet, dies_at_zero


def take_damage(sheet: D20Sheet, amount: int, critical: bool = False) -> D20Sheet:
    """The sheet after ``amount`` damage: temporary hit points first, then hit points down to
    0. A hero already at 0 takes a death save failure (two from a critical); damage past 0 of
    at least its hit point maximum kills outright (the SRD's instant death)."""
    if amount <= 0 or sheet.dead:
        return sheet
    temp = min(sheet.temp_hp, amount)
    left = amount - temp
    changes: dict[str, object] = {"temp_hp": sheet.temp_hp - temp}
    if left and sheet.hp <= 0:
        if sheet.hero:
            # A stable hero's counts start again from 0 (an older save may have kept them).
            failures = (0 if sheet.stable else sheet.death_failures) + (2 if critical else 1)
            successes = 0 if sheet.stable else sheet.death_successes
            changes.update(death_successes=successes, death_failures=min(failures, 3))
            changes.update(stable=False, dead=failures >= 3 or massive(sheet, amount) > 0)
        return structs.replace(sheet, **changes)
    if left:
        hp = max(sheet.hp - left, 0)
        changes["hp"] = hp
        if hp == 0 and sheet.hero:
            changes.update(death_successes=0, death_failures=0, stable=False)
            changes["dead"] = massive(sheet, amount) > 0
        if hp == 0 and not sheet.hero:
            changes["dead"] = dies_at_zero(sheet)
    return structs.replace(sheet, **changes)


def past_zero(sheet: D20Sheet, amount: int) -> int:
    """The damage left once ``amount`` (temporary hit points spent first) has taken the
    sheet to 0 hit points (0 when it does not)."""
    left = amount - min(sheet.temp_hp, amount)
    return max(left - max(sheet.hp, 0), 0)


def massive(sheet: D20Sheet, amount: int) -> int:
    """The damage past 0 when it is at least a hero's hit point maximum (the SRD's instant
    death), else 0."""
    past = past_zero(sheet, amount) if sheet.hero else 0
    return past if past and past >= sheet.hp_max else 0


def healed(sheet: D20Sheet, amount: int, temporary: bool) -> D20Sheet:
    """Healing up to the maximum (a hero at 0 wakes, its death saves cleared), or temporary
    hit points, which do not add up: the higher stays."""
    if sheet.dead:
        return sheet
    if temporary:
        return structs.replace(sheet, temp_hp=max(sheet.temp_hp, amount))
    if amount <= 0:
        return sheet
    return structs.replace(
        sheet,
        hp=min(sheet.hp + amount, sheet.hp_max),
        death_successes=0,
        death_failures=0,
        stable=False,
    )
