"""``tracker roll beerrun``: one pool against another, sorted and compared pair by pair."""

from __future__ import annotations

import argparse
import json

from rules.systems.beerrun.dice import Die, Outcome, compare, roll_dice
from rules.systems.beerrun.log import contest_lines
from rules.systems.beerrun.model import Contest
from tracker.headless.beerrun_odds import pools_from
from tracker.headless.seeds import dice_for


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pool", required=True, metavar="DICE", help="e.g. d12,d8,d6")
    parser.add_argument("--against", required=True, metavar="DICE", help="e.g. d10,d10,d4")
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def run_roll(args: argparse.Namespace) -> int:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    pool, against = pools_from(args)
    seed, dice = dice_for(args.seed)
    top = roll_dice(dice, tuple(("pool", size) for size in pool))
    bottom = roll_dice(dice, tuple(("against", size) for size in against))
    outcome = compare(top, bottom)
    if args.json:
        print(json.dumps(as_json(top, bottom, outcome, seed)))
        return 0
    contest = Contest(kind="conflict", top_id="", top=top, bottom_id=None, bottom=bottom)
    state = Encounter(name="", system="beerrun")
    for line in contest_lines(state, contest, ("Pool", "Against")):
        print("".join(span.text for span in line))
    print(f"(seed {seed})")
    return 0


def _dice(dice: tuple[Die, ...]) -> list[dict[str, int]]:
    return [{"size": d.size, "face": d.face} for d in dice]


def as_json(
    top: tuple[Die, ...], bottom: tuple[Die, ...], outcome: Outcome, seed: int
) -> dict[str, object]:
    upper = {"top": "pool", "bottom": "against", "tie": None}[outcome.upper]
    return {
        "system": "beerrun",
        "seed": seed,
        "pool": _dice(top),
        "against": _dice(bottom),
        "pairs": [
            {
                "pool": pair.top.face,
                "against": pair.bottom.face,
                "winner": {"top": "pool", "bottom": "against", "tie": None}[pair.winner],
                "kept": index in outcome.kept_pairs,
            }
            for index, pair in enumerate(outcome.pairs)
        ],
        "upper_hand": upper,
        "successes": {"pool": outcome.top_successes, "against": outcome.bottom_successes},
        "kept": {"pool": outcome.top_kept, "against": outcome.bottom_kept},
    }
