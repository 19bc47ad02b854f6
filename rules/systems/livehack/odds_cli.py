"""``tracker odds livehack``: the exact chance of each tier of an opposed Boon/Bane roll.

Apart from the roll (``roll_cli``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.bounds import modifier
from rules.odds import Odds

from .odds import opposed_odds

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

HELP = "an opposed Boon/Bane roll: the chance of each tier"
EXAMPLE = ("--attacker", "5", "--defender", "2")


def add_arguments(parser: Parser) -> None:
    parser.add_argument("--attacker", type=int, required=True, metavar="MOD")
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    parser.add_argument("--attacker-take", choices=["zero", "ten"])
    parser.add_argument("--defender-take", choices=["zero", "ten"])


def answer(args: Arguments) -> Odds:
    return opposed_odds(
        modifier(args.attacker, "--attacker"),
        modifier(args.defender, "--defender"),
        args.attacker_take or "roll",
        args.defender_take or "roll",
    )
