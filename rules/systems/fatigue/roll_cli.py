"""``tracker roll fatigue``: one check between two totals, printed or as JSON (its odds:
``odds_cli``, whose options of a check it shares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.cli_interface import RollReport
from rules.dice import DiceSource

from .arithmetic import (
    DEFENSE_NAMES,
    DiceKind,
    cutoffs,
    defense_level,
    dice_text,
    fumbles,
    roll_stress,
    spacing,
    stress_total,
    suckage_to_lift,
)
from .odds_cli import check_arguments, fumble_of, penalty_of

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser

HELP = "a check between two totals"
EXAMPLE = ("--attacker", "3", "--defender", "2")


def add_arguments(parser: Parser) -> None:
    check_arguments(parser, dice_required=False)


def roll(args: Arguments, dice: DiceSource) -> RollReport:
    penalty, line = penalty_of(args), fumble_of(args)
    attacker = _side(args.attacker_dice, args.attacker, roll_stress(dice, args.attacker_dice))
    defender = _side(args.defender_dice, args.defender, roll_stress(dice, args.defender_dice))
    result = as_json(attacker, defender, penalty, args.floor, line)
    return RollReport(as_text(result), result)


def _side(kind: DiceKind, modifier: int, faces: tuple[int, ...]) -> dict[str, Any]:
    dice_total = stress_total(kind, faces)
    return {
        "dice": kind,
        "faces": list(faces),
        "dice_total": dice_total,
        "modifier": modifier,
        "total": dice_total + modifier,
    }


def as_json(
    attacker: dict[str, Any],
    defender: dict[str, Any],
    penalty: int,
    floor: int,
    line: int | None = None,
) -> dict[str, Any]:
    margin = int(attacker["total"]) - int(defender["total"])
    space = spacing(penalty, floor)
    # As the odds count it: a fumble is no meaningful attack, so it is a successful defense.
    fumbled = line is not None and fumbles(int(attacker["total"]), line)
    level = None if fumbled else defense_level(margin, space)
    return {
        "system": "fatigue",
        "attacker": attacker,
        "defender": defender,
        "margin": margin,
        "defender_wins": level is None,
        "spacing": space,
        "thresholds": list(cutoffs(space)),
        "fumble": None if line is None else {"line": line, "fumbled": fumbled},
        "tier": {
            "level": level,
            "name": "Successful defense" if level is None else DEFENSE_NAMES[level],
            "suckage_to_lift": 0 if fumbled else suckage_to_lift(margin, space),
        },
    }


def as_text(result: dict[str, Any]) -> str:
    lines = []
    for name in ("attacker", "defender"):
        side = result[name]
        faces = tuple(side["faces"])
        lines.append(
            f"{name.capitalize()}: {dice_text(side['dice'], faces)} = {side['dice_total']} "
            f"{side['modifier']:+d} = {side['total']}"
        )
    tier = result["tier"]
    cuts = "/".join(str(cut) for cut in result["thresholds"])
    fumble = result["fumble"]
    if fumble is not None:
        attacker = result["attacker"]["total"]
        lines.append(
            f"Fumble line {fumble['line']}: attacker's {attacker} "
            + ("fumbles (no meaningful attack)" if fumble["fumbled"] else "beats it")
        )
    verdict = f"margin {result['margin']:+d}: {tier['name']} (thresholds {cuts})"
    if tier["suckage_to_lift"]:
        verdict += f"; {tier['suckage_to_lift']} suckage points lift it a threshold"
    lines.append(verdict)
    return "\n".join(lines)
