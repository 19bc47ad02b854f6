"""LiveHack's end of a fight: its Dead and Dying conditions put a combatant out of it, and the
core's outcome reads that (moved from tests/rules/test_outcome.py)."""

from __future__ import annotations

from rules.commands import AddCombatant, AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.outcome import outcome


def run(history: History, command: object) -> None:
    history.commit(decide(history.state, command, ScriptedDice([])), type(command).__name__)


def cellar(*people: tuple[str, str]) -> History:
    history = History(new_encounter("Cellar", "livehack"))
    for name, side in people:
        run(history, AddCombatant(name=name, side=side))
    return history


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
