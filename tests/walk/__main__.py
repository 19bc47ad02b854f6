"""Replay one walk, or explore: ``python -m tests.walk --help``.

Replay: ``python -m tests.walk --seed N --system X --role R --size 80x24 [--steps K]`` walks
that seed as the suite (or explore) did, prints the steps and the screen where it stopped.
Explore (``make explore``): ``python -m tests.walk --explore --minutes M`` walks fresh seeds
over every system, role and size until the time is up, in ``--jobs`` processes, then prints
what it reached and what failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from tests.walk.explore import explore, tally
from tests.walk.walker import walk
from tests.walk.world import ROLES, Case

STEPS = 60


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.walk", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seed", type=int, help="the walk's seed (replay)")
    parser.add_argument("--system", help="a registered rule system")
    parser.add_argument("--role", choices=ROLES, default="gm")
    parser.add_argument("--size", default="80x24", help="WIDTHxHEIGHT (80x24 or 160x48)")
    parser.add_argument("--steps", type=int, default=STEPS, help="steps in a walk")
    parser.add_argument("--explore", action="store_true", help="walk fresh seeds for a while")
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to explore")
    parser.add_argument("--jobs", type=int, default=2, help="walks at once, when exploring")
    parser.add_argument("--json", action="store_true", help="a replay's tally as JSON (explore)")
    args = parser.parse_args(argv)
    if args.explore:
        return explore(args.minutes, args.jobs, args.steps)
    if args.seed is None or args.system is None:
        parser.error("a replay needs --seed and --system (or give --explore)")
    case = Case.parse(args.system, args.role, args.size)
    screen: list[str] = []
    walked = asyncio.run(walk(case, args.seed, args.steps, keep_screen=screen))
    if args.json:
        print(json.dumps(tally(walked)))
        return 1 if walked.problem else 0
    print(walked.report())
    print("the screen at the end:")
    print(screen[0] if screen else "(none)")
    return 1 if walked.problem else 0


if __name__ == "__main__":
    sys.exit(main())
