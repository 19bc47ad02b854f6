"""``tracker roll livehack``: one opposed Boon/Bane roll, printed or as JSON."""

from __future__ import annotations

import argparse
import json

from rules.encounter import Encounter
from rules.systems import livehack as lh
from tracker.headless.seeds import dice_for


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--attacker", type=int, required=True, metavar="MOD")
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    parser.add_argument("--attacker-take", choices=["zero", "ten"])
    parser.add_argument("--defender-take", choices=["zero", "ten"])
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def run_roll(args: argparse.Namespace) -> int:
    seed, dice = dice_for(args.seed)
    attacker = lh.roll_side(
        (lh.Part("modifier", args.attacker),), args.attacker_take or "roll", dice
    )
    defender = lh.roll_side(
        (lh.Part("modifier", args.defender),), args.defender_take or "roll", dice
    )
    roll = lh.opposed_roll(attacker, defender, "reflex", "wounds")
    if args.json:
        print(json.dumps(as_json(roll, seed)))
    else:
        print(lh.SYSTEM.describe(Encounter(name="", system="livehack"), roll).plain)
        print(f"(seed {seed})")
    return 0


def _side(side: lh.SideRoll) -> dict[str, object]:
    dice = side.dice
    return {
        "modifier": side.modifier,
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
        "margin": roll.margin,
        "success": roll.success,
        "margin_bonus": roll.margin_bonus,
        "tier": tier,
    }
