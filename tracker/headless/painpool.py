"""``tracker roll painpool``: three hero pools against a Pain Pool, printed or as JSON."""

from __future__ import annotations

import argparse
import json

from rules.dice import DiceSource
from rules.systems.painpool import roll as pr
from rules.systems.painpool.system import SYSTEM
from rules.systems.painpool.table import PAIN_DIE
from tracker.headless.painpool_odds import pain_from, pool_arguments, pools_from
from tracker.headless.seeds import dice_for


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    pool_arguments(parser)
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def roll(args: argparse.Namespace, dice: DiceSource) -> pr.PainPoolRolled:
    pools = pools_from(args)
    pain_count = pain_from(args)
    rolled = tuple(
        pr.PoolRoll(
            pool=pool,  # type: ignore[arg-type]
            size=size,
            attribute=dice.roll(size),
            boon_dice=pr.roll_dice(dice, count - 1, size),
        )
        for pool, count, size in pools
    )
    pain = pr.PainRoll(
        parts=(pr.Part("pool", pain_count),), dice=pr.roll_dice(dice, pain_count, PAIN_DIE)
    )
    return pr.PainPoolRolled(hero_id="", challenge_id="", pools=rolled, pain=pain)


def run_roll(args: argparse.Namespace) -> int:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    seed, dice = dice_for(args.seed)
    rolled = roll(args, dice)
    if args.json:
        print(json.dumps(as_json(rolled, seed)))
    else:
        print(SYSTEM.describe(Encounter(name="", system="painpool"), rolled).plain)
        print(f"(seed {seed})")
    return 0


def as_json(roll: pr.PainPoolRolled, seed: int) -> dict[str, object]:
    return {
        "system": "painpool",
        "seed": seed,
        "pools": {
            p.pool: {"size": p.size, "dice": list(p.faces), "kept": p.kept} for p in roll.pools
        },
        "pain": {
            "dice": list(roll.pain.dice),
            "kept": list(roll.pain.kept),
            "total": roll.pain.total,
        },
        "hero_total": roll.hero_total,
        "difference": roll.difference,
        "outcome": roll.outcome,
        "dominant": roll.dominant,
        "despair": roll.dominant == "pain",
    }
