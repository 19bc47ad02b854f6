"""``tracker roll fatigue``: one check between two totals, printed or as JSON (its odds:
``tracker.headless.fatigue_odds``)."""

from __future__ import annotations

import argparse
import json

from rules.errors import Rejected
from rules.systems.fatigue import arithmetic as fr
from tracker.headless.fatigue_odds import check_arguments
from tracker.headless.seeds import dice_for


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    check_arguments(parser, dice_required=False)
    parser.add_argument("--seed", type=int, help="seed the dice, to reproduce a roll")
    parser.add_argument("--json", action="store_true", help="print every die as JSON")


def run_roll(args: argparse.Namespace) -> int:
    if args.fatigue_penalty < 0:
        raise Rejected("--fatigue-penalty must be 0 or more")
    seed, dice = dice_for(args.seed)
    attacker = _side(args.attacker_dice, args.attacker, fr.roll_stress(dice, args.attacker_dice))
    defender = _side(args.defender_dice, args.defender, fr.roll_stress(dice, args.defender_dice))
    result = as_json(attacker, defender, args.fatigue_penalty, args.floor, seed)
    if args.json:
        print(json.dumps(result))
    else:
        print(as_text(result))
    return 0


def _side(kind: fr.DiceKind, modifier: int, faces: tuple[int, ...]) -> dict[str, object]:
    dice_total = fr.stress_total(kind, faces)
    return {
        "dice": kind,
        "faces": list(faces),
        "dice_total": dice_total,
        "modifier": modifier,
        "total": dice_total + modifier,
    }


def as_json(
    attacker: dict[str, object], defender: dict[str, object], penalty: int, floor: int, seed: int
) -> dict[str, object]:
    margin = int(attacker["total"]) - int(defender["total"])  # type: ignore[call-overload]
    space = fr.spacing(penalty, floor)
    level = fr.defense_level(margin, space)
    return {
        "system": "fatigue",
        "seed": seed,
        "attacker": attacker,
        "defender": defender,
        "margin": margin,
        "defender_wins": level is None,
        "spacing": space,
        "thresholds": list(fr.cutoffs(space)),
        "tier": {
            "level": level,
            "name": "Successful defense" if level is None else fr.DEFENSE_NAMES[level],
            "suckage_to_lift": fr.suckage_to_lift(margin, space),
        },
    }


def as_text(result: dict[str, object]) -> str:
    lines = []
    for name in ("attacker", "defender"):
        side = result[name]
        assert isinstance(side, dict)
        faces = tuple(side["faces"])
        lines.append(
            f"{name.capitalize()}: {fr.dice_text(side['dice'], faces)} = {side['dice_total']} "
            f"{side['modifier']:+d} = {side['total']}"
        )
    tier = result["tier"]
    assert isinstance(tier, dict)
    cuts = "/".join(str(cut) for cut in result["thresholds"])  # type: ignore[attr-defined]
    verdict = f"margin {result['margin']:+d}: {tier['name']} (thresholds {cuts})"
    if tier["suckage_to_lift"]:
        verdict += f"; {tier['suckage_to_lift']} suckage points lift it a threshold"
    lines.append(verdict)
    lines.append(f"(seed {result['seed']})")
    return "\n".join(lines)
