"""A system's dice field (``rules.notation.field``): read with a refusal naming the field,
rolled with every die kept, worked out exactly, loaded without msgspec."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import msgspec
import pytest

from rules import plain_dice
from rules.dice import ScriptedDice
from rules.errors import Rejected
from rules.notation import field
from tests.hostile_text import unsafe


def test_a_field_is_read_and_worked_out_exactly() -> None:
    odds = field.read("2d6+3 [fire]", "Damage")
    assert odds.odds.mean == 10 and odds.odds.chance(6) == Fraction(2, 36)
    assert field.read("(1d8+4)*2", "Damage").notation == "(1d8+4)*2"
    assert field.read("1d20+5 >= 15", "Save", goal=True).chance == Fraction(11, 20)


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("2d6+", "Damage: '2d6+' ends too soon"),
        ("", "Damage: type some dice"),
        ("4d6k3", "Damage: 'k3' is read differently by dice bots"),
        ("1d6rr<7", "Damage: 'rr<7' rerolls every face of a d6: it would never stop"),
        ("100d6!", "Damage: too many possible totals to work out exactly"),
        ("1d20 >= 15", "Damage takes dice without a goal, not '>= 15'"),
        ("1d6\x1b[2J", "Damage: dice notation cannot hold control characters"),
    ],
)
def test_a_field_that_cannot_be_used_is_refused_naming_it(text: str, refused: str) -> None:
    with pytest.raises(Rejected) as error:
        field.read(text, "Damage")
    assert error.value.message.startswith(refused)
    assert "\n" not in error.value.message and not unsafe(error.value.message)


def test_a_field_rolled_keeps_every_die_for_the_log_and_a_replay() -> None:
    result = field.roll("4d6kh3+1d4 [cold]", "Damage", ScriptedDice([1, 6, 3, 5, 2]))
    assert result.total == 16
    assert [g.rolls for g in result.dice] == [((1,), (6,), (3,), (5,)), ((2,),)]
    event = plain_dice.recorded(result)  # the log's event, kept in the system's own
    again = msgspec.json.decode(msgspec.json.encode(event), type=plain_dice.DiceRolled)
    line = "".join(span.text for span in plain_dice.line(again))
    assert line == "🎲 4d6kh3+1d4 [cold]: (1) 6 3 5 + 2 [cold] = 16 · mean 14.74"
    with pytest.raises(Rejected, match=r"^Damage: "):
        field.roll("2d6+", "Damage", ScriptedDice([]))  # refused before any die is rolled


@pytest.mark.parametrize(
    ("text", "number"), [("3", 3), ("3d6", 3), ("d6", 1), ("0d6", 0), ("-1", -1), ("", 7)]
)
def test_a_count_of_one_die_takes_a_number_or_dice(text: str, number: int) -> None:
    assert field.count(text, "Pool", 6, default=7) == number


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("3d8", "Pool: d6 only, and '3d8' rolls d8"),
        ("3d6+1", "Pool: a number of d6, e.g. 3 or 3d6, not '3d6+1'"),
        ("4d6kh3", "Pool: a number of d6, e.g. 3 or 3d6, not '4d6kh3'"),
        ("2.5", "Pool: a number of d6, e.g. 3 or 3d6, not '2.5'"),
        ("((((", "Pool: a number of d6, e.g. 3 or 3d6, not '(((('"),
        ("12", "Pool must be between 0 and 10"),
    ],
)
def test_a_count_of_another_kind_is_refused_naming_the_field(text: str, refused: str) -> None:
    with pytest.raises(Rejected) as error:
        field.count(text, "Pool", 6, low=0, high=10)
    assert error.value.message == refused


def test_the_field_loads_without_msgspec() -> None:
    """A system's ``tracker odds`` may use its dice fields and stay fast."""
    code = (
        "import sys; from rules.notation import field; field.read('2d6+3', 'Damage'); "
        "print(sorted(m for m in sys.modules if m.startswith(('msgspec', 'dataclasses'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_pool_of_several_sizes_is_dice_added_up() -> None:
    assert field.sizes("2d10+d4", "Difficulty") == (10, 10, 4)
    assert field.sizes("d20 [boss] + 1d6", "Difficulty") == (20, 6)
    for text, told in {
        "2d10-d4": "Difficulty is dice added up, e.g. 2d10+d4, not '2d10-1d4'",
        "2d10+3": "Difficulty is dice added up, e.g. 2d10+d4, not '3'",
        "2d6!": "Difficulty is dice added up, e.g. 2d10+d4, not '2d6!'",
        "2d6+": "Difficulty: '2d6+' ends too soon",
    }.items():
        with pytest.raises(Rejected) as refused:
            field.sizes(text, "Difficulty")
        assert refused.value.message.startswith(told), text
