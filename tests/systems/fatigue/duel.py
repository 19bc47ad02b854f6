"""Builders for Fatigue & Thresholds' rules tests: a duel, weapons, scripted checks."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.fatigue.sheet import (
    FatigueSheet,
    Skill,
    Weapon,
)
from rules.systems.fatigue.system import (
    FatigueCheck,
    FatigueChecked,
)

SWORD = Weapon(name="Sword", kind="melee", n=3, fumble=8, hits=(10, 20, 40))
PISTOL = Weapon(name="9mm Pistol", kind="gun", n=2, fumble=8, hits=(10, 30, 60, 100))


def fight(attacker: FatigueSheet | None = None, defender: FatigueSheet | None = None) -> History:
    """Ann (c1) against Bob (c2)."""
    history = History(new_encounter("Bridge", "fatigue"))
    ann = attacker or FatigueSheet(skills=(Skill("Sword", 3),), weapons=(SWORD, PISTOL))
    bob = defender or FatigueSheet(skills=(Skill("Dodge", 2),))
    for name, sheet in (("Ann", ann), ("Bob", bob)):
        run(history, AddCombatant(name=name, sheet=sheet))
    return history


def run(history: History, command: object, *faces: int) -> list[object]:
    dice = ScriptedDice(faces)
    events = decide(history.state, command, dice)
    assert dice.remaining == 0, "every scripted die is used"
    history.commit(events, type(command).__name__)
    return events


def attack(history: History, *faces: int, **kw: object) -> FatigueChecked:
    command = {
        "attacker_id": "c1",
        "defender_id": "c2",
        "weapon": "Sword",
        "attacker_skills": ("Sword",),
        "defender_skills": ("Dodge",),
    } | kw
    run(history, FatigueCheck(**command), *faces)  # type: ignore[arg-type]
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked)
    return roll


def sheet(history: History, cid: str) -> FatigueSheet:
    return history.state.combatant(cid).sheet


def three() -> History:
    """Ann (c1) against Bob (c2, Dodge 2) and Cid (c3, no skills)."""
    history = fight()
    run(history, AddCombatant(name="Cid", sheet=FatigueSheet()))
    return history
