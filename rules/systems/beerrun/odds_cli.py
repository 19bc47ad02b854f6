"""``tracker odds beerrun``: the exact odds of one pool against another, and the pool options
``tracker roll beerrun`` shares.

Apart from the roll (``roll_cli``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.odds import Odds

from .odds import pool_odds
from .table import parse_pool

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

HELP = "a pool against another: the chance of each upper hand and each count of successes kept"
EXAMPLE = ("--pool", "d12,d8", "--against", "d10,d6")


def pool_arguments(parser: Parser) -> None:
    """``--pool`` and ``--against``, shared by ``roll`` and ``odds``."""
    parser.add_argument("--pool", required=True, metavar="DICE", help="e.g. d12,d8,d6 or d12+d8+d6")
    parser.add_argument(
        "--against", required=True, metavar="DICE", help="e.g. d10,d10,d4 or 2d10+d4"
    )


def pools_from(args: Arguments) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``--pool`` and ``--against`` as die sizes (``roll`` reads them the same way)."""
    pool = parse_pool(args.pool, "--pool")
    against = parse_pool(args.against, "--against")
    if not pool or not against:
        raise Rejected("--pool and --against each need at least one die, like d8")
    return pool, against


def add_arguments(parser: Parser) -> None:
    pool_arguments(parser)


def answer(args: Arguments) -> Odds:
    """The exact chance of each tier (the upper hand's kept successes), the upper hand and
    each side's kept successes."""
    return pool_odds(*pools_from(args))
