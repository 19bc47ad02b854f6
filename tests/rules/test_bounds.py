"""Every input bounded where it enters (``rules.bounds``): a roll dialog refuses a modifier the
rules cannot produce, naming the field, as the CLI does (huge ones used to cost seconds of
exact odds per keystroke); a fight holds only so many combatants, and each so many conditions."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules.bounds import (
    COMBATANTS,
    CONDITIONS,
    SAVED_CONDITIONS,
    SAVED_COUNT,
    SAVED_NUMBER,
    TEXT,
    out_of_bounds,
)
from rules.commands import AddCombatant, AddCombatants, AddCondition, AddNote
from rules.conditions import Condition
from rules.dice import SeededDice
from rules.encounter import CombatantAdded, Encounter
from rules.engine import apply, decide, new_encounter
from rules.errors import Rejected
from rules.events import ConditionAdded, NoteAdded
from rules.registry import names
from tests.helpers import people


def test_a_text_longer_than_a_save_may_hold_is_refused_as_it_is_typed() -> None:
    state = new_encounter("Bounds", names()[0])
    assert decide(state, AddNote("x" * TEXT), SeededDice(1))
    with pytest.raises(Rejected, match=f"at most {TEXT:,}"):
        decide(state, AddNote("x" * (TEXT + 1)), SeededDice(1))


def test_what_no_input_could_hold_is_found_anywhere_in_a_value() -> None:
    assert out_of_bounds([NoteAdded("x" * TEXT), {"n": -SAVED_NUMBER}, 1.5, None, True]) is None
    assert "characters" in str(out_of_bounds((NoteAdded("x" * (TEXT + 1)),)))
    assert "number" in str(out_of_bounds({"n": [SAVED_NUMBER + 1]}))
    assert "number" in str(out_of_bounds(float("nan")))
    assert "characters" in str(out_of_bounds({"x" * (TEXT + 1): 0}))  # a key is text too


def test_a_list_longer_than_a_save_may_hold_is_found_anywhere_in_a_value() -> None:
    assert out_of_bounds({"dice": (1,) * SAVED_COUNT}) is None
    assert f"at most {SAVED_COUNT:,}" in str(
        out_of_bounds([NoteAdded("x"), [0] * (SAVED_COUNT + 1)])
    )


def crowd(count: int, conditions: int = 0) -> Encounter:
    """A fight of ``count`` combatants, copies of a blank one, each with ``conditions``."""
    state = people(1).state
    one = structs.replace(
        state.combatants[0], conditions=tuple(Condition(f"C{n}") for n in range(conditions))
    )
    return state.update(
        combatants=tuple(
            structs.replace(one, id=f"c{n}", name=f"Goblin {n}") for n in range(1, count + 1)
        ),
        next_number=count + 1,
    )


def test_adding_a_combatant_past_the_most_a_fight_holds_is_refused_in_one_line() -> None:
    state = crowd(COMBATANTS - 2)
    assert decide(state, AddCombatant(name="Last"), SeededDice(1))
    two = AddCombatants((AddCombatant(name="A"), AddCombatant(name="B")))
    assert decide(state, two, SeededDice(1))
    three = AddCombatants((*two.members, AddCombatant(name="C")))
    with pytest.raises(Rejected, match=f"at most {COMBATANTS:,} combatants .*3 more"):
        decide(state, three, SeededDice(1))
    with pytest.raises(Rejected, match=f"at most {COMBATANTS:,} combatants"):
        decide(crowd(COMBATANTS), AddCombatant(name="One too many"), SeededDice(1))


def test_a_condition_past_the_most_one_takes_is_refused_but_one_it_has_is_renewed() -> None:
    state = crowd(2, conditions=CONDITIONS - 1)
    assert decide(state, AddCondition("c1", "Prone"), SeededDice(1))
    full = crowd(2, conditions=CONDITIONS)
    with pytest.raises(Rejected, match=f"Goblin 1 has {CONDITIONS} conditions"):
        decide(full, AddCondition("c1", "Prone"), SeededDice(1))
    assert decide(full, AddCondition("c1", "c0"), SeededDice(1))  # its own, renewed


def test_a_log_past_what_a_save_may_hold_does_not_fold() -> None:
    """A save's log is folded as it is replayed or exported: one adding the 1,001st
    combatant, or a condition past those a save may hold, is refused, not played."""
    full = crowd(COMBATANTS)
    newcomer = structs.replace(full.combatants[0], id=f"c{COMBATANTS + 1}")
    with pytest.raises(Rejected, match=f"at most {COMBATANTS:,} combatants"):
        apply(full, CombatantAdded(newcomer))
    laden = crowd(1, conditions=SAVED_CONDITIONS)
    with pytest.raises(Rejected, match=f"{SAVED_CONDITIONS} conditions"):
        apply(laden, ConditionAdded("c1", Condition("Prone")))
    assert apply(laden, ConditionAdded("c1", Condition("C0")))  # the same name: renewed
