"""Beer Run's exact odds: one pool against another, sorted high to low and compared pairwise.

Source: ``shared/rules-texts/002`` (Beer Run), *Compare Rolls*; the mechanics are
``rules.systems.beerrun.dice.compare`` and the tiers ``rules.systems.beerrun.table.PIP_BANDS``.

The computation sweeps the faces from the highest down to 1 (see ``docs/contributing/odds.md``).
Before face ``v`` is handled, every die that has not yet shown a higher face is, given that, uniform
on 1..v, so the dice still unplaced are interchangeable: the number of them showing exactly
``v`` is all the sorted order needs. The state is how many dice of each side are placed
(``i``, ``j``: the sorted positions filled so far, the order statistics as counts).

One side's successes need less than the whole comparison: with ``i``, ``j`` the counts before
face ``v`` and ``i'``, ``j'`` after it, the top side wins ``max(0, i' - max(i, j'))`` new
positions (those it fills that the bottom has not reached even with its dice at ``v``). So
each face is two half-steps, the bottom's dice first (which changes no count) and then the
top's (which adds that many successes), with no pair of moves to enumerate. The upper hand is
decided at the first face where ``i' != j'``. A sweep gives the top side's successes with the
upper hand; a second sweep with the sides swapped gives the bottom's. The successes are packed
into one integer per state (a slot of bits per count), so a whole distribution moves with a
shift, a multiplication and an addition. The weights are integer counts of outcomes, divided
by the product of the die sizes at the end.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from rules.errors import Rejected
from rules.odds import Odds, TierOdds

from .table import NO_DIE_SIZE, PIP_BANDS, kept_count, side_bands

# Who has the upper hand: no one (every pair ties), the top side (the pool) or the bottom one.
NONE, TOP, BOTTOM = 0, 1, 2
# The sweep's work grows as (dice a side)^3 x (largest face) operations on integers of
# (dice a side) x (bits of the outcome count) bits: 10d12 a side takes milliseconds, 10d100 a
# side about a second. Beyond this bound (kept from a slower method: it is generous), refuse.
MAX_WORK = 1_000_000


def check_size(top: tuple[int, ...], bottom: tuple[int, ...]) -> None:
    """Refuse a question too large to answer quickly (``Rejected``, one sentence)."""
    length = max(len(top), len(bottom))
    if length**4 * max((*top, *bottom, 1)) > MAX_WORK:
        raise Rejected(
            f"Exact odds need smaller pools: {length} dice a side up to "
            f"d{max((*top, *bottom, 1))} is too large (10 dice a side up to d100 fit)"
        )


def _padded(sizes: tuple[int, ...], length: int) -> tuple[int, ...]:
    """A shorter pool's missing dice are d1s showing 1 (``dice.NO_DIE``)."""
    return sizes + (NO_DIE_SIZE,) * (length - len(sizes))


# (no upper hand, the side's successes by count when it has the upper hand, ... when the
# other side has it): counts of outcomes.
Successes = tuple[int, tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=1024)
def successes(side: tuple[int, ...], other: tuple[int, ...]) -> Successes:
    """How many outcomes give ``side`` each number of successes, split by who has the upper
    hand. ``side`` and ``other`` are die sizes, sorted high to low and of one length (padded
    with ``NO_DIE_SIZE``). The counts sum to the product of every die size."""
    n = len(side)
    bits = (prod(side) * prod(other)).bit_length() + 1  # a slot holds any count
    size = n + 1
    behind_at = bits * size  # slots 0..n: ``side`` has the upper hand; n+1..2n+1: ``other``
    # grid[i][j]: the packed counts (slot: upper hand and successes) with i of ``side``'s dice
    # and j of ``other``'s placed. With no upper hand yet every pair so far tied, so i == j:
    # tied[m] counts those outcomes (no successes).
    grid = [[0] * size for _ in range(size)]
    tied = [1] + [0] * n
    live_a = live_b = 0
    for face in range(max(side + other, default=1), 0, -1):
        placed_a = live_a  # the states so far have at most this many dice placed
        live_a = sum(1 for die in side if die >= face)  # dice that can show this face
        live_b = sum(1 for die in other if die >= face)
        last = face == 1  # every die still unplaced shows 1
        # ``other``'s dice showing this face: j -> j2; no success changes.
        mid = [[0] * size for _ in range(size)]
        mid_tied = [[0] * size for _ in range(size)]  # [i][j2], i == j before this face
        for j in range(live_b + 1):
            free = live_b - j
            for j2 in range(live_b if last else j, live_b + 1):
                ways = comb(free, j2 - j)
                for i in range(placed_a + 1):
                    if grid[i][j]:
                        mid[i][j2] += grid[i][j] * ways
                if tied[j]:
                    mid_tied[j][j2] = tied[j] * ways
        # ``side``'s dice showing this face: i -> i2, winning the positions past both.
        grid = [[0] * size for _ in range(size)]
        tied = [0] * size
        for i in range(placed_a + 1):
            free = live_a - i
            row, row_tied = mid[i], mid_tied[i]
            for i2 in range(live_a if last else i, live_a + 1):
                ways = comb(free, i2 - i)
                target = grid[i2]
                for j2 in range(live_b + 1):
                    if row[j2]:
                        target[j2] += (row[j2] << bits * max(0, i2 - max(i, j2))) * ways
                    if row_tied[j2]:  # the first pair that does not tie decides
                        weight = row_tied[j2] * ways
                        if i2 > j2:
                            target[j2] += weight << bits * (i2 - j2)
                        elif i2 < j2:
                            target[j2] += weight << behind_at
                        else:
                            tied[i2] += weight
    mask = (1 << bits) - 1
    ahead = tuple((grid[n][n] >> bits * count) & mask for count in range(size))
    behind = tuple((grid[n][n] >> behind_at + bits * count) & mask for count in range(size))
    return tied[n], ahead, behind


