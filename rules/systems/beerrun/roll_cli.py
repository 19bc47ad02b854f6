"""``tracker roll beerrun``: one pool against another, sorted and compared pair by pair."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.cli_interface import RollReport
from rules.dice import DiceSource

from .dice import Die, Outcome, compare, roll_dice
from .events import Contest
from .log import contest_lines
from .odds_cli import pool_arguments, pools_from

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

    from .events import BeerRunEncounter

HELP = "a pool against another, sorted and compared pair by pair"
EXAMPLE = ("--pool", "d12,d8,d6", "--against", "d10,d10,d4")
SIDE = {"top": "pool", "bottom": "against", "tie": None}


def add_arguments(parser: Parser) -> None:
    pool_arguments(parser)


def roll(args: Arguments, dice: DiceSource) -> RollReport:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    pool, against = pools_from(args)
    top = roll_dice(dice, tuple(("pool", size) for size in pool))
    bottom = roll_dice(dice, tuple(("against", size) for size in against))
    outcome = compare(top, bottom)
    contest = Contest(kind="conflict", top_id="", top=top, bottom_id=None, bottom=bottom)
    state: BeerRunEncounter = Encounter(name="", system="beerrun")
    lines = contest_lines(state, contest, ("Pool", "Against"))
    text = "\n".join("".join(span.text for span in line) for line in lines)
    return RollReport(text, as_json(top, bottom, outcome))


def _dice(dice: tuple[Die, ...]) -> list[dict[str, int]]:
    return [{"size": d.size, "face": d.face} for d in dice]


def as_json(top: tuple[Die, ...], bottom: tuple[Die, ...], outcome: Outcome) -> dict[str, Any]:
    return {
        "system": "beerrun",
        "pool": _dice(top),
        "against": _dice(bottom),
        "pairs": [
            {
                "pool": pair.top.face,
                "against": pair.bottom.face,
                "winner": SIDE[pair.winner],
                "kept": index in outcome.kept_pairs,
            }
            for index, pair in enumerate(outcome.pairs)
        ],
        "upper_hand": SIDE[outcome.upper],
        "successes": {"pool": outcome.top_successes, "against": outcome.bottom_successes},
        "kept": {"pool": outcome.top_kept, "against": outcome.bottom_kept},
    }
