"""A roll dialog refuses a modifier the rules cannot produce, naming the field, as the CLI
does (``rules.bounds``): huge ones used to cost seconds of exact odds per keystroke."""

from __future__ import annotations

import pytest

from rules.bounds import SAVED_NUMBER, TEXT, out_of_bounds
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.events import NoteAdded
from rules.registry import names


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
