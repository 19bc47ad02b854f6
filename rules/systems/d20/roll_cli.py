"""``tracker roll d20 --attack 5 --ac 15 [--advantage|--disadvantage] [--damage DICE]``: one
attack, printed or as JSON, every die shown (its odds: ``odds_cli``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.cli_interface import RollReport

from . import table as dmg
from .damage_parts import parts_of
from .odds import attack_outcome
from .odds_cli import attack_arguments, checked

if TYPE_CHECKING:
    from rules.cli_interface import Arguments, Parser
    from rules.dice import DiceSource

HELP = "an attack against an Armour Class, with its damage"
EXAMPLE = ("--attack", "5", "--ac", "15", "--damage", "1d8+3 slashing")


def add_arguments(parser: Parser) -> None:
    attack_arguments(parser)


def roll(args: Arguments, dice: DiceSource) -> RollReport:
    bonus, ac, mode, crit, notation, kind = checked(args)
    faces = [dice.roll(20)] if mode == 0 else [dice.roll(20), dice.roll(20)]
    natural = max(faces) if mode > 0 else min(faces)
    total = natural + bonus
    outcome = attack_outcome(natural, total, ac, crit, False)
    data: dict[str, Any] = {
        "system": "d20",
        "faces": faces,
        "mode": {1: "advantage", -1: "disadvantage"}.get(mode, "normal"),
        "natural": natural,
        "bonus": bonus,
        "total": total,
        "ac": ac,
        "tier": outcome,
    }
    shown = " ".join(str(f) for f in faces)
    if len(faces) > 1:
        shown = f"{shown} ({data['mode']}: {natural})"
    lines = [f"d20 {shown} {bonus:+d} = {total} vs AC {ac}: {outcome}"]
    if notation and outcome != "miss":
        totals, pieces, rolled = dmg.rolled_parts(notation, kind, outcome == "critical", dice)
        amount = sum(totals)
        dice_text = "".join(text for text, _ in pieces)
        data["damage"] = {"notation": rolled, "type": kind, "total": amount}
        found = parts_of(notation, kind)
        if len(found) > 1:  # several types: each one's total, as the tracker's log keeps them
            data["damage"]["parts"] = [
                {"type": part.kind, "total": each} for part, each in zip(found, totals, strict=True)
            ]
        lines.append(f"damage {rolled}: {dice_text} = {amount} {kind}".rstrip())
    return RollReport("\n".join(lines), data)
