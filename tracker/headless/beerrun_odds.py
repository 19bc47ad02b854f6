"""``tracker odds beerrun``: the exact odds of one pool against another.

Apart from the roll (``tracker.headless.beerrun``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

import argparse

from rules.errors import Rejected
from rules.systems.beerrun.odds import pool_odds
from rules.systems.beerrun.pools import parse_pool
from tracker.headless.odds_output import print_odds


def pools_from(args: argparse.Namespace) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``--pool`` and ``--against`` as die sizes (``roll`` reads them the same way)."""
    pool = parse_pool(args.pool, "--pool")
    against = parse_pool(args.against, "--against")
    if not pool or not against:
        raise Rejected("--pool and --against each need at least one die, like d8")
    return pool, against


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pool", required=True, metavar="DICE", help="e.g. d12,d8,d6")
    parser.add_argument("--against", required=True, metavar="DICE", help="e.g. d10,d10,d4")
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run_odds(args: argparse.Namespace) -> int:
    """The exact chance of each tier (the upper hand's kept successes), the upper hand and
    each side's kept successes."""
    print_odds(pool_odds(*pools_from(args)), args.json)
    return 0
