"""Dice notation benchmark: how long a line takes to read, work out exactly and roll.

Run: ``.venv/bin/python bench/dice.py [--write]``. Typical lines (what GMs type into dice
bots, and d20's own examples) should answer in under 50 ms; the worst cases are the lines
that cost the most within the bounds, and the hostile ones that must be refused at once.
Each figure is the median of 5 runs (the slowest of them beside it), in CPU time
(``time.process_time``): on a machine shared with other work, wall time says more about the
others than about the dice. ``--write`` puts the
table into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402
from rules.dice import SeededDice  # noqa: E402
from rules.errors import Rejected  # noqa: E402
from rules.notation.answer import answer  # noqa: E402

RUNS = 5
TYPICAL = [
    "1d20+5 >= 15",
    "2d20kh1+7",
    "4d6kh3",
    "2d6ro<3+4 [slashing]",
    "8d6mi2 [fire]",
    "1d20ra20",
    "(1d8+4)*2",
    "6d10c>=8",
    "10d10e10c>=8",
    "3d6! >= 14",
    "(1d4, 2+2, 3d6kl1)kh1",
    "((10d6kh5)kl2)kh1",
    "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)",
]
WORST = [
    "100d20",  # the most dice, summed
    "20d20kh3",
    "50d10ro<3kh10",
    "20d6e6",
    "15d20!",
    "4d6kh3ro1",  # every branch of the pool
    "1d1000*1d500",  # the most pairs of totals
    "-(1d20/3)*(1d100/7)",  # fractions
    "100d20kh3",  # many dice, a few kept
    "(4d6, 4d6, 4d6, 4d6, 4d6, 4d6)kh3",  # a wide set of equal items
    "(1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20, 1d20)kh5",
    "(1d4, 1d6, 1d8, 1d10, 1d12, 1d20)kh2",  # a set of unequal items
    "(3d6, 2d8, 1d20, 4d4, 2d10)pl1",
]
HOSTILE = [
    "100d20kh97",
    "(1d20, 1d19, 1d18, 1d17, 1d16, 1d15, 1d14, 1d13, 1d12, 1d11)kh5",
    "100d6!",
    "100d6e6",
    "1d1000*1d1000",  # a million pairs: refused before the first
    "1d1000*1d1000*1d1000",
    "1d1000/997*1d1000",  # a million fractions
    "(1d1000/997)/(1d1000/991)",
    "-" * 18 + "(1d1000/997)/(1d1000/991)",  # each sign turns every value over
    "5d6kh3ro1",  # every branch of the pool, with rerolls: refused as it runs
    "1d1000e1000",
    "4d6e6kh3",
    "1d6rr<7",
    "10/(1d6-1)",
    "(" * 21 + "1" + ")" * 21,
    "1d6\x1b[2J",
]


def timed(text: str) -> tuple[float, float, str]:
    """Median and slowest seconds of ``RUNS`` answers, and what the answer was."""
    times = []
    said = ""
    for seed in range(RUNS):
        start = time.process_time()
        try:
            result = answer(text, SeededDice(seed))
            said = f"mean {float(result.odds.odds.mean):.2f}"
        except Rejected as refused:
            said = "refused: " + refused.message.split(": ")[0][:120]
        times.append(time.process_time() - start)
    return statistics.median(times), max(times), said


def table() -> str:
    rows = ["| kind | line | median | slowest | answer |", "|---|---|---:|---:|---|"]
    for kind, lines in (("typical", TYPICAL), ("worst", WORST), ("refused", HOSTILE)):
        for text in lines:
            median, slowest, said = timed(text)
            shown = text if text.isprintable() else repr(text)
            shown = shown.replace("|", "\\|")
            rows.append(
                f"| {kind} | `{shown}` | {median * 1000:.1f} ms | {slowest * 1000:.1f} ms | "
                f"{said.replace('|', '/')} |"
            )
            print(rows[-1], flush=True)
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="write docs/contributing/performance.md"
    )
    args = parser.parse_args()
    text = table()
    if args.write:
        write_block("dice", text)


if __name__ == "__main__":
    main()
