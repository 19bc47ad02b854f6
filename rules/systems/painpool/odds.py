"""Pain Pool odds: three keep-highest hero pools against the Pain Pool (Nd6, 3 highest kept).

Exact and fast: every distribution is held as integer counts over its number of outcomes
and turned into ``Fraction`` only at the end.

- A hero pool of n dice of size s keeps its highest die: ``P(max <= k) = (k/s)^n``.
- The Pain Pool's kept total (its 3 highest d6) comes from a DP over the faces from 6 down
  to 1: how many of the dice not yet placed show this face (a binomial count), and how many
  of them still fit among the 3 kept. Its highest die is ``P(top <= k) = (k/6)^N``.
- The difference (hero total minus pain total) is the convolution of the two totals.
- Dominance: the contender (a hero pool or Pain) with the highest number wins, ties broken as
  ``roll.dominant`` breaks them (larger die, then a hero pool over Pain); the numbers
  are independent, so each contender's chance is a sum over its value of a product.
- A Despair re-roll keeps the higher pain total: ``P(max <= t) = F(t)^2``. A Hope re-roll of
  every pool keeps the higher die of each, the same as a pool of twice the dice.
- Damage: a failed attack costs the hero the amount it lost by plus the challenge's template
  changes (``roll.damage_parts``), never less than 0; read off the difference.

Once the dice are down, Despair and Hope are choices about a known roll, so their odds are
conditional on it (``despair_odds``, ``hope_odds``): a re-rolled hero pool keeps the higher of
its kept die and the new roll's highest, ``max(k, M)`` with ``P(<= v) = (v/s)^n`` for
``v >= k``; a Despair re-roll keeps the new pain roll only when its total is higher (the first
roll wins a tie, as ``PainRoll.best`` has it), and Pain's number is that roll's highest die; a
Hope raise adds to the hero's total and makes Pain dominate.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from rules.odds import Odds, TierOdds

from .table import KEPT_PAIN, PAIN_DIE, TIE_ORDER, TIER_BOUNDS, TIER_LABELS

SYSTEM = "painpool"
OUTCOMES = ("success", "tie", "failure")

Pool = tuple[str, int, int]  # (pool name, dice, die size)
Counts = tuple[tuple[int, int], ...]  # (value, ways), sorted by value


@lru_cache(maxsize=256)
def keep_highest(count: int, size: int) -> Counts:
    """Ways for each kept value of ``count`` dice of ``size`` (over ``size ** count``)."""
    return tuple((k, k**count - (k - 1) ** count) for k in range(1, size + 1))


MOST_COUNTED = 100  # dice in one pool (or the Pain Pool) whose odds are counted


@lru_cache(maxsize=64)
def pain_joint(count: int) -> tuple[tuple[tuple[int, int], int], ...]:
    """Ways for each (kept total, highest die) of the Pain Pool (over ``6 ** count``).

    Faces are placed from 6 down: a state is (dice kept so far, their total, the highest die),
    every die placed so far being kept. Once the kept dice are full, the rest only need lower
    faces: ``(face - 1) ** rest`` ways, so the work grows with ``count``, not ``6 ** count``.
    """
    if count > MOST_COUNTED:
        raise ValueError(f"exact odds are counted for pools of at most {MOST_COUNTED} dice")
    keep = min(KEPT_PAIN, count)
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    done: dict[tuple[int, int], int] = {}
    for face in range(PAIN_DIE, 0, -1):
        nxt: dict[tuple[int, int, int], int] = {}
        for (kept, total, top), ways in states.items():
            left, need = count - kept, keep - kept
            for here in range(min(need, left + 1)):  # still short of the kept dice
                key = (kept + here, total + here * face, top or (face if here else 0))
                nxt[key] = nxt.get(key, 0) + ways * comb(left, here)
            full = sum(comb(left, h) * (face - 1) ** (left - h) for h in range(need, left + 1))
            final = (total + need * face, top or face)
            done[final] = done.get(final, 0) + ways * full
        states = nxt  # after the face 1, a state short of its kept dice is impossible
    return tuple(sorted((key, w) for key, w in done.items() if w))


@lru_cache(maxsize=64)
def pain_totals(count: int) -> Counts:
    """Ways for each total of the Pain Pool's kept dice (over ``6 ** count``)."""
    out: dict[int, int] = {}
    for (total, _), ways in pain_joint(count):
        out[total] = out.get(total, 0) + ways
    return tuple(sorted(out.items()))


