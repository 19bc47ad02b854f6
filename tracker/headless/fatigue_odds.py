"""``tracker odds fatigue``: the exact chance of each threshold band of a check, and the flags
of a check that ``tracker roll fatigue`` shares.

Apart from the roll (``tracker.headless.fatigue``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

import argparse

from rules.errors import Rejected
from rules.systems.fatigue.bands import DICE, FLOOR
from rules.systems.fatigue.odds import check_odds
from tracker.headless.odds_output import print_odds

DICE_NAMES = [kind for kind, _ in DICE]


def check_arguments(parser: argparse.ArgumentParser, dice_required: bool) -> None:
    """The flags of a check, shared by ``roll`` (dice default to 1d20) and ``odds``."""
    dice: dict[str, object] = (
        {"required": True, "metavar": "D"} if dice_required else {"default": "1d20"}
    )
    parser.add_argument("--attacker-dice", choices=DICE_NAMES, **dice)  # type: ignore[arg-type]
    parser.add_argument(
        "--attacker",
        type=int,
        required=True,
        metavar="MOD",
        help="skills minus fatigue and attitude, added to the dice",
    )
    parser.add_argument("--defender-dice", choices=DICE_NAMES, **dice)  # type: ignore[arg-type]
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    parser.add_argument(
        "--fatigue-penalty",
        type=int,
        default=0,
        metavar="P",
        help="the defender's relevant fatigue penalty: thresholds 10 - P apart",
    )
    parser.add_argument(
        "--floor",
        type=int,
        default=FLOOR,
        choices=[1, 2, 3],
        metavar="T",
        help="the closest the thresholds get (3; 2 or 1 for negative pools)",
    )


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    check_arguments(parser, dice_required=True)
    parser.add_argument(
        "--fumble",
        type=int,
        metavar="N",
        help="the attacker's fumble line (threshold + fumble penalty): a total at or under it "
        "fumbles and counts as a defense",
    )
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run_odds(args: argparse.Namespace) -> int:
    if args.fatigue_penalty < 0:
        raise Rejected("--fatigue-penalty must be 0 or more")
    odds = check_odds(
        args.attacker_dice,
        args.attacker,
        args.defender_dice,
        args.defender,
        args.fatigue_penalty,
        args.floor,
        args.fumble,
    )
    print_odds(odds, args.json)
    return 0
