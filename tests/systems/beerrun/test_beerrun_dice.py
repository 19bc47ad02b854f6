"""Beer Run dice: notation, Intensity costs, target-die difficulties and comparing pools."""

import pytest

from rules.errors import Rejected
from rules.systems.beerrun.dice import (
    NO_DIE,
    Die,
    compare,
    extra_cost,
    parse_die,
    parse_pool,
    pool_cost,
    with_target_die,
)


def dice(*faces: int, size: int = 12) -> tuple[Die, ...]:
    return tuple(Die(size, face) for face in faces)


def test_dice_of_any_size_from_d1_up():
    assert parse_die("d8") == 8
    assert parse_die(" D1 ") == 1
    assert parse_die("d5") == 5
    for bad in ("d0", "8", "2d6", "dx", ""):
        with pytest.raises(Rejected):
            parse_die(bad)


def test_a_pool_is_a_list_of_dice():
    assert parse_pool("d12,d8,d6") == (12, 8, 6)
    assert parse_pool("2d10 d4") == (10, 10, 4)
    assert parse_pool("") == ()
    with pytest.raises(Rejected, match="not a die"):
        parse_pool("d12,sword")


def test_a_pool_is_also_dice_added_up_as_dice_bots_write_it():
    """The notation of :roll: each die of ``2d10+d4`` is the pool's own, compared as the
    list's are (nothing is added up)."""
    assert parse_pool("2d10+d4") == parse_pool("d10,d10,d4") == (10, 10, 4)
    assert parse_pool("d12 + 2d6", "--pool") == (12, 6, 6)
    refusals = {
        "2d10-d4": "is a list of dice like d12,d8,2d6",
        "4d6kh3+d4": "The pool is dice added up, e.g. 2d10+d4, not '4d6kh3'",
        "20d6+20d6": "The pool can have at most 30 dice",
        "2d6+": "The pool: '2d6+' ends too soon",
        "2d6+d0": "The pool: d0: a die has 1 to 1,000 sides",
    }
    for text, told in refusals.items():
        with pytest.raises(Rejected) as refused:
            parse_pool(text, "The pool")
        assert told in refused.value.message, text


def test_extra_dice_cost_one_more_each_as_in_the_table():
    # Extra Dice: "1 1 / 2 3 / 3 6 / 4 10 / 5 15"
    assert [extra_cost(n) for n in range(6)] == [0, 1, 3, 6, 10, 15]
    assert [pool_cost(n) for n in range(4)] == [1, 2, 4, 7]


def test_a_helping_difficulty_defaults_to_three_target_dice():
    assert with_target_die((), 8) == (8, 8, 8)


def test_up_to_three_small_dice_become_the_target_die():
    # "This includes replacing default d2s."
    assert with_target_die((10, 2, 2, 2, 2), 8) == (10, 8, 8, 8, 2)
    assert with_target_die((10, 2), 8, replace=1) == (10, 8)
    assert with_target_die((10, 12), 8) == (10, 12)  # nothing smaller to replace


def test_pools_are_sorted_high_to_low_and_compared_pair_by_pair():
    outcome = compare(dice(3, 9, 5), dice(4, 8, 6))
    assert [(p.top.face, p.bottom.face) for p in outcome.pairs] == [(9, 8), (5, 6), (3, 4)]
    assert [p.winner for p in outcome.pairs] == ["top", "bottom", "bottom"]
    assert outcome.upper == "top"


def test_ties_are_discarded_and_the_first_decisive_pair_gives_the_upper_hand():
    outcome = compare(dice(7, 5, 2), dice(7, 6, 1))
    assert [p.winner for p in outcome.pairs] == ["tie", "bottom", "top"]
    assert outcome.upper == "bottom"
    assert (outcome.top_successes, outcome.bottom_successes) == (1, 1)


def test_the_upper_hand_keeps_every_success_the_other_keeps_1st_3rd_5th():
    # Top wins pair 1 (upper hand), bottom wins pairs 2-6: it keeps its 1st, 3rd and 5th.
    outcome = compare(dice(12, 1, 1, 1, 1, 1), dice(11, 9, 8, 7, 6, 5))
    assert outcome.upper == "top"
    assert (outcome.top_kept, outcome.bottom_successes, outcome.bottom_kept) == (1, 5, 3)
    assert outcome.kept_pairs == {0, 1, 3, 5}
    lead = compare(dice(9, 8, 7, 6), dice(1, 1, 1, 1))
    assert lead.top_kept == 4


def test_a_shorter_pool_counts_its_missing_dice_as_a_d1_showing_1():
    outcome = compare(dice(6, 2, 1), dice(5))
    assert [p.bottom for p in outcome.pairs[1:]] == [NO_DIE, NO_DIE]
    assert [p.winner for p in outcome.pairs] == ["top", "top", "tie"]
    assert outcome.top_kept == 2


def test_all_ties_give_nobody_the_upper_hand():
    outcome = compare(dice(4, 4), dice(4, 4))
    assert outcome.upper == "tie" and outcome.kept("top") == outcome.kept("bottom") == 0