@lru_cache(maxsize=64)
def despair_tops(count: int) -> tuple[int, ...]:
    """After a Despair re-roll: ways (over ``6 ** (2 * count)``) that the kept roll's highest
    die is at most 0..6. The kept roll is the one with the higher total, the first on a tie
    (as ``PainRoll.best`` picks it)."""
    totals = pain_totals(count)

    def up_to(limit: int) -> int:
        return sum(ways for total, ways in totals if total <= limit)

    tops = [0] * (PAIN_DIE + 1)
    for (total, top), ways in pain_joint(count):
        # kept as the first roll when the re-roll is not higher, as the re-roll when it is
        tops[top] += ways * (up_to(total) + up_to(total - 1))
    return tuple(sum(tops[: k + 1]) for k in range(PAIN_DIE + 1))


def convolve(a: Counts, b: Counts) -> Counts:
    out: dict[int, int] = {}
    for x, wx in a:
        for y, wy in b:
            out[x + y] = out.get(x + y, 0) + wx * wy
    return tuple(sorted(out.items()))


@lru_cache(maxsize=256)
def hero_totals(pools: tuple[tuple[int, int], ...]) -> Counts:
    """Ways for each sum of the pools' kept dice; ``pools`` are (dice, size) pairs."""
    total: Counts = ((0, 1),)
    for count, size in pools:
        total = convolve(total, keep_highest(count, size))
    return total


def _space(pools: tuple[tuple[int, int], ...]) -> int:
    out = 1
    for count, size in pools:
        out *= size**count
    return out


@lru_cache(maxsize=256)
def difference_counts(pools: tuple[tuple[int, int], ...], pain: int, despair: bool) -> Counts:
    """Ways for each hero total minus pain total; with ``despair`` the pain keeps the higher
    total of two rolls (over ``6 ** (2 * pain)`` then)."""
    against = pain_totals(pain)
    if despair:
        again: list[tuple[int, int]] = []
        below = 0
        for total, ways in against:
            # P(max = t) = F(t)^2 - F(t-1)^2, in counts
            again.append((total, (below + ways) ** 2 - below**2))
            below += ways
        against = tuple(again)
    negated = tuple((-total, ways) for total, ways in reversed(against))
    return convolve(hero_totals(pools), negated)


def outcome_of(counts: Counts) -> dict[str, Fraction]:
    space = sum(ways for _, ways in counts)
    win = sum(ways for d, ways in counts if d > 0)
    tie = sum(ways for d, ways in counts if d == 0)
    return {
        "success": Fraction(win, space),
        "tie": Fraction(tie, space),
        "failure": Fraction(space - win - tie, space),
    }


Contender = tuple[str, int, tuple[int, ...]]  # (name, die size, ways its number is <= 0..size)


def hero_contender(name: str, count: int, size: int) -> Contender:
    return (name, size, tuple(k**count for k in range(size + 1)))


@lru_cache(maxsize=256)
def dominance_counts(contenders: tuple[Contender, ...]) -> tuple[tuple[str, int], ...]:
    """Ways each contender dominates (over the product of every contender's outcomes).

    A contender's number is its kept die (Pain: its highest die). The tie key is the one
    ``roll.dominant`` compares after the number: die size, hero over Pain, name.
    """

    def ties(name: str, size: int) -> tuple[int, int, str]:
        return (size, TIE_ORDER[name], name)

    def at_most(cum: tuple[int, ...], value: int) -> int:
        return cum[min(max(value, 0), len(cum) - 1)]

    out = []
    for name, size, cum in contenders:
        wins = 0
        for value in range(1, size + 1):
            ways = cum[value] - cum[value - 1]
            for other, o_size, o_cum in contenders:
                if other == name:
                    continue
                beaten = ties(other, o_size) < ties(name, size)  # its equal number loses
                ways *= at_most(o_cum, value if beaten else value - 1)
            wins += ways
        out.append((name, wins))
    return tuple(out)


