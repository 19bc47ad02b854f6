"""``tracker odds painpool``: the exact odds of three hero pools against a Pain Pool, and the
pool flags ``tracker roll painpool`` shares.

Apart from the roll (``tracker.headless.painpool``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

import argparse
import re

from rules.errors import Rejected
from rules.systems.painpool.odds import painpool_odds
from rules.systems.painpool.table import BUILD_SIZES, MIN_PAIN_DICE, PAIN_DIE, POOLS
from tracker.headless.odds_output import print_odds

DICE = re.compile(r"([0-9]{1,2})d([0-9]{1,2})")
MAX_DICE = 30


def pool_arguments(parser: argparse.ArgumentParser) -> None:
    for pool in POOLS:
        parser.add_argument(f"--{pool}", required=True, metavar="NdS", help="e.g. 3d8")
    parser.add_argument("--pain", required=True, metavar="Nd6", help="the Pain Pool, e.g. 9d6")


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    pool_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run_odds(args: argparse.Namespace) -> int:
    odds = painpool_odds(tuple(pools_from(args)), pain_from(args))
    print_odds(odds, args.json)
    return 0


def parse_dice(text: str, what: str) -> tuple[int, int]:
    match = DICE.fullmatch(text.strip().lower())
    if match is None:
        raise Rejected(f"--{what} must look like 3d8, not {text!r}")
    count, size = int(match[1]), int(match[2])
    if not 1 <= count <= MAX_DICE:
        raise Rejected(f"--{what} must roll between 1 and {MAX_DICE} dice")
    return count, size


def pools_from(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    pools = [(pool, *parse_dice(getattr(args, pool), pool)) for pool in POOLS]
    if sorted((size for _, _, size in pools), reverse=True) != list(BUILD_SIZES):
        raise Rejected("--power, --precision and --possibility take one each of d8, d6 and d4")
    return pools


def pain_from(args: argparse.Namespace) -> int:
    pain_count, pain_size = parse_dice(args.pain, "pain")
    if pain_size != PAIN_DIE or pain_count < MIN_PAIN_DICE:
        raise Rejected(f"--pain is at least {MIN_PAIN_DICE}d6, not {args.pain!r}")
    return pain_count
