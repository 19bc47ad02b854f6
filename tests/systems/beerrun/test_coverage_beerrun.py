"""Beer Run mechanics the coverage table (beerrun/rulings.md, "Coverage") found with no test of
their own: *Abilities Reduced to Zero*, "If a character gains their goal, they may immediately
declare another, to keep the conflict going"."""

from rules.commands import NextTurn
from rules.systems.beerrun.events import BuildPool, GoalGained, LandDamage, RollRound, SetGoal
from rules.systems.beerrun.sheet import Goal
from rules.systems.beerrun.system import SYSTEM
from tests.systems.beerrun.brawl import ORLA, brawl, me, rolled, run


def test_a_goal_gained_may_be_followed_at_once_by_another_that_counts() -> None:
    history = brawl(("Orla", ORLA), ("Goblin", "Body: Stab d2, Health d2"))
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Disarm it")))
    run(history, BuildPool(combatant_id="c1", against="c2"))
    run(history, RollRound(), (8, 6))  # the goblin paid for nothing: d1s
    events = run(history, LandDamage(split=(("Stab", 2),)))
    assert GoalGained(combatant_id="c1", reason="Goblin's Stab is at zero", about_id="c2") in events
    # The same round, before anything else: a new goal, not yet gained.
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Drive it off")))
    goal = me(history, "c1").goal
    assert goal is not None and (goal.text, goal.gained) == ("Drive it off", False)
    assert SYSTEM.sheet_stats(me(history, "c1"))[2] == "Drive it off"
    # It is the goal of the next round's conflict, and this time it is gained.
    run(history, NextTurn())
    run(history, BuildPool(combatant_id="c1", against="c2"))
    [contest] = rolled(run(history, RollRound(), (8, 6))).contests
    assert contest.kind == "conflict" and contest.bottom_id == "c2"
    events = run(history, LandDamage(split=(("Health", 2),)))
    assert (
        GoalGained(combatant_id="c1", reason="Goblin's Health is at zero", about_id="c2") in events
    )
    goal = me(history, "c1").goal
    assert goal is not None and (goal.text, goal.gained) == ("Drive it off", True)
