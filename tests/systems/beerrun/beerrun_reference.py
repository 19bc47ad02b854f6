"""The first Beer Run odds engine, kept as an independent reference for the faster one.

It sweeps the faces with both sides' dice at once (every pair of counts showing a face) and
keeps the whole joint table of (upper hand, top successes, bottom successes): slower, but a
different computation, so ``rules.odds.beerrun.successes`` is checked against it on pools too
large to enumerate.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb

NONE, TOP, BOTTOM = 0, 1, 2
Joint = tuple[tuple[tuple[int, int, int], int], ...]


def padded(sizes: tuple[int, ...], length: int) -> tuple[int, ...]:
    return sizes + (1,) * (length - len(sizes))


def joint(top: tuple[int, ...], bottom: tuple[int, ...]) -> Joint:
    """How many outcomes give each (upper hand, top successes, bottom successes).

    ``top`` and ``bottom`` are die sizes in any order. The counts sum to the product of
    every die size.
    """
    length = max(len(top), len(bottom))
    a = padded(tuple(sorted(top, reverse=True)), length)
    b = padded(tuple(sorted(bottom, reverse=True)), length)
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
