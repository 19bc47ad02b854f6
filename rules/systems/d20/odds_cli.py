"""``tracker odds d20 --attack 5 --ac 15``: an attack's exact chance of a miss, a hit and a
critical, with advantage or disadvantage, and with ``--damage`` its damage and the chance it
drops a target of ``--hp``. Light: no msgspec."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.bounds import modifier, within
from rules.errors import Rejected

from .odds import attack_odds
from .table import CRIT, split_damage

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser
    from rules.odds import Odds

HELP = (
    "an attack against an Armour Class: the chance of a miss, a hit and a critical; "
    "with --damage, its damage and the chance it drops a target"
)
EXAMPLE = ("--attack", "5", "--ac", "15", "--advantage")
MAX_AC = 40


def attack_arguments(parser: Parser) -> None:
    """The options of an attack, shared by ``tracker roll d20``."""
    parser.add_argument("--attack", type=int, required=True, metavar="B", help="attack bonus")
    parser.add_argument("--ac", type=int, required=True, metavar="A", help="Armour Class")
    parser.add_argument("--advantage", action="store_true", help="roll two d20, keep the higher")
    parser.add_argument("--disadvantage", action="store_true", help="two d20, keep the lower")
    parser.add_argument(
        "--damage",
        default="",
        metavar="DICE",
        help="damage: 1d8+3 slashing, or several types: 1d8+3 slashing + 2d6 fire",
    )
    parser.add_argument(
        "--crit",
        type=int,
        default=CRIT,
        metavar="N",
        help="the lowest natural roll that is a critical (20; 19 for 19-20)",
    )


def checked(args: Arguments) -> tuple[int, int, int, int, str, str]:
    """The attack's bonus, AC, mode, critical range, damage notation and type."""
    bonus = modifier(args.attack, "--attack")
    ac = within(args.ac, "--ac", 0, MAX_AC)
    crit = within(args.crit, "--crit", 2, CRIT)
    mode = (1 if args.advantage else 0) - (1 if args.disadvantage else 0)
    notation, kind = split_damage(args.damage) if args.damage.strip() else ("", "")
    return bonus, ac, mode, crit, notation, kind


def add_arguments(parser: Parser) -> None:
    attack_arguments(parser)
    parser.add_argument("--hp", type=int, metavar="N", help="the target's hit points left")


def answer(args: Arguments) -> Odds:
    bonus, ac, mode, crit, notation, _ = checked(args)
    hp = args.hp
    if hp is not None:
        if not notation:
            raise Rejected("--hp needs --damage: the chance to drop a target is the damage's")
        hp = within(hp, "--hp", 1, 10_000)
    return attack_odds(bonus, ac, mode, crit, damage=notation, to_drop=hp)
