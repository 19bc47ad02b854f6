"""Beer Run's exact odds: one pool against another, sorted high to low and compared pairwise.

Source: ``shared/rules-texts/002`` (Beer Run), *Compare Rolls*; the mechanics are
``rules.systems.beerrun_dice.compare`` and the tiers ``rules.systems.beerrun_pools.PIP_BANDS``.

The computation sweeps the faces from the highest down to 1 (see ``docs/odds.md``). Before
face ``v`` is handled, every die that has not yet shown a higher face is, given that, uniform
on 1..v, so the dice still unplaced are interchangeable: the number of them showing exactly
``v`` is all the sorted order needs. The state is how many dice of each side are placed
(``i``, ``j``: the sorted positions filled so far), who has the upper hand, and the successes
of each side; the weights are integer counts of outcomes, divided by the product of the die
sizes at the end.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

from rules.errors import Rejected
from rules.odds.model import Odds, TierOdds
from rules.systems.beerrun_pools import NO_DIE_SIZE, PIP_BANDS, kept_count

# (upper, top successes, bottom successes) -> the number of outcomes; upper: 0 none, 1 top,
# 2 bottom.
Joint = tuple[tuple[tuple[int, int, int], int], ...]

NONE, TOP, BOTTOM = 0, 1, 2
# The sweep's work grows as (dice a side)^4 x (largest face): 10d12 a side is about 1.2e5
# (a fifth of a second), 10d100 a side 1e6 (a few seconds). Beyond this, refuse.
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
    """A shorter pool's missing dice are d1s showing 1 (``beerrun_dice.NO_DIE``)."""
    return sizes + (NO_DIE_SIZE,) * (length - len(sizes))


@lru_cache(maxsize=1024)
def joint(top: tuple[int, ...], bottom: tuple[int, ...]) -> Joint:
    """How many outcomes give each (upper hand, top successes, bottom successes).

    ``top`` and ``bottom`` are die sizes in any order (they are sorted here, so the cache
    is shared). The counts sum to the product of every die size.
    """
    length = max(len(top), len(bottom))
    a = _padded(tuple(sorted(top, reverse=True)), length)
    b = _padded(tuple(sorted(bottom, reverse=True)), length)
    # (i, j) -> (upper, top successes, bottom successes) -> outcomes
    states: dict[tuple[int, int], dict[tuple[int, int, int], int]] = {(0, 0): {(NONE, 0, 0): 1}}
    for face in range(max(a + b, default=1), 0, -1):
        live_a = sum(1 for size in a if size >= face)  # dice that can show this face
        live_b = sum(1 for size in b if size >= face)
        new: dict[tuple[int, int], dict[tuple[int, int, int], int]] = {}
        for (i, j), stats in states.items():
            free_a, free_b = live_a - i, live_b - j
            # At face 1 every die still unplaced shows 1.
            first_x = free_a if face == 1 else 0
            first_y = free_b if face == 1 else 0
            done = max(i, j)  # pairs before this position are decided already
            for x in range(first_x, free_a + 1):
                ways_a = comb(free_a, x)
                i2 = i + x
                for y in range(first_y, free_b + 1):
                    j2 = j + y
                    ways = ways_a * comb(free_b, y)
                    target = new.setdefault((i2, j2), defaultdict(int))
                    # Pairs [done, low) both show this face: ties. Pairs [.., high) filled by
                    # one side only: that side wins, the other's die there will be lower.
                    wins = max(i2, j2) - max(done, min(i2, j2))
                    if wins <= 0:
                        for key, weight in stats.items():
                            target[key] += weight * ways
                    elif i2 > j2:
                        for (upper, s_top, s_bottom), weight in stats.items():
                            key = (upper or TOP, s_top + wins, s_bottom)
                            target[key] += weight * ways
                    else:
                        for (upper, s_top, s_bottom), weight in stats.items():
                            key = (upper or BOTTOM, s_top, s_bottom + wins)
                            target[key] += weight * ways
        states = new
    out: dict[tuple[int, int, int], int] = defaultdict(int)
    for stats in states.values():
        for key, weight in stats.items():
            out[key] += weight
    return tuple(sorted(out.items()))


def _kept_lists(
    table: Joint, top_len: int, bottom_len: int, total: int
) -> tuple[list[Fraction], list[Fraction]]:
    top = [0] * (top_len + 1)
    bottom = [0] * (bottom_len + 1)
    for (upper, s_top, s_bottom), weight in table:
        top[kept_count(s_top, upper == TOP)] += weight
        bottom[kept_count(s_bottom, upper == BOTTOM)] += weight
    return [Fraction(w, total) for w in top], [Fraction(w, total) for w in bottom]


@lru_cache(maxsize=1024)
def pool_odds(top: tuple[int, ...], bottom: tuple[int, ...]) -> Odds:
    """The odds of ``top`` (the pool) against ``bottom`` (the dice against it).

    Tiers: the successes the upper hand keeps (the value the Consequences pane shows), in
    ``PIP_BANDS``. Extras: ``upper_hand`` {pool, against, none} and ``kept`` {pool, against},
    lists indexed by the number of kept successes. Too large a question: ``Rejected``.
    """
    check_size(top, bottom)
    table = joint(tuple(sorted(top)), tuple(sorted(bottom)))
    total = prod(top) * prod(bottom)
    by_value: dict[int, int] = defaultdict(int)
    upper_hand = [0, 0, 0]
    for (upper, s_top, s_bottom), weight in table:
        value = s_top if upper == TOP else s_bottom if upper == BOTTOM else 0
        by_value[value] += weight
        upper_hand[upper] += weight
    tiers = tuple(
        TierOdds(
            label=label,
            low=low,
            high=high,
            p=Fraction(
                sum(w for v, w in by_value.items() if v >= low and (high is None or v <= high)),
                total,
            ),
        )
        for label, low, high, _ in PIP_BANDS
    )
    kept_top, kept_bottom = _kept_lists(table, len(top), len(bottom), total)
    extra: dict[str, object] = {
        "upper_hand": {
            "pool": Fraction(upper_hand[TOP], total),
            "against": Fraction(upper_hand[BOTTOM], total),
            "none": Fraction(upper_hand[NONE], total),
        },
        "kept": {"pool": kept_top, "against": kept_bottom},
    }
    return Odds(system="beerrun", tiers=tiers, extra=extra)
