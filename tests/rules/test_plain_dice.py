"""Plain dice: notation read and bounded, every die rolled and shown, the log's event."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import msgspec
import pytest

from rules import plain_dice
from rules.dice import ScriptedDice, SeededDice
from rules.errors import Rejected
from rules.notation.answer import answer, work_out
from rules.notation.parse import parse
from rules.notation.tree import MAX_EXPLOSIONS, notation
from tests.hostile_text import CONTROLS, SEQUENCES, SPOOFING, unsafe


def shown(text: str, *faces: int) -> str:
    """The log line of a roll of ``text`` with these faces, as plain text."""
    event = plain_dice.rolled(text, ScriptedDice(faces))
    return "".join(span.text for span in plain_dice.line(event))


def test_notation_written_back_in_full() -> None:
    assert notation(parse("2d6+3")) == "2d6+3"
    assert notation(parse(" D20 - d4 + 2 ")) == "1d20-1d4+2"
    assert notation(parse("4d6kh3 >= 12")) == "4d6kh3 >= 12"
    assert notation(parse("3d6!≥14")) == "3d6! >= 14"
    assert notation(parse("2d6 [Fire] + 1d4 [cold]")) == "2d6 [Fire] + 1d4 [cold]"
    assert notation(parse("((10d6kh5)kl2)kh1")) == "((10d6kh5)kl2)kh1"
    assert notation(parse("10d6kh1kl1")) == "10d6kh1kl1"  # one keep of both, as d20


def test_every_die_is_shown_with_what_happened_to_it() -> None:
    assert shown("2d6+3", 4, 2) == "🎲 2d6+3: 4 2 + 3 = 9 · mean 10"
    assert shown("4d6kh3", 1, 6, 3, 5).startswith("🎲 4d6kh3: (1) 6 3 5 = 14 · ")
    assert shown("3d6!", 6, 6, 2, 3, 1).startswith("🎲 3d6!: 6+6+2 3 1 = 18 · ")
    assert shown("1d20ro1+5", 1, 14).startswith("🎲 1d20ro1+5: 1→14 + 5 = 19 · ")
    assert shown("2d6rr<3", 1, 5, 2, 6).startswith("🎲 2d6rr<3: 1→2→6 5 = 11 · ")
    assert shown("2d6e6", 6, 2, 3).startswith("🎲 2d6e6: 6! 2 3 = 11 · ")
    assert shown("2d6mi3", 1, 5).startswith("🎲 2d6mi3: 1→3 5 = 8 · ")
    assert shown("4d10c>=8", 9, 2, 8, 1).startswith("🎲 4d10c>=8: 9✓ 2 8✓ 1 = 2 · ")
    labelled = shown("2d6 [fire] + 1d4 [cold]", 3, 4, 2)
    assert labelled.startswith("🎲 2d6 [fire] + 1d4 [cold]: 3 4 [fire] + 2 [cold] = 9 · ")
    assert shown("(1d8+4)*2", 5).startswith("🎲 (1d8+4)*2: (5 + 4) * 2 = 18 · mean 17")
    assert shown("2d6*2", 3, 4).startswith("🎲 2d6*2: (3 4) * 2 = 14 · ")


def test_a_goal_says_whether_this_roll_made_it() -> None:
    assert shown("2d6+3 >= 10", 4, 2) == (
        "🎲 2d6+3 >= 10: 4 2 + 3 = 9 · missed · mean 10 · 10+: 7/12 (58.3%)"
    )
    assert "= 10 · made it · " in shown("2d6+3 >= 10", 4, 3)
    below = shown("1d20 < 5", 3)
    assert below == "🎲 1d20 < 5: 3 = 3 · made it · mean 21/2 · < 5: 1/5 (20.0%)".replace(
        "21/2", "10.50"
    )
    against = shown("1d20+2 > 1d20", 10, 15)
    assert against.startswith("🎲 1d20+2 > 1d20: 10 + 2 = 12 vs 15 · missed · ")


def test_the_event_keeps_every_die_and_an_older_event_still_reads() -> None:
    event = plain_dice.rolled("4d6kh3-1d6!", ScriptedDice([1, 6, 3, 5, 6, 2]))
    assert [g.chains for g in event.groups] == [((1,), (6,), (3,), (5,)), ((6, 2),)]
    assert event.groups[0].kept == (False, True, True, True) and event.groups[1].sign == -1
    again = msgspec.json.decode(msgspec.json.encode(event), type=plain_dice.DiceRolled)
    assert again == event
    older = msgspec.json.decode(
        json.dumps(
            {
                "type": "dice-rolled",
                "notation": "2d6+3 >= 10",
                "groups": [{"notation": "2d6", "sign": 1, "chains": [[4], [2]], "kept": [1, 1]}],
                "constant": 3,
                "total": 9,
                "mean": "10",
                "at_least": 10,
                "chance": "7/12",
            }
        ).replace("[1, 1]", "[true, true]"),
        type=plain_dice.DiceRolled,
    )
    line = "".join(span.text for span in plain_dice.line(older))
    assert line == "🎲 2d6+3 >= 10: 4 2 + 3 = 9 · missed · mean 10 · 10+: 7/12 (58.3%)"


def test_an_explosion_stops_at_its_bound() -> None:
    faces = [6] * (MAX_EXPLOSIONS + 1)
    event = plain_dice.rolled("1d6!", ScriptedDice(faces))
    assert event.groups[0].chains == (tuple(faces),)
    assert event.total == 6 * (MAX_EXPLOSIONS + 1)
    exploding = answer("1d6e6", ScriptedDice([6] * (MAX_EXPLOSIONS + 1)))
    assert exploding.total == 6 * (MAX_EXPLOSIONS + 1)  # the last die brings no other


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type some dice"),
        ("2d6+", "'2d6+' ends too soon: expected a number, dice like 2d6, or '('"),
        ("2d6 3", "join terms with + - * / // % or a comparison"),
        ("fireball", "cannot read dice at 'fireball'"),
        ("2d6 fire", "a label goes in brackets, e.g. 2d6 [fire]"),
        ("4d6 kh3", "an operation goes right after its dice, with no space (4d6kh3)"),
        ("1d20rr", "'rr' needs a selector, e.g. rr<3"),
        ("8d6mi", "'mi' needs a number, e.g. mi2"),
        ("4dF", "4dF: Fudge dice are not in this notation: each is -1, 0 or +1, so 4dF is 4d3-8"),
        ("3d6!!", "'!!' (Roll20's compounding) is not in this notation"),
        ("2d20adv", "advantage is written 2d20kh1"),
        ("1d20 dis", "disadvantage is written 2d20kl1"),
        ("1d20cs>19", "'cs' and 'cf' (Roll20's critical range) are not in this notation"),
        ("4d6r1", "'r' is Roll20's reroll: write rr1 to reroll until it is not 1, or ro1"),
        ("2d6 disarm", "a label goes in brackets, e.g. 2d6 [disarm]"),
        ("1d100 % 0", "nothing divides by 0: 1d100%0 has no answer"),
        ("8d6e", "'e' needs a selector, e.g. e6"),
        ("1d20rrh1", "'rrh1' would never stop"),
        ("4d6k3", "'k3' is read differently by dice bots"),
        ("4d6k3", "write kh3 for the 3 highest, or k=3 for the dice showing 3"),
        ("4d6p1", "write pl1 or ph1 for the 1 lowest or highest, or p=1 for the dice showing 1"),
        ("6d10c8", "write c>=8 for 8 or more, or c=8 for the dice showing 8"),
        ("2d6mih1", "'mi' takes a plain number, e.g. mi2"),
        ("(1d6)rr1", "'rr' works on dice, not on a set"),
        ("2d6x", "after 2d6 comes an operation"),
        ("2d6c>4kh1", "'c' counts the dice, so it comes last"),
        ("(1, 2", "expected ',' or ')'"),
        ("1)", "this ')' closes no '('"),
        ("2d6 [fire", "a label ends with ']'"),
        ("101d6", "101d6: roll 0 to 100 dice, not 101"),
        ("60d6+60d6", "at most 100 dice at once, not 120"),
        ("2d0", "a die has 1 to 1,000 sides, not 0"),
        ("1d1001", "not 1001"),
        ("1d6+5000000", "a number is at most 1,000,000"),
        ("2d6" + "+1" * 80, "at most 150 characters"),
        ("1" + "+1" * 70, "at most 60 numbers, dice and operators"),
        ("(" * 25 + "1" + ")" * 25, "at most 20 signs and parentheses inside each other"),
        ("-" * 30 + "1", "at most 20 signs and parentheses"),
        ("1d6rr<7", "'rr<7' rerolls every face of a d6: it would never stop"),
        ("1d20e>0", "'e>0' explodes every face of a d20"),
        ("10/(1d6-1)", "(1d6-1) can come to 0, and nothing divides by 0"),
        ("1d6\x1b[31m", "cannot hold control characters"),
        ("1000001.5", "a number is at most 1,000,000, not 1000001.5"),
        ("1d6\u202e", "cannot hold control characters"),
        ("100d6!", "too many possible totals to work out exactly"),
        ("100d20kh97", "too many possible totals to work out exactly in 100d20kh97"),
        ("1d1000*1d1000*1d1000", "too many possible totals"),
    ],
)
def test_bad_or_oversized_notation_is_one_line(text: str, message: str) -> None:
    with pytest.raises(Rejected, match=re.escape(message)) as refused:
        work_out(text)
    assert "\n" not in refused.value.message
    assert all(c.isprintable() for c in refused.value.message)


@pytest.mark.parametrize(
    "text",
    [*SEQUENCES, *(f"1d6 [a{c}b]" for c in CONTROLS + SPOOFING), *(f"2d{c}6" for c in CONTROLS)],
)
def test_hostile_text_gets_one_inert_line(text: str) -> None:
    with pytest.raises(Rejected) as refused:
        answer(text, SeededDice(1))
    assert "\n" not in refused.value.message
    assert unsafe(refused.value.message) == []


def test_the_chance_of_each_goal() -> None:
    assert work_out("2d6 >= 12").chance == Fraction(1, 36)
    assert work_out("2d6 > 7").chance == Fraction(15, 36)
    assert work_out("2d6 == 7").chance == Fraction(1, 6)
    assert work_out("2d6 != 7").chance == Fraction(5, 6)
    assert work_out("2d6 <= 3").chance == Fraction(1, 12)
    assert work_out("1d6 >= 1d6").chance == Fraction(21, 36)
    assert work_out("2d6+3 >= 10").at_least == 10
    assert work_out("2d6 > 7").at_least is None


def test_a_total_with_a_fraction_is_cut_toward_zero_at_the_end() -> None:
    assert set(work_out("1d4/2").odds.weights) == {0, 1, 2}
    assert set(work_out("-1d4/2").odds.weights) == {0, -1, -2}
    assert work_out("(1d4/2)*2").odds.weights == {1: 1, 2: 1, 3: 1, 4: 1}


@pytest.mark.parametrize(
    ("text", "dice"),
    [("2d6+3", True), ("d20 >= 15", True), ("4d6kh3", True), ("2d6 [fire]", True),
     ("(1d8+4)*2", True), ("d%", True), ("orla goblin", False), ("5+3", False)],
)  # fmt: skip
def test_what_reads_as_dice_on_the_line(text: str, dice: bool) -> None:
    assert plain_dice.looks_like_dice(text) is dice


def test_the_notation_loads_without_msgspec() -> None:
    code = (
        "import sys; from rules.notation.answer import answer; from rules.notation import "
        "chart, words; from rules.dice import SeededDice; answer('4d6kh3 >= 12', SeededDice(1)); "
        "print(sorted(m for m in sys.modules if m.startswith(('msgspec', 'dataclasses'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_seeded_roll_is_the_same_roll() -> None:
    first = plain_dice.rolled("4d6kh3+1d20ro1 [luck]", SeededDice(7))
    assert plain_dice.rolled("4d6kh3+1d20ro1 [luck]", SeededDice(7)) == first


def test_a_line_ending_with_chart_draws_the_distribution_under_the_roll() -> None:
    event = plain_dice.rolled("2d6+1 >= 8 chart", ScriptedDice([3, 4]))
    assert event.notation == "2d6+1 >= 8" and event.total == 8 and event.made is True
    first, *rows = ["".join(span.text for span in line) for line in plain_dice.lines(event)]
    assert first.startswith("🎲 2d6+1 >= 8: 3 4 + 1 = 8 · made it · mean 8 · 8+: ")
    # 11 totals in at most 8 rows: runs of two, so the roll stays in sight above them
    assert len(rows) == 6 and rows[0].startswith("  3-4 ") and rows[-1].startswith("   13 ")
    assert rows[2] == "  7-8 " + "█" * plain_dice.CHART_WIDTH + " 30.6%"  # the likeliest: full
    again = msgspec.json.decode(msgspec.json.encode(event), type=plain_dice.DiceRolled)
    assert plain_dice.lines(again) == plain_dice.lines(event)  # a replay draws it the same
    assert plain_dice.rolled("2d6 CHART", ScriptedDice([1, 1])).chart  # any case
    plain = plain_dice.rolled("2d6 [chart]", ScriptedDice([1, 1]))  # a label, not a request
    assert plain.chart == () and len(plain_dice.lines(plain)) == 1
    assert plain_dice.looks_like_dice("3d6 chart") and not plain_dice.looks_like_dice("chart")


def test_the_log_gives_the_mean_in_decimals_not_a_long_fraction() -> None:
    line = shown("4d6kh3", 1, 6, 3, 5)
    assert line == "🎲 4d6kh3: (1) 6 3 5 = 14 · mean 12.24"  # 15869/1296 only when asked