def _kept(counts: Successes, total: int, length: int) -> list[Fraction]:
    """A side's kept successes: all of them with the upper hand, else its 1st, 3rd, 5th ..."""
    kept = [0] * (length + 1)
    kept[0] += counts[0]  # every pair tied: no success
    for upper, by_count in ((True, counts[1]), (False, counts[2])):
        for count, weight in enumerate(by_count):
            if weight:
                kept[kept_count(count, upper)] += weight
    return [Fraction(w, total) for w in kept]


def _counts(top: tuple[int, ...], bottom: tuple[int, ...]) -> tuple[Successes, Successes, int]:
    """Each side's ``successes`` against the other, sorted high to low and padded to the
    same length, and the number of equally likely rolls (``Rejected`` when too large)."""
    check_size(top, bottom)
    length = max(len(top), len(bottom))
    a = _padded(tuple(sorted(top, reverse=True)), length)
    b = _padded(tuple(sorted(bottom, reverse=True)), length)
    return successes(a, b), successes(b, a), prod(top) * prod(bottom)


@lru_cache(maxsize=1024)
def pool_odds(top: tuple[int, ...], bottom: tuple[int, ...]) -> Odds:
    """The odds of ``top`` (the pool) against ``bottom`` (the dice against it).

    Tiers: the successes the upper hand keeps (the value the Consequences pane shows), in
    ``PIP_BANDS``. Extras: ``upper_hand`` {pool, against, none} and ``kept`` {pool, against},
    lists indexed by the number of kept successes. Too large a question: ``Rejected``.
    """
    mine, theirs, total = _counts(top, bottom)
    length = max(len(top), len(bottom))
    by_value = [mine[0], *(0 for _ in range(length))]  # the upper hand's successes
    for count in range(length + 1):
        by_value[count] += mine[1][count] + theirs[1][count]
    tiers = tuple(
        TierOdds(
            label=label,
            low=low,
            high=high,
            p=Fraction(sum(by_value[low : None if high is None else high + 1]), total),
        )
        for label, low, high, _ in PIP_BANDS
    )
    extra: dict[str, object] = {
        "upper_hand": {
            "pool": Fraction(sum(mine[1]), total),
            "against": Fraction(sum(theirs[1]), total),
            "none": Fraction(mine[0], total),
        },
        "kept": {
            "pool": _kept(mine, total, len(top)),
            "against": _kept(theirs, total, len(bottom)),
        },
    }
    return Odds(system="beerrun", tiers=tiers, extra=extra)


@lru_cache(maxsize=1024)
def upper_hand_odds(top: tuple[int, ...], bottom: tuple[int, ...]) -> tuple[Fraction, ...]:
    """The chance of each result of ``top`` against ``bottom`` from the top side's view, worst
    first: the bottom side's upper hand with n successes, ..., with 1, every pair tied, then
    the top side's upper hand with 1, ..., n (the upper hand keeps them all)."""
    mine, theirs, total = _counts(top, bottom)
    worst_first = [*reversed(theirs[1][1:]), mine[0], *mine[1][1:]]
    return tuple(Fraction(count, total) for count in worst_first)


@lru_cache(maxsize=1024)
def sided_odds(
    top: tuple[int, ...], bottom: tuple[int, ...]
) -> tuple[tuple[Fraction, ...], Fraction, tuple[Fraction, ...]]:
    """The chances of ``top`` against ``bottom`` split by who has the upper hand: the bottom
    side's bands of ``side_bands(bottom)``, every pair tied, the top side's bands of
    ``side_bands(top)`` (the upper hand keeps all of its successes). They sum to 1."""
    mine, theirs, total = _counts(top, bottom)

    def banded(counts: tuple[int, ...], sizes: tuple[int, ...]) -> tuple[Fraction, ...]:
        return tuple(
            Fraction(sum(counts[low : None if high is None else high + 1]), total)
            for _, low, high in side_bands(sizes)
        )

    return banded(theirs[1], bottom), Fraction(mine[0], total), banded(mine[1], top)
