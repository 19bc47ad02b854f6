"""The LiveHack demo: a goblin fight in round 2, with rolls in the log and conditions."""

from __future__ import annotations

from rules.commands import AddCombatant, AddCondition, AddNote, NextTurn
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History

from .system import (
    LiveHackApplyConsequence,
    LiveHackRoll,
    LiveHackSheet,
    Rating,
)

STEM = "demo-livehack"  # its bundled save: saves/demo-livehack.fight (make demo)


def build() -> History:
    history = History(new_encounter("Goblin Warren", "livehack"))
    dice = SeededDice(2026)

    def run(command: object, label: str) -> None:
        history.commit(decide(history.state, command, dice), label)

    people = [
        (
            "Orla",
            "party",
            LiveHackSheet(
                attack=6,
                reflex=4,
                fortitude=3,
                will=2,
                con=2,
                armour=2,
                skills=(Rating("Melee", 6), Rating("Spot", 3)),
                bonds=(Rating("Brak", 2),),
                items=(Rating("Axe", 1),),
            ),
        ),
        (
            "Brak",
            "party",
            LiveHackSheet(
                attack=5, reflex=2, fortitude=5, will=1, con=3, armour=3, bonds=(Rating("Orla", 1),)
            ),
        ),
        # Monster stat blocks as printed: the tracker takes the base 10 off.
        (
            "Goblin Sneak",
            "foes",
            LiveHackSheet(attack=3, reflex=13, fortitude=11, will=10, stat_block=True),
        ),
        (
            "Goblin Boss",
            "foes",
            LiveHackSheet(attack=5, reflex=12, fortitude=13, will=12, con=1, stat_block=True),
        ),
    ]
    for name, side, sheet in people:
        run(AddCombatant(name=name, side=side, sheet=sheet), f"add {name}")
    run(LiveHackRoll(attacker_id="c1", defender_id="c3"), "Orla attacks")
    run(NextTurn(), "next turn")
    run(LiveHackRoll(attacker_id="c2", defender_id="c4", defender_take="zero"), "Brak attacks")
    run(NextTurn(), "next turn")
    run(AddCondition("c3", "Prone", Duration("end-of-next-turn")), "Goblin Sneak falls")
    run(NextTurn(), "next turn")
    run(LiveHackRoll(attacker_id="c4", defender_id="c1"), "Goblin Boss attacks")
    run(NextTurn(), "next turn")
    run(AddNote("The warren's torches gutter.", None), "note")
    run(
        LiveHackRoll(
            attacker_id="c1",
            defender_id="c4",
            defense="fortitude",
            skill="Melee",
            items="Axe",
            effort=1,
        ),
        "Orla",
    )
    if history.state.last_roll is not None and history.state.last_roll.success:
        run(LiveHackApplyConsequence(), "apply")
    return history
