"""A newcomer who rolls initiative as it joins and lands on top of round 1's order takes the
first turn only while the fight has not begun (docs/guide/playing.md, "Initiative"). Once the
first in the order has rolled on its turn, the turn stays with it: before, an Imp added with
a 21 after Orla's attack took the turn, and `n` gave Orla a second turn in round 1, her
action fresh."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant, NextTurn
from rules.dice import ScriptedDice
from rules.systems.d20.events import D20Attack
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, fight, history_of, run

IMP = AddCombatant(name="Imp", side="foes", sheet=FOE_SHEET)


def test_a_newcomer_rolling_highest_after_the_first_has_rolled_waits_for_the_next_round() -> None:
    state = fight(("Orla", "party", HERO_SHEET), ("Troll", "foes", FOE_SHEET))
    assert state.current_id == "c1"  # Orla's turn, the first in the order (5 each: a tie)
    before, _ = run(state, IMP, 19)  # nothing rolled yet: it acts first
    assert before.current_id == before.combatants[0].id == "c3"
    state, _ = run(state, D20Attack("c1", "c2"), 3)  # Orla misses: the fight has begun
    state, _ = run(state, IMP, 19)
    assert state.combatants[0].name == "Imp" and state.current_id == "c1"
    state, _ = run(state, NextTurn())
    assert (state.round, state.current_id) == (1, "c2")  # the Troll, not Orla again
    state, _ = run(state, NextTurn())
    assert (state.round, state.current_id) == (2, "c3")  # the Imp opens round 2


async def test_by_keys_an_imp_added_after_orlas_attack_does_not_take_her_turn(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Troll", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([3, 19]), history)  # Orla's miss; the Imp's 19
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"attack orla troll", "enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "Orla's attack")
        await pilot.press("colon", *"add imp", "enter")
        await until(pilot, lambda: len(app.session.state.combatants) == 3, "the Imp joins")
        assert app.session.state.current_id == "c1"
        assert "Imp acts first" not in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: app.session.state.current_id == "c2", "the Troll's turn")
        assert app.session.state.round == 1
