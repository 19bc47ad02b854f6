"""``tracker dice EXPR``: dice notation rolled headless (no Textual, no saves, no msgspec),
with the exact mean, the goal's chance and, on request, the whole distribution
(``rules.notation``)."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.notation.answer import Answer


# Where the notation differs from the d20 dice bot's on purpose (docs/reference/dice.md has the
# table).
DIFFERENCES = (
    "The notation is that of the d20 dice bot (Avrae), with these differences on purpose: "
    "4d6k3 and 4d6p1 are refused, as dice bots read them differently (write 4d6kh3 for the 3 "
    "highest, 4d6k=3 for the dice showing 3); c counts successes (6d10c>=8) and ! explodes a "
    "die into one chain (3d6!), neither is d20's; a reroll or explosion that could never stop "
    "(1d6rr<7), or a division by a part that can be 0, is refused before any roll; a comment "
    "goes in brackets (2d6 [fire]); an exploding die rolls at most 10 more times; at most 100 "
    "dice. The whole list: docs/reference/dice.md."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = DIFFERENCES
    parser.add_argument(
        "expression",
        nargs="+",
        metavar="EXPR",
        help="dice notation, e.g. 2d6+3, 4d6kh3, 1d20ro1+5, (1d8+4)*2, 6d10c>=8, "
        "'1d20+5 >= 15' (quote what the shell reads: > < * ( ) [ ]); ending with the word "
        "chart, as --chart",
    )
    # Set only when given here, so `tracker --seed 5 dice ...` keeps the top-level seed.
    parser.add_argument(
        "--seed", type=int, default=argparse.SUPPRESS, help="seed the dice, to reproduce a roll"
    )
    parser.add_argument(
        "--json", action="store_true", help="every die, the total and the distribution as JSON"
    )
    parser.add_argument(
        "--chart", action="store_true", help="draw the distribution of the total in blocks"
    )
    parser.add_argument(
        "--exact", action="store_true", help="the mean and the chance as exact fractions too"
    )


def run(args: argparse.Namespace) -> int:
    """Roll and print; 2 with one line on stderr when the notation is refused."""
    from rules.errors import Rejected
    from rules.notation.answer import answer
    from rules.notation.chart import chart, split_chart
    from tracker.headless.seeds import dice_for

    seed, dice = dice_for(args.seed)
    expression, charted = split_chart(" ".join(args.expression))  # as `:roll 3d6 chart` reads
    try:
        result = answer(expression, dice)
    except Rejected as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2
    if args.json:
        import json

        print(json.dumps(_json(result, seed)))
        return 0
    from rules.notation import words

    odds = result.odds
    pieces = words.line(
        odds.notation,
        result.pieces,
        result.total,
        mean=odds.odds.mean,
        made=result.made,
        against=result.against,
        goal=odds.goal_text,
        at_least=odds.at_least,
        chance=odds.chance,
    )
    print("".join(text for text, _ in pieces).removeprefix("🎲 "))
    if args.exact:
        exact = [f"mean {odds.odds.mean}"]
        if odds.chance is not None:
            exact.append(f"{odds.goal_text}: {odds.chance}")
        print("exactly: " + "; ".join(exact))
    if args.chart or charted:
        print("\n".join(chart(odds.odds)))
    print(f"(seed {seed})")
    return 0


def _json(result: Answer, seed: int) -> dict[str, object]:
    odds = result.odds
    mean = odds.odds.mean
    data: dict[str, object] = {
        "expression": odds.notation,
        "seed": seed,
        "dice": [
            {
                "notation": g.notation,
                "sign": g.sign,
                "rolls": g.rolls,
                "kept": g.kept,
                "rerolled": [[_number(v) for v in was] for was in g.was],
            }
            for g in result.dice
        ],
        "constant": _number(result.constant),
        "total": result.total,
        "mean": {"fraction": str(mean), "value": float(mean)},
        "distribution": [
            {"total": total, "fraction": str(p), "p": float(p)}
            for total, p in (
                (t, Fraction(w, odds.odds.denominator))
                for t, w in sorted(odds.odds.weights.items())
            )
        ],
    }
    if odds.chance is not None:
        goal = {
            "comparison": odds.goal_op,
            "against": _number(result.goal_value) if result.goal_value is not None else None,
            "fraction": str(odds.chance),
            "p": float(odds.chance),
            "reached": result.made,
        }
        data["goal"] = goal
        if odds.at_least is not None:
            data["at_least"] = {
                "goal": odds.at_least,
                "fraction": str(odds.chance),
                "p": float(odds.chance),
                "reached": result.made,
            }
    return data


def _number(value: object) -> object:
    """A value as JSON has numbers: whole, or a float for a fraction (``15/2``)."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value