def dominance(contenders: tuple[Contender, ...]) -> dict[str, Fraction]:
    space = 1
    for _, _, cum in contenders:
        space *= cum[-1]
    return {name: Fraction(ways, space) for name, ways in dominance_counts(contenders)}


def damage_counts(counts: Counts, bonus: int, harms: bool) -> Counts:
    """The hero's damage (or failure levels) in ways: on a failure, what it lost by plus the
    templates' ``bonus`` (at least 0); nothing on a success, a tie, or when the roll ``harms``
    no one (a maneuver)."""
    out: dict[int, int] = {}
    for difference, ways in counts:
        damage = max(0, bonus - difference) if harms and difference < 0 else 0
        out[damage] = out.get(damage, 0) + ways
    return tuple(sorted(out.items()))


def damage_note(damage: Counts) -> str:
    """One line for the dialogs: how likely the hero is hurt, how much on average, the most."""
    space = sum(ways for _, ways in damage)
    hurt = sum(ways for amount, ways in damage if amount)
    if not hurt:
        return "The hero takes no damage"
    mean = sum(amount * ways for amount, ways in damage) / space
    return (
        f"Hero's damage: {hurt * 100 / space:.1f}% chance, "
        f"{mean:.1f} on average, at most {damage[-1][0]}"
    )


def _damage_extras(counts: Counts, bonus: int, harms: bool) -> dict[str, object]:
    """``damage`` (damage -> probability) and its ``note``."""
    damage = damage_counts(counts, bonus, harms)
    space = sum(ways for _, ways in damage)
    return {
        "damage": {amount: Fraction(ways, space) for amount, ways in damage},
        "note": damage_note(damage),
    }


def painpool_odds(
    pools: tuple[Pool, ...], pain: int, damage_bonus: int = 0, harms: bool = True
) -> Odds:
    """The odds of a roll: ``pools`` as (name, dice, size), e.g. ("power", 3, 8); ``pain`` the
    Pain Pool's d6 count; ``damage_bonus`` the challenge's template changes to the damage it
    deals, ``harms`` False for a maneuver (no damage either way).

    Tiers: the system's Best / Good / Worst by the difference. Extras: ``outcome``,
    ``dominance`` (each contender's chance), ``difference`` (its whole distribution),
    ``despair`` and ``despair_dominance`` (if the GM re-rolls the Pain Pool and keeps the
    higher total), ``hope`` and ``hope_dominance`` (if the hero re-rolls every pool, each
    keeping the higher die), ``damage`` (the hero's damage after the templates, by chance)
    and ``note`` (that in one line, which the dialogs show).
    """
    if pain < 1 or any(count < 1 or size < 1 for _, count, size in pools):
        raise ValueError("every pool needs at least one die of at least one face")
    # The counting grows with the dice: a pool typed or edited to a million dice would keep a
    # worker (and the app's shutdown behind it) busy for ever. Far beyond any table's pools.
    if pain > MOST_COUNTED or any(count > MOST_COUNTED for _, count, _ in pools):
        raise ValueError(f"exact odds are counted for pools of at most {MOST_COUNTED} dice")
    dice = tuple((count, size) for _, count, size in pools)
    counts = difference_counts(dice, pain, False)
    space = _space(dice) * PAIN_DIE**pain
    outcome = outcome_of(counts)
    tiers = tuple(
        TierOdds(label, low, high, outcome[name])
        for label, (low, high), name in zip(TIER_LABELS, TIER_BOUNDS, OUTCOMES, strict=True)
    )
    doubled = tuple((2 * count, size) for count, size in dice)
    heroes = tuple(hero_contender(*pool) for pool in pools)
    hoped = tuple(hero_contender(name, 2 * count, size) for name, count, size in pools)
    pain_top = hero_contender("pain", pain, PAIN_DIE)  # its top die: (k/6)^N too
    return Odds(
        system=SYSTEM,
        tiers=tiers,
        extra={
            "outcome": outcome,
            "dominance": dominance((*heroes, pain_top)),
            "difference": {d: Fraction(ways, space) for d, ways in counts},
            "despair": outcome_of(difference_counts(dice, pain, True)),
            "despair_dominance": dominance((*heroes, ("pain", PAIN_DIE, despair_tops(pain)))),
            "hope": outcome_of(difference_counts(doubled, pain, False)),
            "hope_dominance": dominance((*hoped, pain_top)),
            **_damage_extras(counts, damage_bonus, harms),
        },
    )


