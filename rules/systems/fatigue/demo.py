"""The Fatigue & Thresholds demo: a bridge skirmish in round 2, pools already draining."""

from __future__ import annotations

from contextlib import suppress

from rules.commands import AddCombatant, AddNote, NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History

from .arithmetic import Cost
from .events import FatigueApply, FatigueCheck
from .sheet import FatigueSheet, parse_skills, parse_weapons

STEM = "demo-fatigue"  # its bundled save: saves/demo-fatigue.fight (make demo)
SEED = 2103


def sheet(skills: str, weapons: str, **pools: int) -> FatigueSheet:
    return FatigueSheet(skills=parse_skills(skills), weapons=parse_weapons(weapons), **pools)


def build() -> History:
    history = History(new_encounter("Ironbridge Skirmish", "fatigue"))
    dice = SeededDice(SEED)

    def run(command: object, label: str) -> None:
        history.commit(decide(history.state, command, dice), label)

    def pay() -> None:
        with suppress(Rejected):  # the defender won: nothing more to pay
            run(FatigueApply(), "apply result")

    people = [
        ("Mara", "party", sheet("Sword 4, Dodge 3", "Sword melee N3 F8 10/20/40")),
        ("Kell", "party", sheet("Pistol 3, Dodge 1", "9mm Pistol gun N2 F8 10/30/60/100")),
        ("Brute", "foes", sheet("Greatsword 3, Dodge 0", "Greatsword melee N5 F12 15/30/60")),
        ("Raider", "foes", sheet("Knife 2, Dodge 2", "Knife melee N2 F4 5/10/20", wind=20)),
    ]
    for name, side, card in people:
        run(AddCombatant(name=name, side=side, sheet=card), f"add {name}")

    def attack(
        attacker: str, defender: str, weapon: str, skill: str, *, paid: bool = True, **kw: object
    ) -> None:
        base = {
            "attacker_id": attacker,
            "defender_id": defender,
            "weapon": weapon,
            "attacker_skills": (skill,),
            "defender_skills": ("Dodge",),
        }
        run(FatigueCheck(**{**base, **kw}), f"{attacker} attacks")  # type: ignore[arg-type]  # the demo's own literal fields
        if paid:
            pay()

    attack("c1", "c4", "Sword", "Sword")
    run(NextTurn(), "next turn")
    attack("c2", "c3", "9mm Pistol", "Pistol", defender_dice="2d10")
    run(NextTurn(), "next turn")
    attack("c3", "c1", "Greatsword", "Greatsword", attacker_attitude="intense")
    run(NextTurn(), "next turn")
    attack("c4", "c2", "Knife", "Knife", defender_effort=(Cost("wind", 4), Cost("wit", 2)))
    run(NextTurn(), "next turn")
    run(AddNote("The bridge planks groan under the Brute.", None), "note")
    # Left unpaid: the demo opens on a lost defense, its suckage offer and thresholds in view.
    attack("c3", "c1", "Greatsword", "Greatsword", paid=False)
    return history
