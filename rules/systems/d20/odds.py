"""Generic d20's exact odds (no msgspec): an attack's miss, hit and critical with advantage
or disadvantage, its damage and the chance it drops the target, a saving throw's chance, and
a dying hero's chance of each end. Fractions throughout."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from rules.notation.exact import Budget
from rules.odds import Odds, TierOdds

from .table import (
    ATTACK_TIERS,
    DEATH_DC,
    DEATH_SAVES,
    DEATH_TIERS,
    SAVE_TIERS,
    adjusted_worked_out,
)

SIDES = 20
Distribution = dict[int, Fraction]  # each amount of damage and its chance


def natural_weights(mode: int) -> tuple[tuple[int, ...], int]:
    """Each natural d20 result's weight (index 0 is a 1) and their denominator: one die, or
    the higher (``mode`` 1) or lower (-1) of two."""
    if mode > 0:
        return tuple(2 * n - 1 for n in range(1, SIDES + 1)), SIDES * SIDES
    if mode < 0:
        return tuple(2 * (SIDES - n) + 1 for n in range(1, SIDES + 1)), SIDES * SIDES
    return (1,) * SIDES, SIDES


def attack_outcome(natural: int, total: int, ac: int, crit_range: int, auto_crit: bool) -> str:
    """ "miss", "hit" or "critical": a natural 1 misses, a natural roll in the critical range
    hits and is critical, else the total against the AC (a hit critical when ``auto_crit``:
    a paralyzed or unconscious target)."""
    if natural == 1:
        return "miss"
    if natural >= crit_range:
        return "critical"
    if total < ac:
        return "miss"
    return "critical" if auto_crit else "hit"


def attack_chances(
    bonus: int, ac: int, mode: int, crit_range: int = 20, auto_crit: bool = False
) -> tuple[Fraction, Fraction, Fraction]:
    """The exact chance of a miss, a hit and a critical."""
    weights, denominator = natural_weights(mode)
    out = {"miss": 0, "hit": 0, "critical": 0}
    for natural, weight in enumerate(weights, start=1):
        out[attack_outcome(natural, natural + bonus, ac, crit_range, auto_crit)] += weight
    miss, hit, crit = (Fraction(out[k], denominator) for k in ("miss", "hit", "critical"))
    return miss, hit, crit


# What the target does to a damage: one modifier for all of it, or one for each of its types
# in order (``parts``: each type meets its own resistance, vulnerability or immunity).
Modifiers = str | tuple[str, ...]


def damage_chances(
    damage: str, critical: bool, modifier: Modifiers, half: bool = False
) -> Distribution:
    """The damage dealt (after the target's modifier for each type): each amount's exact
    chance."""
    found = adjusted_worked_out(damage, critical, modifier, half)
    return {
        int(value): Fraction(weight, found.denominator) for value, weight in found.weights.items()
    }


def at_least(chances: Distribution, goal: int) -> Fraction:
    return sum((p for amount, p in chances.items() if amount >= goal), Fraction(0))


def mean(chances: Distribution) -> Fraction:
    return sum((amount * p for amount, p in chances.items()), Fraction(0))


class Swing(NamedTuple):
    """One attack roll to come: what the drop chance of a round adds up."""

    bonus: int
    ac: int
    mode: int
    crit_range: int
    auto_crit: bool
    damage: str
    modifier: Modifiers


def swing_weights(swing: Swing) -> tuple[dict[int, int], int]:
    """An attack's damage dealt (0 on a miss), each amount's whole-number weight over one
    denominator."""
    weights, denominator = natural_weights(swing.mode)
    tally = {"miss": 0, "hit": 0, "critical": 0}
    for natural, weight in enumerate(weights, start=1):
        outcome = attack_outcome(
            natural, natural + swing.bonus, swing.ac, swing.crit_range, swing.auto_crit
        )
        tally[outcome] += weight
    on_hit = adjusted_worked_out(swing.damage, False, swing.modifier)
    on_crit = adjusted_worked_out(swing.damage, True, swing.modifier)
    out: dict[int, int] = {0: tally["miss"] * on_hit.denominator * on_crit.denominator}
    for found, weight, other in (
        (on_hit, tally["hit"], on_crit.denominator),
        (on_crit, tally["critical"], on_hit.denominator),
    ):
        for value, w in found.weights.items():
            amount = int(value)
            out[amount] = out.get(amount, 0) + weight * w * other
    return out, denominator * on_hit.denominator * on_crit.denominator


def drop_chance(swings: tuple[Swing, ...], to_drop: int, budget: Budget | None = None) -> Fraction:
    """The exact chance that ``swings``, one after another, deal at least ``to_drop`` in all:
    the hit points left (capped at 0) carried from each to the next, in whole numbers. With
    a ``budget``, each swing is paid for before it is taken (``TooBig`` when it runs out): a
    Multiattack's ten wide damages against thousands of hit points is a long sum."""
    left: dict[int, int] = {to_drop: 1}
    total = 1
    for swing in swings:
        weights, denominator = swing_weights(swing)
        if budget is not None:  # the weights grow long: paid by their length, as dice are
            budget.spend(len(left) * len(weights) * (1 + total.bit_length() // 256))
        after: dict[int, int] = {}
        for hp, w in left.items():
            if hp <= 0:
                after[0] = after.get(0, 0) + w * denominator
                continue
            for amount, v in weights.items():
                rest = max(hp - amount, 0)
                after[rest] = after.get(rest, 0) + w * v
        left, total = after, total * denominator
    return Fraction(left.get(0, 0), total)


def attack_odds(
    bonus: int,
    ac: int,
    mode: int = 0,
    crit_range: int = 20,
    *,
    auto_crit: bool = False,
    damage: str = "",
    modifier: Modifiers = "",
    to_drop: int | None = None,
    stays_up: Callable[[int, bool], Fraction] | None = None,
) -> Odds:
    """The tiers of an attack; with ``damage``, its mean on a hit and a critical, and with
    ``to_drop`` (the target's hit points and temporary ones) the chance it drops to 0 (a hit
    or a critical, ``True``, of each amount that does leaving it up with ``stays_up``'s
    chance: Undead Fortitude, Relentless)."""
    miss, hit, crit = attack_chances(bonus, ac, mode, crit_range, auto_crit)
    tiers = tuple(
        TierOdds(label, low, high, p)
        for (label, low, high, _), p in zip(ATTACK_TIERS, (miss, hit, crit), strict=True)
    )
    extra: dict[str, object] = {}
    if damage:
        on_hit = damage_chances(damage, False, modifier)
        on_crit = damage_chances(damage, True, modifier)
        extra["damage"] = (
            f"mean {_figure(mean(on_hit))} on a hit, {_figure(mean(on_crit))} on a critical"
        )
        extra["damage_on_hit"] = {str(amount): p for amount, p in sorted(on_hit.items())}
        extra["damage_on_critical"] = {str(amount): p for amount, p in sorted(on_crit.items())}
        if to_drop is not None:
            extra["drop"] = hit * _dropped(on_hit, to_drop, False, stays_up) + crit * _dropped(
                on_crit, to_drop, True, stays_up
            )
    return Odds("d20", tiers, extra)


def _dropped(
    chances: Distribution,
    to_drop: int,
    critical: bool,
    stays_up: Callable[[int, bool], Fraction] | None,
) -> Fraction:
    """The chance a damage of ``chances`` drops a target with ``to_drop`` left and keeps it
    down (``stays_up``: its chance to stand at 1 hit point instead, by amount)."""
    if stays_up is None:
        return at_least(chances, to_drop)
    return sum(
        (p * (1 - stays_up(a, critical)) for a, p in chances.items() if a >= to_drop),
        Fraction(0),
    )


def _figure(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


def save_chance(bonus: int, dc: int, mode: int = 0, auto_fail: bool = False) -> Fraction:
    """The chance a saving throw (d20 + ``bonus``) meets the DC: no natural 20 or 1 rule."""
    if auto_fail:
        return Fraction(0)
    weights, denominator = natural_weights(mode)
    made = sum(w for natural, w in enumerate(weights, start=1) if natural + bonus >= dc)
    return Fraction(made, denominator)


def save_odds(bonus: int, dc: int, mode: int = 0, auto_fail: bool = False) -> Odds:
    made = save_chance(bonus, dc, mode, auto_fail)
    chances = (1 - made, made)
    tiers = tuple(
        TierOdds(label, low, high, p)
        for (label, low, high, _), p in zip(SAVE_TIERS, chances, strict=True)
    )
    return Odds("d20", tiers)


def death_roll_chances() -> tuple[Fraction, ...]:
    """One death saving throw's tiers: a natural 1, 2 to 9, 10 to 19, a natural 20."""
    return (
        Fraction(1, SIDES),
        Fraction(DEATH_DC - 2, SIDES),
        Fraction(SIDES - DEATH_DC, SIDES),
        Fraction(1, SIDES),
    )


@lru_cache(maxsize=64)
def death_ends(successes: int, failures: int) -> tuple[Fraction, Fraction, Fraction]:
    """A dying hero left alone from here: its chance to come back with 1 hit point (a natural
    20), to stabilise (three successes) and to die (three failures)."""
    if failures >= DEATH_SAVES:
        return Fraction(0), Fraction(0), Fraction(1)
    if successes >= DEATH_SAVES:
        return Fraction(0), Fraction(1), Fraction(0)
    two, one, success, revived = death_roll_chances()
    ends = [revived, Fraction(0), Fraction(0)]
    for p, after in (
        (two, death_ends(successes, failures + 2)),
        (one, death_ends(successes, failures + 1)),
        (success, death_ends(successes + 1, failures)),
    ):
        for index in range(3):
            ends[index] += p * after[index]
    return ends[0], ends[1], ends[2]


def death_odds(successes: int = 0, failures: int = 0) -> Odds:
    chances = death_roll_chances()
    tiers = tuple(
        TierOdds(label, low, high, p)
        for (label, low, high, _), p in zip(DEATH_TIERS, chances, strict=True)
    )
    revived, stable, dead = death_ends(successes, failures)
    extra: dict[str, object] = {"ends": {"revived": revived, "stable": stable, "dead": dead}}
    return Odds("d20", tiers, extra)
