"""``tracker roll painpool``: three hero pools against a Pain Pool, printed or as JSON."""

from __future__ import annotations

import argparse
import json
import re

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.systems import painpool_roll as pr
from rules.systems.painpool import SYSTEM
from rules.systems.painpool_sheets import BUILD_SIZES, MIN_PAIN_DICE, PAIN_DIE, POOLS
from tracker.headless.seeds import dice_for

DICE = re.compile(r"([0-9]{1,2})d([0-9]{1,2})")
MAX_DICE = 30


def _pool_arguments(parser: argparse.ArgumentParser) -> None:
    for pool in POOLS:
        parser.add_argument(f"--{pool}", required=True, metavar="NdS", help="e.g. 3d8")
    parser.add_argument("--pain", required=True, metavar="Nd6", help="the Pain Pool, e.g. 9d6")


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    _pool_arguments(parser)
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    _pool_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run_odds(args: argparse.Namespace) -> int:
    from rules.odds.painpool import painpool_odds
    from tracker.headless.odds_output import as_json, as_table

    odds = painpool_odds(tuple(pools_from(args)), pain_from(args))
    print(json.dumps(as_json(odds)) if args.json else as_table(odds))
    return 0


def parse_dice(text: str, what: str) -> tuple[int, int]:
    match = DICE.fullmatch(text.strip().lower())
    if match is None:
        raise Rejected(f"--{what} must look like 3d8, not {text!r}")
    count, size = int(match[1]), int(match[2])
    if not 1 <= count <= MAX_DICE:
        raise Rejected(f"--{what} must roll between 1 and {MAX_DICE} dice")
    return count, size


def pools_from(args: argparse.Namespace) -> list[tuple[str, int, int]]:
    pools = [(pool, *parse_dice(getattr(args, pool), pool)) for pool in POOLS]
    if sorted((size for _, _, size in pools), reverse=True) != list(BUILD_SIZES):
        raise Rejected("--power, --precision and --possibility take one each of d8, d6 and d4")
    return pools


def pain_from(args: argparse.Namespace) -> int:
    pain_count, pain_size = parse_dice(args.pain, "pain")
    if pain_size != PAIN_DIE or pain_count < MIN_PAIN_DICE:
        raise Rejected(f"--pain is at least {MIN_PAIN_DICE}d6, not {args.pain!r}")
    return pain_count


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
