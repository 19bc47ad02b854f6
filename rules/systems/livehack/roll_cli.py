"""``tracker roll livehack``: one opposed Boon/Bane roll (or a joint one), printed or as JSON.

Each roll component of the rule text is an option, so the breakdown names every part.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.bounds import MODIFIER, modifier, within
from rules.cli_interface import RollReport
from rules.dice import DiceSource
from rules.errors import Rejected

from .events import (
    LiveHackJointRolled,
    LiveHackRolled,
    Part,
    SideRoll,
    aid_bonus,
    condition_for,
    opposed_roll,
    roll_side,
)
from .sheet import EFFORT_PER_ROLL
from .system import SYSTEM

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

    from .events import LiveHackEncounter

COMPONENTS = ("skill", "attribute", "specialty", "bond")
HELP = "an opposed Boon/Bane roll (or a joint one)"
EXAMPLE = ("--attacker", "5", "--defender", "3")


def add_arguments(parser: Parser) -> None:
    parser.add_argument("--attacker", type=int, required=True, metavar="MOD")
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    for side in ("attacker", "defender"):
        for part in COMPONENTS:
            parser.add_argument(f"--{side}-{part}", type=int, default=0, metavar="N")
        parser.add_argument(
            f"--{side}-item", type=int, action="append", default=[], metavar="N",
            help="an item rating (repeat for each item)",
        )  # fmt: skip
        parser.add_argument(f"--{side}-take", choices=["zero", "ten"])
    parser.add_argument("--effort", type=int, default=0, metavar="N", help="the attacker's, 0-5")
    parser.add_argument(
        "--defender-effort", type=int, default=0, metavar="N", help="the defender's, 0-5"
    )
    parser.add_argument(
        "--positional", type=int, default=0, metavar="N",
        help="a held or rolled-over margin bonus of the attacker",
    )  # fmt: skip
    parser.add_argument(
        "--aid-mos", type=int, action="append", default=[], metavar="MOS",
        help="a helper's margin: +1 per 5 or part thereof, -1 per full 5 short",
    )  # fmt: skip
    parser.add_argument("--defense", choices=["reflex", "fortitude", "will"], default="reflex")
    parser.add_argument(
        "--joint", choices=["cooperation", "chaos"],
        help="each --helper rolls too; the best (or for chaos the lowest) margin counts",
    )  # fmt: skip
    parser.add_argument("--helper", type=int, action="append", default=[], metavar="MOD")


def side_parts(args: Arguments, side: str) -> tuple[Part, ...]:
    parts = [Part("modifier", modifier(getattr(args, side), f"--{side}"))]
    for part in COMPONENTS:
        value = modifier(getattr(args, f"{side}_{part}"), f"--{side}-{part}")
        if value:
            parts.append(Part(part, value))
    parts += [
        Part("item", modifier(value, f"--{side}-item")) for value in getattr(args, f"{side}_item")
    ]
    return tuple(parts)


def _effort(value: int, option: str) -> int:
    return within(value, option, 0, EFFORT_PER_ROLL)


def defender_parts(args: Arguments) -> tuple[Part, ...]:
    parts = side_parts(args, "defender")
    if _effort(args.defender_effort, "--defender-effort"):
        parts = (*parts, Part("effort", args.defender_effort))
    return parts


def attacker_parts(args: Arguments) -> tuple[Part, ...]:
    _effort(args.effort, "--effort")
    parts = list(side_parts(args, "attacker"))
    if args.effort:
        parts.append(Part("effort", args.effort))
    # A margin bonus is what a hit's margin gave: never negative.
    if within(args.positional, "--positional", 0, MODIFIER):
        parts.append(Part("positional", args.positional))
    aids = [aid_bonus(modifier(mos, "--aid-mos")) for mos in args.aid_mos]
    parts += [Part("aid", aid) for aid in aids if aid]
    return tuple(parts)


def named(side: SideRoll, who: str) -> SideRoll:
    return structs.replace(side, who=who)


def roll(args: Arguments, dice: DiceSource) -> RollReport:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    if args.helper and not args.joint:
        raise Rejected("--helper needs --joint cooperation or --joint chaos")
    if args.joint and not args.helper:
        raise Rejected("--joint needs at least one --helper")
    attacker = named(
        roll_side(attacker_parts(args), args.attacker_take or "roll", dice), "Attacker"
    )
    helpers = [
        named(roll_side((Part("modifier", modifier(m, "--helper")),), "roll", dice), f"Helper {n}")
        for n, m in enumerate(args.helper, 1)
    ]
    defender = named(
        roll_side(defender_parts(args), args.defender_take or "roll", dice), "Defender"
    )
    rolls = tuple(
        opposed_roll(side, defender, args.defense, "wounds") for side in (attacker, *helpers)
    )
    margins = [r.margin for r in rolls]
    chosen = margins.index(max(margins) if args.joint == "cooperation" else min(margins))
    rolled = rolls[chosen]
    state: LiveHackEncounter = Encounter(name="", system="livehack")
    event = (
        LiveHackJointRolled(kind=args.joint, rolls=rolls, chosen=chosen) if args.joint else rolled
    )
    text = SYSTEM.describe(state, event).plain
    return RollReport(text, as_json(rolled) | joint_json(args.joint, rolls, chosen))


def joint_json(kind: str | None, rolls: tuple[LiveHackRolled, ...], chosen: int) -> dict[str, Any]:
    if kind is None:
        return {}
    return {
        "joint": kind,
        "chosen": chosen,
        "participants": [_side(r.attacker) | {"margin": r.margin} for r in rolls],
    }


def _side(side: SideRoll) -> dict[str, Any]:
    dice = side.dice
    return {
        "modifier": side.modifier,
        "parts": [[part.label, part.value] for part in side.parts],
        "take": side.take,
        "boon": list(dice.boon) if dice else [],
        "bane": list(dice.bane) if dice else [],
        "noon": bool(dice and dice.noon),
        "midnight": bool(dice and dice.midnight),
        "eclipse": bool(dice and dice.eclipse),
        "dice_total": side.dice_total,
        "total": side.total,
    }


def as_json(rolled: LiveHackRolled) -> dict[str, Any]:
    row = rolled.row if rolled.answers_table else None
    tier = None
    if row is not None:
        tier = {
            "low": row.low,
            "high": row.high,
            "levels": row.levels,
            "condition": condition_for(row, rolled.defense),
        }
    return {
        "system": "livehack",
        "attacker": _side(rolled.attacker),
        "defender": _side(rolled.defender),
        "defense": rolled.defense,
        "margin": rolled.margin,
        "success": rolled.success,
        "margin_bonus": rolled.margin_bonus,
        "tier": tier,
    }
