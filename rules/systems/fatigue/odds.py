"""Fatigue & Thresholds, exact odds: the margin of a check and the chance of each threshold band.

A check is attacker dice + modifier against defender dice + modifier; the margin is the
attacker's total minus the defender's. Every situation's dice have finitely many outcomes
with whole-number weights over a common denominator (5d4: 4^5; 2d10: 10^2; 1d20: 20; the open
d20: 20^2, a 2-19 weighing 20 and each "1 - x" or "20 + x" weighing 1), so the margin's
distribution is one integer convolution, kept as cumulative counts: a question is then a few
binary searches and one ``Fraction`` per band. Nothing is sampled or truncated.

With a fumble line, an attacker whose total is at or under it fumbles: no meaningful attack,
so the defender only pays N, and the check lands in the first band (as the system's
``landing`` shows it). The bands are then counted over the attacker's other totals only.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from rules.odds import Odds, TierOdds

from .table import (
    DICE,
    FLOOR,
    WIN_BAND,
    DiceKind,
    fumbles,
    level_bands,
    spacing,
    stress_total,
)

if TYPE_CHECKING:
    from .events import FatigueChecked

SYSTEM = "fatigue"
KINDS: tuple[str, ...] = tuple(kind for kind, _ in DICE)
OPEN_FACES = 20
OPEN_ENDS = (1, OPEN_FACES)

Counts = tuple[tuple[int, int], ...]  # (total, whole-number weight), totals ascending


# --- the dice of one side ----------------------------------------------------------------------


def _convolve(left: dict[int, int], right: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for a, wa in left.items():
        for b, wb in right.items():
            out[a + b] = out.get(a + b, 0) + wa * wb
    return out


def _sum_of(count: int, sides: int) -> dict[int, int]:
    """Weights of the sum of ``count`` dice of ``sides`` faces (each face weighs 1)."""
    die = dict.fromkeys(range(1, sides + 1), 1)
    out = {0: 1}
    for _ in range(count):
        out = _convolve(out, die)
    return out


def _open_d20() -> dict[int, int]:
    """A 1 or 20 rolls one closed d20 more (each pair weighs 1 of 400); any other face 20."""
    out: dict[int, int] = {}
    for first in range(1, OPEN_FACES + 1):
        if first in OPEN_ENDS:
            for second in range(1, OPEN_FACES + 1):
                total = stress_total("open-d20", (first, second))
                out[total] = out.get(total, 0) + 1
        else:
            total = stress_total("open-d20", (first,))
            out[total] = out.get(total, 0) + OPEN_FACES
    return out


@lru_cache(maxsize=8)
def dice_counts(kind: DiceKind | None) -> tuple[Counts, int]:
    """The totals a situation's dice can show, with whole-number weights, and their sum.

    ``None`` is no dice at all (nature's fixed total): a single 0.
    """
    match kind:
        case None:
            weights = {0: 1}
        case "5d4":
            weights = _sum_of(5, 4)
        case "2d10":
            weights = _sum_of(2, 10)
        case "1d20":
            weights = _sum_of(1, 20)
        case "open-d20":
            weights = _open_d20()
        case _:
            raise ValueError(f"unknown dice {kind!r}")
    return tuple(sorted(weights.items())), sum(weights.values())


def dice_distribution(kind: DiceKind | None) -> dict[int, Fraction]:
    """The exact chance of every total of a situation's dice."""
    counts, whole = dice_counts(kind)
    return {total: Fraction(weight, whole) for total, weight in counts}


# --- the margin --------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _difference(
    attacker_dice: DiceKind | None, defender_dice: DiceKind, attacker_from: int | None
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Attacker dice minus defender dice, over the attacker's dice totals >= ``attacker_from``
    only (None: all of them): the differences ascending, their cumulative weights, and the
    weight of every outcome (the kept ones and the rest)."""
    attack, attack_whole = dice_counts(attacker_dice)
    defend, defend_whole = dice_counts(defender_dice)
    weights: dict[int, int] = {}
    for a, wa in attack:
        if attacker_from is not None and a < attacker_from:
            continue
        for d, wd in defend:
            weights[a - d] = weights.get(a - d, 0) + wa * wd
    values = tuple(sorted(weights))
    running, cumulative = 0, []
    for value in values:
        running += weights[value]
        cumulative.append(running)
    return values, tuple(cumulative), attack_whole * defend_whole


def _weight_at_most(table: tuple[tuple[int, ...], tuple[int, ...], int], value: int) -> int:
    values, cumulative, _ = table
    index = bisect_right(values, value)
    return cumulative[index - 1] if index else 0


def _kept(table: tuple[tuple[int, ...], tuple[int, ...], int]) -> int:
    cumulative = table[1]
    return cumulative[-1] if cumulative else 0


def margin_distribution(
    attacker_dice: DiceKind | None, attacker: int, defender_dice: DiceKind, defender: int
) -> dict[int, Fraction]:
    """The exact chance of every margin (attacker's total minus defender's; the defender wins
    at 0 or less). ``attacker_dice`` None: the attacker's total is ``attacker`` (nature)."""
    values, cumulative, whole = _difference(attacker_dice, defender_dice, None)
    shift = attacker - defender
    out, before = {}, 0
    for value, running in zip(values, cumulative, strict=True):
        out[value + shift] = Fraction(running - before, whole)
        before = running
    return out


def fumble_chance(attacker_dice: DiceKind, attacker: int, line: int) -> Fraction:
    """The chance the attacker's total is at or under the fumble line."""
    counts, whole = dice_counts(attacker_dice)
    return Fraction(sum(w for total, w in counts if fumbles(total + attacker, line)), whole)


def _first_kept(attacker_dice: DiceKind, attacker: int, line: int) -> int:
    """The lowest attacker dice total that beats the line, clamped to the dice's range (so
    the cache sees only as many keys as the dice have totals)."""
    counts, _ = dice_counts(attacker_dice)
    lowest, highest = counts[0][0], counts[-1][0]
    return max(lowest, min(highest + 1, line - attacker + 1))


def band_odds(
    attacker_dice: DiceKind | None,
    attacker: int,
    defender_dice: DiceKind,
    defender: int,
    space: int,
    fumble_line: int | None = None,
) -> Odds:
    """The chance of each band of the margin at this spacing (``defense_bands``), and with a
    fumble line (ignored against nature) the chance of a fumble, which counts as a defense."""
    extra: dict[str, object] = {}
    start = None
    if fumble_line is not None and attacker_dice is not None:
        extra["fumble"] = fumble_chance(attacker_dice, attacker, fumble_line)
        start = _first_kept(attacker_dice, attacker, fumble_line)
    table = _difference(attacker_dice, defender_dice, start)
    whole = table[2]
    shift = attacker - defender
    tiers = []
    for label, low, high in level_bands(space):  # the win (and fumbles) take what these leave
        top = _kept(table) if high is None else _weight_at_most(table, high - shift)
        bottom = _weight_at_most(table, low - 1 - shift)
        tiers.append(TierOdds(label, low, high, Fraction(max(0, top - bottom), whole)))
    win_label, win_low, win_high = WIN_BAND
    rest = Fraction(1) - sum((tier.p for tier in tiers), Fraction(0))
    return Odds(SYSTEM, (TierOdds(win_label, win_low, win_high, rest), *tiers), extra)


def check_odds(
    attacker_dice: DiceKind | None,
    attacker: int,
    defender_dice: DiceKind,
    defender: int,
    fatigue_penalty: int = 0,
    floor: int = FLOOR,
    fumble: int | None = None,
) -> Odds:
    """The typical question: two situations' dice with net modifiers, the defender's fatigue
    penalty narrowing its thresholds (10 - P apart, at least T), and optionally a fumble line."""
    return band_odds(
        attacker_dice, attacker, defender_dice, defender, spacing(fatigue_penalty, floor), fumble
    )


def checked_odds(roll: FatigueChecked) -> Odds:
    """The odds a check had before its dice: its sides' modifiers (aid comes later), the
    defender's spacing and the attacker's fumble line (none against nature)."""
    defender = roll.defender
    defend_mod = defender.total - defender.dice_total
    if roll.attacker is None:
        return band_odds(None, roll.nature_total, defender.dice, defend_mod, defender.spacing)
    attacker = roll.attacker
    return band_odds(
        attacker.dice,
        attacker.total - attacker.dice_total,
        defender.dice,
        defend_mod,
        defender.spacing,
        roll.fumble_line,
    )
