"""``tracker odds livehack``: the exact chance of each tier of an opposed Boon/Bane roll.

Apart from the roll (``tracker.headless.livehack``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

import argparse

from rules.systems.livehack.odds import opposed_odds
from tracker.headless.odds_output import print_odds


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attacker", type=int, required=True, metavar="MOD")
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    parser.add_argument("--attacker-take", choices=["zero", "ten"])
    parser.add_argument("--defender-take", choices=["zero", "ten"])
    parser.add_argument("--json", action="store_true", help="the tiers and extras as JSON")


def run_odds(args: argparse.Namespace) -> int:
    odds = opposed_odds(
        args.attacker,
        args.defender,
        args.attacker_take or "roll",
        args.defender_take or "roll",
    )
    print_odds(odds, args.json)
    return 0
