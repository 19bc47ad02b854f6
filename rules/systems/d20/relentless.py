"""Relentless (SRD 5.1, a boar's trait): "If the boar takes 7 damage or less that would reduce
it to 0 hit points, it is reduced to 1 hit point instead" (recharging after a rest); and a
hero's Relentless Endurance (the SRD's half-orc): "When you are reduced to 0 hit points but
not killed outright, you can drop to 1 hit point instead. You can't use this feature again
until you finish a long rest." Spent as the damage is dealt (``D20Damaged.relentless``), and
counted among the sheet's uses until a long rest (``uses.py``); rulings D5-13."""

from __future__ import annotations

from .sheet import D20Sheet
from .traits import RELENTLESS, RELENTLESS_ENDURANCE, number_of

USE = RELENTLESS  # its name among the sheet's uses since its last long rest


def used(sheet: D20Sheet) -> bool:
    return any(name == USE for name, _ in sheet.used_today)


def cap(sheet: D20Sheet) -> int | None:
    """The most damage it shrugs off now: None when it cannot (no such trait, or spent);
    -1 for no limit (Relentless Endurance: any damage that does not kill outright)."""
    if used(sheet):
        return None
    if RELENTLESS_ENDURANCE in sheet.traits:
        return -1
    return number_of(sheet.traits, RELENTLESS)


def spares(sheet: D20Sheet, after: D20Sheet, amount: int) -> bool:
    """Whether a damage of ``amount`` that takes ``sheet`` to ``after`` leaves it at 1 hit
    point instead: it drops it to 0 from above, within the trait's cap, killing no hero
    outright and draining no maximum to 0."""
    most = cap(sheet)
    if most is None or sheet.hp <= 0 or after.hp > 0 or after.hp_max <= 0:
        return False
    if sheet.hero and after.dead:  # killed outright: massive damage
        return False
    return most < 0 or amount <= most
