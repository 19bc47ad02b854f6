"""``tracker odds painpool``: the exact odds of three hero pools against a Pain Pool, and the
pool options ``tracker roll painpool`` shares.

Apart from the roll (``roll_cli``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.odds import Odds

from .odds import painpool_odds
from .table import BUILD_SIZES, MIN_PAIN_DICE, PAIN_DIE, POOLS, PoolName

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

DICE = re.compile(r"([0-9]*)d([0-9]+)")  # the count may be left out, as in Beer Run: d8
MAX_DICE = 30
HELP = "three hero pools against a Pain Pool: the chance of each result"
EXAMPLE = ("--power", "2d8", "--precision", "1d6", "--possibility", "1d4", "--pain", "5d6")


def pool_arguments(parser: Parser) -> None:
    for pool in POOLS:
        parser.add_argument(f"--{pool}", required=True, metavar="NdS", help="e.g. 3d8")
    parser.add_argument("--pain", required=True, metavar="Nd6", help="the Pain Pool, e.g. 9d6")


def add_arguments(parser: Parser) -> None:
    pool_arguments(parser)


def answer(args: Arguments) -> Odds:
    return painpool_odds(tuple(pools_from(args)), pain_from(args))


def parse_dice(text: str, what: str, example: str = "3d8") -> tuple[int, int]:
    match = DICE.fullmatch(text.strip().lower())
    if match is None:
        raise Rejected(f"--{what} must look like {example}, not {text!r}")
    digits = match[1] or "1"
    # Thousands of digits are refused without int(), which would be slow on them.
    count = int(digits) if len(digits) <= 3 else MAX_DICE + 1
    if not 1 <= count <= MAX_DICE:
        raise Rejected(f"--{what} must roll between 1 and {MAX_DICE} dice, not {text!r}")
    size = int(match[2]) if len(match[2]) <= 3 else 0
    return count, size


def pools_from(args: Arguments) -> list[tuple[PoolName, int, int]]:
    pools = [(pool, *parse_dice(getattr(args, pool), pool)) for pool in POOLS]
    if sorted((size for _, _, size in pools), reverse=True) != list(BUILD_SIZES):
        raise Rejected("--power, --precision and --possibility take one each of d8, d6 and d4")
    return pools


def pain_from(args: Arguments) -> int:
    pain_count, pain_size = parse_dice(args.pain, "pain", f"{MIN_PAIN_DICE}d{PAIN_DIE}")
    if pain_size != PAIN_DIE or pain_count < MIN_PAIN_DICE:
        raise Rejected(f"--pain is at least {MIN_PAIN_DICE}d6, not {args.pain!r}")
    return pain_count