# --- after the roll: Despair and Hope on known dice ---------------------------------------------

Kept = tuple[str, int, int, int]  # (pool name, dice, die size, the die it keeps now)


def _fixed(name: str, size: int, value: int) -> Contender:
    """A contender whose number is known: ``value``, with certainty."""
    return (name, size, tuple(int(v >= value) for v in range(size + 1)))


def _rerolled(name: str, count: int, size: int, kept: int) -> Contender:
    """A pool re-rolled keeping the higher: ``max(kept, M)``, ``M`` the new roll's highest."""
    return (name, size, tuple(v**count if v >= kept else 0 for v in range(size + 1)))


def _from_difference(
    counts: Counts, contenders: tuple[Contender, ...], bonus: int, harms: bool, raised: bool
) -> Odds:
    outcome = outcome_of(counts)
    space = sum(ways for _, ways in counts)
    tiers = tuple(
        TierOdds(label, low, high, outcome[name])
        for label, (low, high), name in zip(TIER_LABELS, TIER_BOUNDS, OUTCOMES, strict=True)
    )
    # "If the player chooses to do this [raise], pain automatically dominates"
    dominated = {name: Fraction(name == "pain") for name, _, _ in contenders}
    return Odds(
        system=SYSTEM,
        tiers=tiers,
        extra={
            "outcome": outcome,
            "dominance": dominated if raised else dominance(contenders),
            "difference": {d: Fraction(ways, space) for d, ways in counts},
            **_damage_extras(counts, bonus, harms),
        },
    )


def hope_odds(
    pools: tuple[Kept, ...],
    rerolled: tuple[str, ...],
    pain_total: int,
    pain_top: int,
    raised: int = 0,
    damage_bonus: int = 0,
    harms: bool = True,
) -> Odds:
    """The odds of a rolled roll after Hope: the ``rerolled`` pools rolled again, each keeping
    the higher die, and ``raised`` added to the hero's total (a raise: Pain dominates).
    ``pools`` are (name, dice, size, kept die) as rolled; the pain is as rolled."""
    total: Counts = ((raised - pain_total, 1),)
    contenders = []
    for name, count, size, kept in pools:
        if name in rerolled:
            contender = _rerolled(name, count, size, kept)
            cum = contender[2]
            dist = tuple((v, cum[v] - cum[v - 1]) for v in range(1, size + 1) if v >= kept)
            total = convolve(total, dist)
        else:
            contender = _fixed(name, size, kept)
            total = tuple((d + kept, ways) for d, ways in total)
        contenders.append(contender)
    contenders.append(_fixed("pain", PAIN_DIE, pain_top))
    return _from_difference(total, tuple(contenders), damage_bonus, harms, raised > 0)


def despair_odds(
    pools: tuple[Kept, ...],
    pain: int,
    pain_total: int,
    pain_top: int,
    raised: int = 0,
    damage_bonus: int = 0,
    harms: bool = True,
) -> Odds:
    """The odds of a rolled roll after the GM's Despair: the Pain Pool (``pain`` d6) rolled
    again, the higher total kept (the first roll on a tie), Pain's number the kept roll's
    highest die. ``pools`` are (name, dice, size, kept die) as rolled."""
    hero_total = sum(kept for _, _, _, kept in pools) + raised
    by_total: dict[int, int] = {}
    tops = [0] * (PAIN_DIE + 1)
    for (total, top), ways in pain_joint(pain):
        kept_total, kept_top = (total, top) if total > pain_total else (pain_total, pain_top)
        by_total[kept_total] = by_total.get(kept_total, 0) + ways
        tops[kept_top] += ways
    counts = tuple(sorted((hero_total - t, ways) for t, ways in by_total.items()))
    cum = tuple(sum(tops[: v + 1]) for v in range(PAIN_DIE + 1))
    contenders = (
        *(_fixed(name, size, kept) for name, _, size, kept in pools),
        ("pain", PAIN_DIE, cum),
    )
    return _from_difference(counts, contenders, damage_bonus, harms, raised > 0)
