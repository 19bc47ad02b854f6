"""Beer Run, read a third time (issue 30): readings a player would dispute."""

from __future__ import annotations

from rules.systems.beerrun.events import BuildPool, DiceGained, RollRound, SetGoal
from rules.systems.beerrun.sheet import Goal
from rules.systems.beerrun.system import SYSTEM
from tests.systems.beerrun.brawl import brawl, me, rolled, run

# --- R3-11: a failed help's penalty die: the helper's, or by the GM's choice the helped one's --


def test_the_gm_may_give_a_failed_helps_penalty_die_to_the_one_helped() -> None:
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    form = {f.key: f for f in SYSTEM.action_form(history.state, "pool", "c2")}
    assert form["penalty_to"].default == "helper"
    values = {"who": "c2", "against": "difficulty", "penalty_to": "helped"}
    command = SYSTEM.action_command(history.state, "pool", values)
    assert command.penalty_to_ally
    run(history, command)
    run(history, BuildPool(combatant_id="c3", against="c1"))
    # Helping first: Ann 6, 8 vs three d8s 7, 2, 5: 2 kept, 1 failure kept: Orla's penalty.
    # Then Orla 4, 3 and the help die 8, her penalty d8 (1) against her; Goblin 5.
    events = run(history, RollRound(), (6, 8, 7, 2, 5, 4, 3, 8, 1, 5))
    assert DiceGained(combatant_id="c1", kind="penalty", size=8, uses=1, source_id="c2") in events
    assert me(history, "c2").penalty == ()
    main = rolled(events).contests[0]
    assert ("penalty", 1) in [(d.label, d.face) for d in (*main.top, *main.bottom)]
