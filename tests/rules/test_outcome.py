"""The core's end of the fight: when it is over, who won, and the luck percentile."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.commands import AddCombatant, AddCondition
from rules.dice import SeededDice
from rules.encounter import Combatant, Encounter
from rules.engine import decide, new_encounter
from rules.history import History
from rules.odds import mid_percentile
from rules.outcome import luck_text, outcome, summary_of
from rules.registry import get_system
from tests.picks import a_system

OUT = ("Gone", "Fled")


def run(history: History, command: object) -> None:
    # Seeded: a system may roll initiative as a combatant joins.
    history.commit(decide(history.state, command, SeededDice(1)), type(command).__name__)


def cellar(*people: tuple[str, str]) -> History:
    history = History(new_encounter("Cellar", a_system()))
    for name, side in people:
        run(history, AddCombatant(name=name, side=side))
    return history


def test_the_percentile_of_a_result_is_the_chance_below_and_half_the_chance_at_it() -> None:
    chances = [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]
    assert mid_percentile(chances, 0) == Fraction(1, 8)
    assert mid_percentile(chances, 1) == Fraction(1, 2)
    assert mid_percentile(chances, 2) == Fraction(7, 8)
    # Its mean under the odds is exactly a half, so 50% is par whatever the odds.
    mean = sum(p * mid_percentile(chances, i) for i, p in enumerate(chances))
    assert mean == Fraction(1, 2)
    assert mid_percentile([Fraction(1)], 0) == Fraction(1, 2)  # a sure thing: no luck at all


def test_luck_is_told_in_words_as_well() -> None:
    assert luck_text(Fraction(3, 4)) == "75% (luckier than the odds)"
    assert luck_text(Fraction(1, 2)) == "50% (about as the odds)"
    assert luck_text(Fraction(1, 5)) == "20% (unluckier than the odds)"
    assert luck_text(None) == "no odds"


def test_a_fight_needs_two_sides_and_ends_when_one_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The system says who is out (here: whoever has a condition named for why); the core
    # decides from that when the fight is over and who won.
    history = cellar(("Orla", "party"))
    system = get_system(history.state.system)

    def out_by_condition(state: Encounter, combatant: Combatant[Any]) -> str:
        return next((c.name.lower() for c in combatant.conditions if c.name in OUT), "")

    monkeypatch.setattr(type(system), "out_of_fight", staticmethod(out_by_condition))
    assert not outcome(history.state).over  # one side: nothing to win yet
    run(history, AddCombatant(name="Goblin", side="foes"))
    run(history, AddCombatant(name="Rat", side="foes"))
    assert outcome(history.state).standing == ("party", "foes")
    run(history, AddCondition("c2", "Gone"))
    assert not outcome(history.state).over  # the Rat still stands
    run(history, AddCondition("c3", "Fled"))
    result = outcome(history.state)
    assert (result.over, result.winner, result.headline) == (True, "party", "Fight over: party won")
    assert result.out == {"c2": "gone", "c3": "fled"}
    run(history, AddCondition("c1", "Gone"))
    assert outcome(history.state).headline == "Fight over: nobody standing"


def test_the_summary_of_a_fight_with_no_roll() -> None:
    history = cellar(("Orla", "party"), ("Goblin", "foes"))
    figures = summary_of(history)
    assert (figures.rolls, figures.rounds) == (0, 1)
    assert [(s.side, s.rolls, s.luck) for s in figures.luck] == [
        ("party", 0, None),
        ("foes", 0, None),
    ]
    assert figures.to_json()["over"] is False
