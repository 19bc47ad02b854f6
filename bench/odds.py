"""Odds benchmark: our exact engines against icepool, on the same questions, side by side.

Run: ``.venv/bin/python bench/odds.py [--write]`` (icepool is a test dependency). For each
typical question: the first answer in a process and the median warm answer, for both
engines, and our median cold answer (caches emptied); then whole processes, one typical
question per system (``tracker odds`` against ``python -c "import icepool ..."``,
alternately, the median of 20 each). The questions are written per system (icepool has to
be told each system's dice), but a system's engine is found by the registry: a system whose
folder is gone is left out, and one with no question here is not in the tables.
``--write`` puts the tables into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import icepool  # noqa: E402

from bench.doc import write_block  # noqa: E402
from rules.registry import names, part  # noqa: E402

WARM = 20
COLD = 5
# Every registered system's odds engine, by the system's name.
ENGINES = {name: odds for name in names() if (odds := part(name, "odds")) is not None}


def forget() -> None:
    """Empty every cache of our engines, so the next answer is computed from nothing."""
    for module in ENGINES.values():
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()


# --- the same questions for icepool -----------------------------------------------------------


def ice_livehack(attacker: int, defender: int, defender_take: str = "roll") -> list[float]:
    chain = icepool.d12.explode(depth=8)
    side = chain - chain
    defence = icepool.Die([defender + 10]) if defender_take == "ten" else side + defender
    margin = (side + attacker) - defence
    bands = [(None, -1), (0, 4), (5, 9), (10, 14), (15, None)]
    return [
        float(margin.probability(">=", lo if lo is not None else -(10**6)))
        - float(margin.probability(">", hi if hi is not None else 10**6))
        for lo, hi in bands
    ]


def ice_beerrun(top: tuple[int, ...], bottom: tuple[int, ...]) -> list[float]:
    length = max(len(top), len(bottom))

    def pool(sizes: tuple[int, ...]) -> icepool.Pool:
        padded = sizes + (1,) * (length - len(sizes))
        return icepool.Pool([icepool.d(s) for s in padded])

    wins = pool(top).sort_pair(">", pool(bottom)).size()
    losses = pool(top).sort_pair("<", pool(bottom)).size()
    return [float(wins.mean()), float(losses.mean())]


def ice_open_d20() -> icepool.Die:
    d20 = icepool.d20
    return d20.map(lambda x: 1 - d20 if x == 1 else (20 + d20 if x == 20 else x))


def ice_fatigue(attacker: int, defender: int, spacing: int) -> list[float]:
    die = ice_open_d20()
    loss = (die + attacker) - (die + defender)  # how far the defender lost by
    edges = [0, spacing, 2 * spacing, 3 * spacing, 4 * spacing]
    out = [float(loss.probability("<=", 0))]
    for low, high in pairwise(edges):
        out.append(float(loss.probability(">", low)) - float(loss.probability(">", high)))
    out.append(float(loss.probability(">", edges[-1])))
    return out


def ice_painpool(boons: int, pain: int) -> list[float]:
    def kept(count: int, size: int) -> icepool.Die:
        return icepool.d(size).pool(count).highest(1).sum()

    hero = kept(1 + boons, 8) + kept(1 + boons, 6) + kept(1, 4)
    difference = hero - icepool.d6.pool(pain).highest(3).sum()
    return [float(difference.probability(">", 0)), float(difference.probability("==", 0))]


def pools(boons: int) -> tuple[tuple[str, int, int], ...]:
    return (("power", 1 + boons, 8), ("precision", 1 + boons, 6), ("possibility", 1, 4))


Question = tuple[str, str, Callable[[], object], Callable[[], object]]


def questions() -> list[Question]:
    """(system, question, our answer, icepool's answer) for each registered system that has
    questions here; our engine's functions are bound first, so a call costs what it did when
    they were imported by name."""
    found: list[Question] = []
    if livehack := ENGINES.get("livehack"):
        opposed_odds = livehack.opposed_odds
        found += [
            (
                "LiveHack",
                "+5 vs +2, both roll",
                lambda: opposed_odds(5, 2),
                lambda: ice_livehack(5, 2),
            ),
            (
                "LiveHack",
                "+5 vs +2, defender takes ten",
                lambda: opposed_odds(5, 2, "roll", "ten"),
                lambda: ice_livehack(5, 2, "ten"),
            ),
        ]
    if beerrun := ENGINES.get("beerrun"):
        pool_odds = beerrun.pool_odds

        def sides(n: int) -> Question:
            return (
                "Beer Run",
                f"{n}v{n}",
                lambda: pool_odds((12, 10, 8, 6, 12, 8, 6, 10, 4, 12)[:n], (10,) * n),
                lambda: ice_beerrun((12, 10, 8, 6, 12, 8, 6, 10, 4, 12)[:n], (10,) * n),
            )

        found += [sides(n) for n in (3, 4, 6, 10)]
    if fatigue := ENGINES.get("fatigue"):
        check_odds = fatigue.check_odds
        found.append(
            (
                "Fatigue",
                "open d20 vs open d20, narrowed (penalty 4)",
                lambda: check_odds("open-d20", 5, "open-d20", 3, fatigue_penalty=4),
                lambda: ice_fatigue(5, 3, 6),
            )
        )
    if painpool := ENGINES.get("painpool"):
        painpool_odds = painpool.painpool_odds

        def boon_dice(boons: int, pain: int) -> Question:
            return (
                "Pain Pool",
                f"{boons} boon dice vs {pain}d6",
                lambda: painpool_odds(pools(boons), pain),
                lambda: ice_painpool(boons, pain),
            )

        found += [boon_dice(b, p) for b, p in ((0, 3), (1, 5), (2, 7), (3, 9))]
    return found


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """The first answer in this process and the median of ``WARM`` repeats, in ms."""
    start = time.perf_counter()
    fn()
    first = time.perf_counter() - start
    warm = []
    for _ in range(WARM):
        start = time.perf_counter()
        fn()
        warm.append(time.perf_counter() - start)
    return first * 1000, statistics.median(warm) * 1000


def cold(fn: Callable[[], object]) -> float:
    """The median of ``COLD`` answers each computed with our caches emptied first, in ms (one
    first answer is at the mercy of whatever else the machine is doing)."""
    times = []
    for _ in range(COLD):
        forget()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


# The icepool side imports icepool alone, as a script answering the question would.
ICE_LIVEHACK = """
import icepool
chain = icepool.d12.explode(depth=8)
side = chain - chain
margin = (side + 5) - (side + 2)
print([float(margin.probability(">=", lo)) for lo in (0, 5, 10, 15)])
"""
ICE_BEERRUN = """
import icepool
top = icepool.Pool([icepool.d12, icepool.d8, icepool.d6])
bottom = icepool.Pool([icepool.d10, icepool.d10, icepool.d4])
print(top.sort_pair(">", bottom).size(), top.sort_pair("<", bottom).size())
"""
ICE_FATIGUE = """
import icepool
d20 = icepool.d20
die = d20.map(lambda x: 1 - d20 if x == 1 else (20 + d20 if x == 20 else x))
loss = (die + 5) - (die + 3)
print([float(loss.probability(">", edge)) for edge in (0, 6, 12, 18, 24)])
"""
ICE_PAINPOOL = """
import icepool
def kept(count, size):
    return icepool.d(size).pool(count).highest(1).sum()
hero = kept(3, 8) + kept(3, 6) + kept(1, 4)
difference = hero - icepool.d6.pool(7).highest(3).sum()
print(float(difference.probability(">", 0)), float(difference.probability("==", 0)))
"""

# (the table's row; ``tracker odds``'s options, the system's name first; icepool's script)
PROCESSES = [
    (
        "LiveHack +5 vs +2",
        ["livehack", "--attacker", "5", "--defender", "2", "--json"],
        ICE_LIVEHACK,
    ),
    (
        "Beer Run d12,d8,d6 vs d10,d10,d4",
        ["beerrun", "--pool", "d12,d8,d6", "--against", "d10,d10,d4", "--json"],
        ICE_BEERRUN,
    ),
    (
        "Fatigue open d20 vs open d20, penalty 4",
        ["fatigue", "--attacker-dice", "open-d20", "--attacker", "5", "--defender-dice",
         "open-d20", "--defender", "3", "--fatigue-penalty", "4", "--json"],
        ICE_FATIGUE,
    ),
    (
        "Pain Pool 2 boon dice vs 7d6",
        ["painpool", "--power", "3d8", "--precision", "3d6", "--possibility", "1d4",
         "--pain", "7d6", "--json"],
        ICE_PAINPOOL,
    ),
]  # fmt: skip
PROCESS_RUNS = 20


def tracker_command() -> list[str]:
    """``tracker`` as a user runs it: the installed script beside this Python, if there is one."""
    script = Path(sys.executable).parent / "tracker"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tracker"]


def process_seconds(ours: list[str], theirs: list[str]) -> tuple[float, float]:
    """Median wall time of each whole process, run alternately so both see the same load."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(PROCESS_RUNS):
        for command, out in ((ours, times[0]), (theirs, times[1])):
            start = time.perf_counter()
            subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
            out.append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    args = parser.parse_args()
    lines = [
        "| system | question | ours, first | ours, cold (median) | ours, warm | icepool, first "
        "| icepool, warm | first ratio (icepool / ours) | warm ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for system, question, ours, theirs in questions():
        our_first, our_warm = timed(ours)
        ice_first, ice_warm = timed(theirs)
        our_cold = cold(ours)
        lines.append(
            f"| {system} | {question} | {our_first:.2f} ms | {our_cold:.2f} ms "
            f"| {our_warm:.3f} ms | {ice_first:.1f} ms | {ice_warm:.2f} ms "
            f"| {ice_first / our_first:.0f}x | {ice_warm / our_warm:.0f}x |"
        )
    lines += [
        "",
        f"| whole process (median of {PROCESS_RUNS}) | `tracker odds` | `python -c` with icepool "
        "| ratio (ours / icepool) |",
        "|---|---:|---:|---:|",
    ]
    python = [sys.executable, "-c"]
    for name, ours_args, ice_code in PROCESSES:
        if ours_args[0] not in ENGINES:
            continue
        ours_s, ice_s = process_seconds(
            [*tracker_command(), "odds", *ours_args], [*python, ice_code]
        )
        lines.append(
            f"| {name} | {ours_s * 1000:.0f} ms | {ice_s * 1000:.0f} ms | {ours_s / ice_s:.2f} |"
        )
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_block("odds", text)


if __name__ == "__main__":
    main()
