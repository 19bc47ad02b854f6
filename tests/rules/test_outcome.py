"""The core's end of the fight: when it is over, who won, and the luck percentile."""

from __future__ import annotations

from fractions import Fraction

from rules.commands import AddCombatant, AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.odds import mid_percentile
from rules.outcome import luck_text, outcome, summary_of


def run(history: History, command: object) -> None:
    history.commit(decide(history.state, command, ScriptedDice([])), type(command).__name__)


def cellar(*people: tuple[str, str]) -> History:
    history = History(new_encounter("Cellar", "livehack"))
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


def test_a_fight_needs_two_sides_and_ends_when_one_is_left() -> None:
    history = cellar(("Orla", "party"))
    assert not outcome(history.state).over  # one side: nothing to win yet
    run(history, AddCombatant(name="Goblin", side="foes"))
    run(history, AddCombatant(name="Rat", side="foes"))
    assert outcome(history.state).standing == ("party", "foes")
    run(history, AddCondition("c2", "Dead"))
    assert not outcome(history.state).over  # the Rat still stands
    run(history, AddCondition("c3", "Dying"))
    result = outcome(history.state)
    assert (result.over, result.winner, result.headline) == (True, "party", "Fight over: party won")
    assert result.out == {"c2": "dead", "c3": "dying"}
    run(history, AddCondition("c1", "Dead"))
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
