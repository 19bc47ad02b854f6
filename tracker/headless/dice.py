"""``tracker dice EXPR``: plain dice in standard notation, rolled headless (no Textual, no
saves), with the exact mean and chance (``rules.plain_dice``)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "expression",
        nargs="+",
        metavar="EXPR",
        help="dice notation, e.g. 2d6+3, 4d6kh3, 2d20kl1, 3d6!, '1d20+5 >= 15' (quote >=)",
    )
    # Set only when given here, so `tracker --seed 5 dice ...` keeps the top-level seed.
    parser.add_argument(
        "--seed", type=int, default=argparse.SUPPRESS, help="seed the dice, to reproduce a roll"
    )
    parser.add_argument("--json", action="store_true", help="every die and the total as JSON")


def run(args: argparse.Namespace) -> int:
    """Roll and print; 2 with one line on stderr when the notation is refused."""
    from rules.errors import Rejected
    from rules.plain_dice import line, rolled
    from tracker.headless.seeds import dice_for

    seed, dice = dice_for(args.seed)
    try:
        event = rolled(" ".join(args.expression), dice)
    except Rejected as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2
    mean, chance = Fraction(event.mean), Fraction(event.chance or 0)
    if args.json:
        import json

        data = {
            "expression": event.notation,
            "seed": seed,
            "dice": [
                {"notation": g.notation, "sign": g.sign, "rolls": g.chains, "kept": g.kept}
                for g in event.groups
            ],
            "constant": event.constant,
            "total": event.total,
            "mean": {"fraction": event.mean, "value": float(mean)},
        }
        if event.at_least is not None:
            data["at_least"] = {
                "goal": event.at_least,
                "fraction": event.chance,
                "p": float(chance),
                "reached": event.total >= event.at_least,
            }
        print(json.dumps(data))
        return 0
    print("".join(span.text for span in line(event)).removeprefix("🎲 "))
    exact = [f"mean {mean}"] if mean.denominator > 1 else []
    if event.at_least is not None and chance.denominator > 1000:
        exact.append(f"{event.at_least} or more {chance}")
    if exact:
        print("exactly: " + "; ".join(exact))
    print(f"(seed {seed})")
    return 0
