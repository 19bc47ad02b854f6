"""``tracker roll livehack``: one opposed Boon/Bane roll (or a joint one), printed or as JSON.

Each roll component of the rule text is an option, so the breakdown names every part.
"""

from __future__ import annotations

import argparse
import json

from msgspec import structs

from rules.errors import Rejected
from rules.systems.livehack import system as lh
from rules.systems.livehack.model import (
    LiveHackJointRolled,
    aid_bonus,
)
from rules.systems.livehack.sheet import EFFORT_PER_ROLL
from tracker.headless.seeds import dice_for

COMPONENTS = ("skill", "attribute", "specialty", "bond")


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def side_parts(args: argparse.Namespace, side: str) -> tuple[lh.Part, ...]:
    parts = [lh.Part("modifier", getattr(args, side))]
    for part in COMPONENTS:
        value = getattr(args, f"{side}_{part}")
        if value:
            parts.append(lh.Part(part, value))
    parts += [lh.Part("item", value) for value in getattr(args, f"{side}_item")]
    return tuple(parts)


def _effort(value: int, option: str) -> int:
    if not 0 <= value <= EFFORT_PER_ROLL:
        raise Rejected(f"{option} must be between 0 and {EFFORT_PER_ROLL}, not {value}")
    return value


def defender_parts(args: argparse.Namespace) -> tuple[lh.Part, ...]:
    parts = side_parts(args, "defender")
    if _effort(args.defender_effort, "--defender-effort"):
        parts = (*parts, lh.Part("effort", args.defender_effort))
    return parts


def attacker_parts(args: argparse.Namespace) -> tuple[lh.Part, ...]:
    _effort(args.effort, "--effort")
    parts = list(side_parts(args, "attacker"))
    if args.effort:
        parts.append(lh.Part("effort", args.effort))
    if args.positional:
        parts.append(lh.Part("positional", args.positional))
    parts += [lh.Part("aid", aid_bonus(mos)) for mos in args.aid_mos if aid_bonus(mos)]
    return tuple(parts)


def named(side: lh.SideRoll, who: str) -> lh.SideRoll:
    return structs.replace(side, who=who)


def run_roll(args: argparse.Namespace) -> int:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    if args.helper and not args.joint:
        raise Rejected("--helper needs --joint cooperation or --joint chaos")
    if args.joint and not args.helper:
        raise Rejected("--joint needs at least one --helper")
    seed, dice = dice_for(args.seed)
    attacker = named(
        lh.roll_side(attacker_parts(args), args.attacker_take or "roll", dice), "Attacker"
    )
    helpers = [
        named(lh.roll_side((lh.Part("modifier", m),), "roll", dice), f"Helper {n}")
        for n, m in enumerate(args.helper, 1)
    ]
    defender = named(
        lh.roll_side(defender_parts(args), args.defender_take or "roll", dice), "Defender"
    )
    rolls = tuple(
        lh.opposed_roll(side, defender, args.defense, "wounds") for side in (attacker, *helpers)
    )
    margins = [r.margin for r in rolls]
    chosen = margins.index(max(margins) if args.joint == "cooperation" else min(margins))
    roll = rolls[chosen]
    state = Encounter(name="", system="livehack")
    if args.json:
        print(json.dumps(as_json(roll, seed) | joint_json(args.joint, rolls, chosen)))
        return 0
    if args.joint:
        joint = LiveHackJointRolled(kind=args.joint, rolls=rolls, chosen=chosen)
        print(lh.SYSTEM.describe(state, joint).plain)
    else:
        print(lh.SYSTEM.describe(state, roll).plain)
    print(f"(seed {seed})")
    return 0


def joint_json(kind: str | None, rolls: tuple[lh.LiveHackRolled, ...], chosen: int) -> dict:
    if kind is None:
        return {}
    return {
        "joint": kind,
        "chosen": chosen,
        "participants": [_side(r.attacker) | {"margin": r.margin} for r in rolls],
    }


def _side(side: lh.SideRoll) -> dict[str, object]:
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


def as_json(roll: lh.LiveHackRolled, seed: int) -> dict[str, object]:
    row = lh.consequence_for(roll.margin)
    tier = None
    if row is not None:
        tier = {
            "low": row.low,
            "high": row.high,
            "levels": row.levels,
            "condition": lh.condition_for(row, roll.defense),
        }
    return {
        "system": "livehack",
        "seed": seed,
        "attacker": _side(roll.attacker),
        "defender": _side(roll.defender),
        "defense": roll.defense,
        "margin": roll.margin,
        "success": roll.success,
        "margin_bonus": roll.margin_bonus,
        "tier": tier,
    }
