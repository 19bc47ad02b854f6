"""The Beer Run demo: a tavern brawl in round 2, damage still to land, with a helping goal."""

from __future__ import annotations

from rules.commands import AddCombatant, NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History

from .decide import pending_now
from .events import BuildPool, LandDamage, RollRound, SetCategories, SetGoal
from .sheet import BeerRunSheet, Goal, parse_abilities

STEM = "demo-beer-run"  # its bundled save: saves/demo-beer-run.fight (make demo)


def build() -> History:
    history = History(new_encounter("Tavern Brawl", "beerrun"))
    dice = SeededDice(2026)

    def run(command: object, label: str) -> None:
        history.commit(decide(history.state, command, dice), label)

    run(SetCategories(("Body", "Mind", "Social")), "categories")
    people = [
        ("Mags", "party", "Body: Brawling d8, Health d6; Mind: Wits d6; Social: Charm d8", 8),
        ("Tib", "party", "Body: Health d6; Mind: Lore d8; Social: Fast Talk d10", 6),
        ("Bouncer", "foes", "Body: Fists d10, Health d8; Social: Menace d6", 8),
    ]
    for name, side, abilities, intensity in people:
        sheet = BeerRunSheet(abilities=parse_abilities(abilities), intensity=intensity)
        run(AddCombatant(name=name, side=side, sheet=sheet), f"add {name}")
    run(SetGoal(combatant_id="c1", goal=Goal(text="Get the beer out")), "goal")
    run(SetGoal(combatant_id="c3", goal=Goal(text="Throw them out")), "goal")
    distract = Goal(kind="helping", text="Distract the bouncer", ally_id="c1", die=8)
    run(SetGoal(combatant_id="c2", goal=distract), "goal")
    # Round 1: Tib helps, Mags and the Bouncer slug it out.
    run(BuildPool(combatant_id="c2"), "Tib's pool")
    run(BuildPool(combatant_id="c1", extra=("Health",), against="c3"), "Mags's pool")
    run(BuildPool(combatant_id="c3", against="c1"), "Bouncer's pool")
    run(RollRound(), "roll the round")
    while pending_now(history.state):
        run(LandDamage(), "land damage")
    run(NextTurn(), "end the round")
    # Round 2: rolled, with damage still to land.
    run(SetGoal(combatant_id="c2", goal=Goal(text="Grab the keg")), "goal")
    run(BuildPool(combatant_id="c1", against="c3"), "Mags's pool")
    run(BuildPool(combatant_id="c3", against="c1"), "Bouncer's pool")
    run(RollRound(), "roll the round")
    return history
