"""Plain dice: notation read and bounded, every die rolled and kept, exact odds."""

from __future__ import annotations

import re
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import plain_dice
from rules.dice import ScriptedDice, SeededDice
from rules.errors import Rejected
from rules.plain_dice import MAX_EXPLOSIONS, parse


def total(notation: str, *faces: int) -> int:
    return plain_dice.roll(parse(notation), ScriptedDice(faces)).total


def test_notation_read_in_full() -> None:
    assert parse("2d6+3").notation == "2d6+3"
    assert parse(" D20 - d4 + 2 ").notation == "1d20-1d4+2"
    assert parse("4d6kh3 >= 12").notation == "4d6kh3 >= 12"
    assert parse("2d20kl").notation == "2d20kl1"  # keep one when no count is given
    assert parse("3d6!≥14").at_least == 14
    assert parse("-1d4+5").terms[0].sign == -1
    assert parse("4d6kh4").notation == "4d6"  # keeping every die keeps nothing out


def test_rolls_keep_and_explode() -> None:
    assert total("2d6+3", 4, 2) == 9
    assert total("1d20-1d4+2", 15, 3) == 14
    assert total("4d6kh3", 1, 6, 3, 5) == 14  # the 1 is dropped
    assert total("2d20kl1", 17, 4) == 4
    assert total("3d6!", 6, 6, 2, 3, 1) == 18  # the first die: 6+6+2
    rolled = plain_dice.roll(parse("4d6kh3"), ScriptedDice([3, 5, 3, 3]))
    # Between equal dice the first rolled is kept.
    assert rolled.groups[0].kept == (True, True, True, False)


def test_an_explosion_stops_at_its_bound() -> None:
    faces = [6] * (MAX_EXPLOSIONS + 1)
    rolled = plain_dice.roll(parse("1d6!"), ScriptedDice(faces))
    assert rolled.groups[0].chains == (tuple(faces),)
    assert rolled.total == 6 * (MAX_EXPLOSIONS + 1)


@pytest.mark.parametrize(
    ("notation", "message"),
    [
        ("", "type some dice"),
        ("2d6+", "cannot read dice at 'the end'"),
        ("2d6 3", "join terms with + or -"),
        ("fireball", "cannot read dice at 'fireball'"),
        ("5+3", "has no dice in it"),
        ("0d6", "roll 1 to 100 dice, not 0"),
        ("101d6", "roll 1 to 100 dice, not 101"),
        ("60d6+60d6", "at most 100 dice at once, not 120"),
        ("2d1", "a die has 2 to 1,000 sides, not 1"),
        ("1d1001", "not 1,001"),
        ("2d6kh3", "keep 1 to 2 of the 2 dice, not 3"),
        ("2d6 >= many", "after >= comes a whole number"),
        ("1d6+5000", "a number must be between 0 and 1,000"),
        ("2d6" + "+1" * 60, "at most 100 characters"),
        ("100d6!", "too many possible totals to work out exactly"),
        ("100d20kh3", "too many possible totals"),
    ],
)
def test_bad_or_oversized_notation_is_one_line(notation: str, message: str) -> None:
    with pytest.raises(Rejected, match=re.escape(message)) as refused:
        parse(notation)
    assert "\n" not in refused.value.message


def test_exact_odds_agree_with_icepool() -> None:
    cases = {
        "2d6+3": icepool.d6 + icepool.d6 + 3,
        "4d6kh3": icepool.d6.pool(4).highest(3).sum(),
        "2d20kl1": icepool.d20.pool(2).lowest(1).sum(),
        "3d6!": 3 @ icepool.d6.explode(depth=MAX_EXPLOSIONS),
        "1d8-1d4": icepool.d8 - icepool.d4,
        "3d4!kh2": icepool.d4.explode(depth=MAX_EXPLOSIONS).pool(3).highest(2).sum(),
    }
    for notation, expected in cases.items():
        odds = plain_dice.distribution(parse(notation))
        for outcome, quantity in expected.items():
            assert odds.chance(outcome) == Fraction(quantity, expected.denominator()), notation
        assert odds.mean == Fraction(expected.mean()), notation


def test_the_chance_of_reaching_a_number() -> None:
    odds = plain_dice.distribution(parse("2d6"))
    assert odds.at_least(12) == Fraction(1, 36)
    assert odds.at_least(7) == Fraction(21, 36)
    assert odds.at_least(2) == 1 and odds.at_least(13) == 0
    event = plain_dice.rolled("2d6+3 >= 10", ScriptedDice([4, 2]))
    assert (event.total, event.mean, event.chance) == (9, "10", "7/12")
    line = "".join(span.text for span in plain_dice.line(event))
    assert line == "🎲 2d6+3 >= 10: 4 2 + 3 = 9 · mean 10 · 10+: 7/12 (58.3%)"


def test_the_log_line_shows_every_die() -> None:
    event = plain_dice.rolled("4d6kh3-1d6!", ScriptedDice([1, 6, 3, 5, 6, 2]))
    line = "".join(span.text for span in plain_dice.line(event))
    assert line.startswith("🎲 4d6kh3-1d6!: (1) 6 3 5 - 6+2 = 6 · mean ")


TERM = st.tuples(
    st.integers(1, 4),  # count
    st.sampled_from([2, 3, 4, 6, 8, 10, 12, 20]),
    st.booleans(),  # explode
    st.sampled_from(["", "kh", "kl"]),
    st.integers(1, 4),  # keep
    st.sampled_from(["+", "-"]),
)


def notation_of(terms: list[tuple[int, int, bool, str, int, str]], constant: int) -> str:
    text = ""
    for count, sides, explode, keep, kept, sign in terms:
        keep_text = f"{keep}{min(kept, count)}" if keep else ""
        text += f"{sign}{count}d{sides}{'!' if explode and sides <= 6 else ''}{keep_text}"
    return f"{text}{constant:+d}"


@settings(max_examples=60, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=3), st.integers(-20, 20), st.integers(0, 2**32))
def test_the_total_is_the_kept_dice_and_the_constants(
    terms: list[tuple[int, int, bool, str, int, str]], constant: int, seed: int
) -> None:
    expression = parse(notation_of(terms, constant))
    rolled = plain_dice.roll(expression, SeededDice(seed))
    kept = sum(
        group.sign * sum(chain)
        for group in rolled.groups
        for chain, keep in zip(group.chains, group.kept, strict=True)
        if keep
    )
    assert rolled.total == kept + constant
    for term, group in zip(expression.terms, rolled.groups, strict=True):
        assert len(group.chains) == term.count
        assert sum(group.kept) == (term.keep_count if term.keep else term.count)
        for chain in group.chains:
            assert all(1 <= face <= term.sides for face in chain)
            assert all(face == term.sides for face in chain[:-1])  # only a top face explodes
    odds = plain_dice.distribution(expression)
    assert sum(odds.weights.values()) == odds.denominator  # the chances sum to 1
    assert odds.chance(rolled.total) > 0  # what was rolled could be
    low, high = min(odds.weights), max(odds.weights)
    assert odds.at_least(low) == 1 and odds.at_least(high + 1) == 0
