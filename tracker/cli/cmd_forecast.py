"""``tracker forecast FILE``: the fight played out many times by solo policy, reported."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.cli.parsing import Building, bounded

if TYPE_CHECKING:
    from rules.encounter import AnyEncounter
    from tracker.headless.forecast_pool import Workers
from tracker.cli.with_saves import with_saves

HELP = "play the fight out many times by solo policy and report"
FOLDERS = False


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    # The bounds live with the forecast; importing it here would load the rules for every
    # command, so they are repeated as numbers and a test checks they agree.
    parser.add_argument("file", type=Path)
    parser.add_argument(
        "--runs", type=bounded(1, 1_000_000), default=1000, metavar="N", help="fights (1000)"
    )
    parser.add_argument(
        "--seed", type=bounded(0, 2**63 - 1), metavar="S", help="seed (default: a fresh one)"
    )
    parser.add_argument(
        "--jobs", type=bounded(1, 64), metavar="J", help="processes (default: the CPUs, up to 8)"
    )
    parser.add_argument(
        "--rounds",
        type=bounded(1, 1000),
        default=50,
        metavar="R",
        help="a fight still going after R rounds has no winner (50)",
    )
    parser.add_argument("--json", action="store_true", help="print the forecast as JSON")
    parser.add_argument(
        "--brief",
        action="store_true",
        help="the fight's difficulty in a line or two (stops once its band is settled; "
        "seed 0 unless given)",
    )


def run(args: argparse.Namespace) -> int:
    from tracker.headless.forecast_pool import Workers

    # Before the save is read, while this process holds the rules alone: the workers are
    # forked from it then, ready in milliseconds with nothing else loaded.
    args.workers = Workers(args.jobs)
    return with_saves(args, play_out, named=True)


def play_out(args: argparse.Namespace) -> int:
    import json

    from rules.errors import Rejected
    from rules.forecast import unready
    from tracker.headless import forecast_pool
    from tracker.store import storage

    # The workers were started before the save is read (``run``).
    workers: forecast_pool.Workers = args.workers
    with workers:
        history = storage.read(args.file)
        if args.brief:
            return _brief(args, history.state, workers)
        why = unready(history.state)
        if why:  # refused before a fight is played: one side, or nobody
            raise Rejected(why)
        seed = args.seed if args.seed is not None else _fresh_seed()
        try:
            result = forecast_pool.run_forecast(
                history.state, args.runs, seed, args.rounds, workers
            )
        except KeyboardInterrupt:
            print("tracker: forecast stopped", file=sys.stderr)  # ctrl+c: no traceback
            return 130
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(forecast_pool.as_text(result))
    return 0


def _brief(args: argparse.Namespace, state: AnyEncounter, workers: Workers) -> int:
    """The difficulty lines (or their JSON), from as few runs as settle the band."""
    import json

    from rules import difficulty
    from tracker.headless.difficulty_runs import SEED, run_difficulty

    seed = args.seed if args.seed is not None else SEED
    why = difficulty.unready(state)  # the app's D refuses the same, before any fight
    if why:
        print(json.dumps({"lines": [why]}) if args.json else why)
        return 0
    try:
        result = run_difficulty(state, seed, args.runs, workers, rounds=args.rounds)
    except KeyboardInterrupt:
        print("tracker: forecast stopped", file=sys.stderr)
        return 130
    said = difficulty.lines(state, result)
    if args.json:
        read = difficulty.read(result)
        print(json.dumps(difficulty.as_json(read, said) if read else {"lines": list(said)}))
    else:
        print("\n".join(said))
    return 0


def _fresh_seed() -> int:
    import secrets  # only when no seed is given: it loads hashing modules a forecast never uses

    return secrets.randbits(32)
