"""``tracker roll painpool``: three hero pools against a Pain Pool, printed or as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.cli_interface import RollReport
from rules.dice import DiceSource

from .log import KEY_HINTS
from .odds_cli import pain_from, pool_arguments, pools_from
from .roll import PainPoolRolled, PainRoll, Part, PoolRoll, roll_dice
from .system import SYSTEM
from .table import PAIN_DIE

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

HELP = "three hero pools against a Pain Pool"
EXAMPLE = ("--power", "3d8", "--precision", "2d6", "--possibility", "1d4", "--pain", "9d6")


def add_arguments(parser: Parser) -> None:
    pool_arguments(parser)


def rolled(args: Arguments, dice: DiceSource) -> PainPoolRolled:
    """The roll the options describe, as the system's own event."""
    pools = pools_from(args)
    pain_count = pain_from(args)
    hero_pools = tuple(
        PoolRoll(
            pool=pool,
            size=size,
            attribute=dice.roll(size),
            boon_dice=roll_dice(dice, count - 1, size),
        )
        for pool, count, size in pools
    )
    pain = PainRoll(parts=(Part("pool", pain_count),), dice=roll_dice(dice, pain_count, PAIN_DIE))
    return PainPoolRolled(hero_id="", challenge_id="", pools=hero_pools, pain=pain)


def roll(args: Arguments, dice: DiceSource) -> RollReport:
    from rules.encounter import Encounter  # only a roll needs it: odds stay light

    event = rolled(args, dice)
    text = SYSTEM.describe(Encounter(name="", system="painpool"), event).plain
    for hint in KEY_HINTS:  # the app's keys mean nothing on the command line
        text = text.replace(hint, "")
    return RollReport(text, as_json(event))


def as_json(event: PainPoolRolled) -> dict[str, Any]:
    return {
        "system": "painpool",
        "pools": {
            p.pool: {"size": p.size, "dice": list(p.faces), "kept": p.kept} for p in event.pools
        },
        "pain": {
            "dice": list(event.pain.dice),
            "kept": list(event.pain.kept),
            "total": event.pain.total,
        },
        "hero_total": event.hero_total,
        "difference": event.difference,
        "outcome": event.outcome,
        "dominant": event.dominant,
        "despair": event.dominant == "pain",
    }
