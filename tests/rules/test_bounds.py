"""A roll dialog refuses a modifier the rules cannot produce, naming the field, as the CLI
does (``rules.bounds``): huge ones used to cost seconds of exact odds per keystroke."""

from __future__ import annotations

import pytest

from rules.bounds import MODIFIER, SAVED_NUMBER, TEXT, out_of_bounds
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.events import NoteAdded
from rules.registry import names
from rules.systems.fatigue.forms import check_command, check_form
from rules.systems.livehack.forms import roll_command, roll_form
from tests.contract.support import demo, values_of


@pytest.mark.parametrize("key", ["attacker_extra", "defender_extra"])
def test_livehack_roll_dialog_bounds_its_extra_modifiers(key: str) -> None:
    state = demo("livehack").state
    values = values_of(roll_form(state))
    assert roll_command(state, values | {key: str(MODIFIER)})  # the edge is allowed
    with pytest.raises(Rejected, match=f"must be between {-MODIFIER} and {MODIFIER}"):
        roll_command(state, values | {key: str(MODIFIER + 1)})
    with pytest.raises(Rejected, match="must be between"):
        roll_command(state, values | {key: "9" * 5000})  # no int() of 5000 digits


@pytest.mark.parametrize("key", ["nature_total", "fumble"])
def test_fatigue_check_dialog_bounds_its_totals(key: str) -> None:
    state = demo("fatigue").state
    values = values_of(check_form(state))
    with pytest.raises(Rejected, match=f"must be between {-MODIFIER} and {MODIFIER}"):
        check_command(state, values | {key: str(-MODIFIER - 1)})


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
