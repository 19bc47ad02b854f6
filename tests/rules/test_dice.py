"""Dice sources: scripted faces for tests, seeded dice for play, exploding chains."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import ScriptedDice, ScriptExhausted, SeededDice, roll_exploding


def test_scripted_dice_hand_out_faces_in_order():
    dice = ScriptedDice([3, 1, 6])
    assert [dice.roll(6), dice.roll(6), dice.roll(6)] == [3, 1, 6]


def test_scripted_dice_count_what_is_left():
    dice = ScriptedDice([4, 5, 6])
    assert dice.remaining == 3
    dice.roll(6)
    assert dice.remaining == 2


def test_scripted_dice_accept_an_iterator():
    dice = ScriptedDice(iter([2, 7]))
    assert (dice.roll(8), dice.roll(8)) == (2, 7)


@pytest.mark.parametrize("face", [0, -1, 7, 12])
def test_scripted_dice_reject_a_face_the_die_cannot_show(face):
    dice = ScriptedDice([face])
    with pytest.raises(ValueError, match=rf"{face}.*d6"):
        dice.roll(6)
    assert dice.remaining == 1  # the bad face is not consumed


def test_scripted_dice_allow_the_highest_and_lowest_faces():
    dice = ScriptedDice([1, 12])
    assert (dice.roll(12), dice.roll(12)) == (1, 12)


def test_scripted_dice_run_out():
    dice = ScriptedDice([5])
    dice.roll(12)
    with pytest.raises(ScriptExhausted, match="d12"):
        dice.roll(12)


def test_empty_script_is_exhausted_at_once():
    with pytest.raises(ScriptExhausted):
        ScriptedDice([]).roll(20)


def rolls(dice, count=50, sides=12):
    return [dice.roll(sides) for _ in range(count)]


def test_seeded_dice_are_reproducible_per_seed():
    assert rolls(SeededDice(1234)) == rolls(SeededDice(1234))


def test_different_seeds_give_different_rolls():
    assert rolls(SeededDice(1)) != rolls(SeededDice(2))


def test_seeded_dice_keep_their_seed():
    assert SeededDice(77).seed == 77


def test_seeded_dice_ignore_the_global_random_state():
    random.seed(0)
    first = rolls(SeededDice(9))
    random.seed(1)
    dice = SeededDice(9)
    second = []
    for _ in range(50):
        random.random()  # global draws between rolls must not shift the sequence
        second.append(dice.roll(12))
    assert first == second


def test_seeded_dice_eventually_show_every_face():
    assert set(rolls(SeededDice(5), count=500, sides=6)) == {1, 2, 3, 4, 5, 6}


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64), sides=st.integers(1, 100))
def test_every_seeded_face_is_on_the_die(seed, sides):
    dice = SeededDice(seed)
    assert all(1 <= face <= sides for face in rolls(dice, count=20, sides=sides))


def test_roll_exploding_stops_below_the_highest_face():
    dice = ScriptedDice([5, 9])
    assert roll_exploding(dice, 12) == (5,)
    assert dice.remaining == 1


def test_roll_exploding_chains_while_the_highest_face_shows():
    dice = ScriptedDice([12, 12, 3])
    assert roll_exploding(dice, 12) == (12, 12, 3)
    assert dice.remaining == 0


def test_roll_exploding_uses_the_size_of_the_die():
    dice = ScriptedDice([6, 6, 2, 12])
    assert roll_exploding(dice, 6) == (6, 6, 2)
    assert roll_exploding(ScriptedDice([12, 1]), 20) == (12,)


def test_roll_exploding_checks_every_die_of_the_chain():
    with pytest.raises(ValueError):
        roll_exploding(ScriptedDice([6, 7]), 6)
