"""``tracker odds fatigue``: the exact chance of each threshold band of a check, and the
options of a check that ``tracker roll fatigue`` shares.

Apart from the roll (``roll_cli``), so that it loads no msgspec Struct.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.bounds import MODIFIER, modifier, within
from rules.odds import Odds

from .odds import check_odds
from .table import DICE, FLOOR

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

DICE_NAMES = [kind for kind, _ in DICE]
HELP = "a check between two totals: the chance of each threshold band"
EXAMPLE = (
    "--attacker-dice", "2d10", "--attacker", "3", "--defender-dice", "1d20", "--defender", "1",
)  # fmt: skip


def check_arguments(parser: Parser, dice_required: bool) -> None:
    """The options of a check, shared by ``roll`` (dice default to 1d20) and ``odds``."""
    dice: dict[str, Any] = (
        {"required": True, "metavar": "D"} if dice_required else {"default": "1d20"}
    )
    # A metavar hides argparse's list of choices: the help says them then (a tester found
    # them only in the error for a wrong one).
    dice["help"] = (
        f"the stress dice: {', '.join(DICE_NAMES)}" if dice_required else "the stress dice"
    )
    parser.add_argument("--attacker-dice", choices=DICE_NAMES, **dice)
    parser.add_argument(
        "--attacker",
        type=int,
        required=True,
        metavar="MOD",
        help="skills minus fatigue and attitude, added to the dice",
    )
    parser.add_argument("--defender-dice", choices=DICE_NAMES, **dice)
    parser.add_argument(
        "--defender", type=int, required=True, metavar="MOD", help="the defender's, likewise"
    )
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
    parser.add_argument(
        "--fumble",
        type=int,
        metavar="N",
        help="the attacker's fumble line (threshold + fumble penalty): a total at or under it "
        "fumbles and counts as a defense",
    )


def penalty_of(args: Arguments) -> int:
    """``--fatigue-penalty``, refused below 0 (and checks both modifiers on the way)."""
    modifier(args.attacker, "--attacker")
    modifier(args.defender, "--defender")
    return within(args.fatigue_penalty, "--fatigue-penalty", 0, MODIFIER)


def fumble_of(args: Arguments) -> int | None:
    """``--fumble``, within the bound of a modifier (None: no fumble line)."""
    return None if args.fumble is None else modifier(args.fumble, "--fumble")


def add_arguments(parser: Parser) -> None:
    check_arguments(parser, dice_required=True)


def answer(args: Arguments) -> Odds:
    return check_odds(
        args.attacker_dice,
        args.attacker,
        args.defender_dice,
        args.defender,
        penalty_of(args),
        args.floor,
        fumble_of(args),
    )
