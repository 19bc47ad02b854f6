"""Fatigue & Thresholds: what waits is the consequence d pays, by whoever owes it."""

from __future__ import annotations

from rules.commands import AddCombatant, DiscardConsequence
from rules.dice import ScriptedDice
from rules.engine import decide, describe, new_encounter
from rules.history import History
from rules.systems.fatigue.events import FatigueApply, FatigueCheck
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.fatigue.system import SYSTEM

SWORD = Weapon(name="Sword", kind="melee", n=3, fumble=8, hits=(10, 20, 40))


def run(history: History, command: object, *faces: int) -> list[object]:
    events = decide(history.state, command, ScriptedDice(faces))
    history.commit(events, type(command).__name__)
    return events


def fight() -> History:
    """Ann (c1), with a sword, against Bob (c2)."""
    history = History(new_encounter("Bridge", "fatigue"))
    ann = FatigueSheet(skills=(Skill("Sword", 3),), weapons=(SWORD,))
    bob = FatigueSheet(skills=(Skill("Dodge", 2),))
    for name, sheet in (("Ann", ann), ("Bob", bob)):
        run(history, AddCombatant(name=name, sheet=sheet))
    return history


def attack(history: History, *faces: int) -> None:
    """Ann's sword against Bob's dodge, the dice scripted: Ann's, then Bob's."""
    command = FatigueCheck(
        attacker_id="c1",
        defender_id="c2",
        weapon="Sword",
        attacker_skills=("Sword",),
        defender_skills=("Dodge",),
    )
    run(history, command, *faces)


def test_an_unpaid_consequence_waits_until_it_is_paid():
    history = fight()
    assert SYSTEM.pending(history.state) == ""
    attack(history, 20, 2)
    assert SYSTEM.pending(history.state) == "Bob pays for Flailing defense"
    run(history, FatigueApply())
    assert SYSTEM.pending(history.state) == ""


def test_a_won_defense_leaves_nothing_waiting_and_a_fumble_is_the_attacker_s_to_pay():
    history = fight()
    attack(history, 12, 20)
    assert SYSTEM.pending(history.state) == ""
    attack(history, 2, 20)
    assert SYSTEM.pending(history.state) == "Ann pays for Flailing fumble"


def test_a_discarded_consequence_is_logged_and_never_paid():
    history = fight()
    attack(history, 20, 2)
    before = history.state
    [event] = run(history, DiscardConsequence())
    assert describe(before, event).plain.endswith("Bob pays for Flailing defense")
    assert history.state.combatant("c2").sheet == before.combatant("c2").sheet
    assert history.state.last_roll_applied and history.state.last_roll_discarded
    assert SYSTEM.pending(history.state) == ""
    attack(history, 20, 2)  # a new roll: none of it discarded
    assert not history.state.last_roll_discarded
