"""``tracker roll fatigue`` and ``tracker odds fatigue``: one check between two totals, or the
exact chance of each threshold band before it, printed or as JSON."""

from __future__ import annotations

import argparse
import json

from rules.errors import Rejected
from rules.odds.fatigue import check_odds
from rules.systems import fatigue_rules as fr
from tracker.headless.odds_output import as_json as odds_json
from tracker.headless.odds_output import as_table
from tracker.headless.seeds import dice_for

DICE_NAMES = [kind for kind, _ in fr.DICE]


def _check_arguments(parser: argparse.ArgumentParser, dice_required: bool) -> None:
    """The flags of a check, shared by ``roll`` (dice default to 1d20) and ``odds``."""
    dice: dict[str, object] = (
        {"required": True, "metavar": "D"} if dice_required else {"default": "1d20"}
    )
    parser.add_argument("--attacker-dice", choices=DICE_NAMES, **dice)  # type: ignore[arg-type]
    parser.add_argument(
        "--attacker",
        type=int,
        required=True,
        metavar="MOD",
        help="skills minus fatigue and attitude, added to the dice",
    )
    parser.add_argument("--defender-dice", choices=DICE_NAMES, **dice)  # type: ignore[arg-type]
    parser.add_argument("--defender", type=int, required=True, metavar="MOD")
    parser.add_argument(
        "--fatigue-penalty",
        type=int,
        default=0,
        metavar="P",
        help="the defender's relevant fatigue penalty: thresholds 10 - P apart",
    )
    parser.add_argument(
        "--floor",
        type=int,
        default=fr.FLOOR,
        choices=[1, 2, 3],
        metavar="T",
        help="the closest the thresholds get (3; 2 or 1 for negative pools)",
    )


def add_roll_arguments(parser: argparse.ArgumentParser) -> None:
    _check_arguments(parser, dice_required=False)
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


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    _check_arguments(parser, dice_required=True)
    parser.add_argument(
        "--fumble",
        type=int,
        metavar="N",
        help="the attacker's fumble line (threshold + fumble penalty): a total at or under it "
        "fumbles and counts as a defense",
    )
    parser.add_argument("--json", action="store_true", help="print the odds as JSON")


def run_odds(args: argparse.Namespace) -> int:
    if args.fatigue_penalty < 0:
        raise Rejected("--fatigue-penalty must be 0 or more")
    odds = check_odds(
        args.attacker_dice,
        args.attacker,
        args.defender_dice,
        args.defender,
        args.fatigue_penalty,
        args.floor,
        args.fumble,
    )
    print(json.dumps(odds_json(odds)) if args.json else as_table(odds))
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
