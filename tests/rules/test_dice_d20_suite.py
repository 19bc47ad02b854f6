"""Every expression of avrae/d20's own test suite (``tests/`` of github.com/avrae/d20 at
ad2ce25, copied into ``d20_suite.txt`` beside this file): d20 accepts it and so does the
tracker, with the meaning d20's tests give it (the value, or the lowest and highest totals, of
the exact distribution), or it is one of the differences docs/reference/dice.md names and is refused
by that name.

Where d20's test asserts a total the tracker's exact odds must give that total with
certainty; where it asserts a range, the tracker's totals must fill exactly that range. A
comparison at the top is the tracker's goal: d20's 1 or 0 is the chance of making it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.errors import Rejected
from rules.notation.answer import answer, work_out

# expression: ("value", v) | ("range", lowest, highest) | ("among", {...}) | ("refused", why)
BARE_KEEP = "is read differently by dice bots"
COMMENT = "a label goes in brackets"
SUITE: dict[str, tuple[object, ...]] = {
    # STANDARD_EXPRESSIONS
    "1d20": ("range", 1, 20),
    "1d%": ("among", set(range(0, 100, 10))),
    "1+1": ("value", 2),
    "4d6kh3": ("range", 3, 18),
    "(1)": ("value", 1),
    "(1,)": ("value", 1),
    "((1d6))": ("range", 1, 6),
    "4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)": ("range", 4 * (2 + 9 + 6), 4 * (16 + 9 + 201 // 2) + 2),
    "(1d4, 2+2, 3d6kl1)kh1": ("range", 4, 6),
    "((10d6kh5)kl2)kh1": ("range", 1, 6),
    # test_sane_totals, test_pemdas
    "(((1d6)))": ("range", 1, 6),
    "1 + 3 * 6": ("value", 19),
    "1 + (3 * 6)": ("value", 19),
    "(1 + 3) * 6": ("value", 24),
    "1 + 2 + 3": ("value", 6),
    "(1 + 2) + 3": ("value", 6),
    "1 + (2 + 3)": ("value", 6),
    "1 + 2 == 2": ("value", 0),
    "1 + (2 == 2)": ("value", 2),
    # test_invalid_rolls: d20 refuses these too
    "1001d6": ("refused", "roll 0 to 100 dice"),
    "6d0": ("refused", "a die has 1 to 1,000 sides, not 0"),
    "10d6mil1": ("refused", "'mi' takes a plain number"),
    # test_chaining_operators
    "10d6k1k2k3": ("refused", BARE_KEEP),
    "10d6k1ph1": ("refused", BARE_KEEP),
    "(1, 2, 3)k1k2": ("refused", BARE_KEEP),
    # test_correct_results
    "1+2+3": ("value", 6),
    # test_literal
    "1": ("value", 1),
    "10000": ("value", 10000),
    "1.5": ("value", 1),
    "0.5": ("value", 0),
    ".5": ("value", 0),
    # test_dice
    "0d6": ("value", 0),
    "d6": ("range", 1, 6),
    "1d6": ("range", 1, 6),
    "2d6": ("range", 2, 12),
    "0d%": ("value", 0),
    "d%": ("among", set(range(0, 100, 10))),
    "2d%": ("among", set(range(0, 190, 10))),
    # test_set, test_unop, test_binop
    "(1, 1)": ("value", 2),
    "+1": ("value", 1),
    "-1": ("value", -1),
    "--1": ("value", 1),
    "-+-++---+1": ("value", -1),
    "2 + 2": ("value", 4),
    "2 - 2": ("value", 0),
    "2 * 5": ("value", 10),
    "15 / 2": ("value", 7),
    "15 // 2": ("value", 7),
    "13 % 2": ("value", 1),
    "2 + 1d6": ("range", 3, 8),
    "2 * 1d6": ("range", 2, 12),
    "60 / 1d6": ("among", {60, 30, 20, 15, 12, 10}),
    "60 // 1d6": ("among", {60, 30, 20, 15, 12, 10}),
    "1d100 % 10": ("range", 0, 9),
    "1d% % 10": ("value", 0),
    "10 / 0": ("refused", "nothing divides by 0"),
    "10 // 0": ("refused", "nothing divides by 0"),
    "10 % 0": ("refused", "nothing divides by 0"),
    # test_comparison
    "1 == 1": ("value", 1),
    "1 == 2": ("value", 0),
    "1 > 1": ("value", 0),
    "2 > 1": ("value", 1),
    "1 < 1": ("value", 0),
    "1 < 2": ("value", 1),
    "1 >= 1": ("value", 1),
    "1 >= 2": ("value", 0),
    "1 <= 1": ("value", 1),
    "2 <= 1": ("value", 0),
    "1 != 1": ("value", 0),
    "1 != 2": ("value", 1),
    # test_selectors, test_k_op, test_p_op
    "(1, 2, 3, 4, 5)k3": ("refused", BARE_KEEP),
    "(1, 2, 3, 4, 5)k<3": ("value", 3),
    "(1, 2, 3, 4, 5)k>3": ("value", 9),
    "(1, 2, 3, 4, 5)kl2": ("value", 3),
    "(1, 2, 3, 4, 5)kh2": ("value", 9),
    "(1)k1": ("refused", BARE_KEEP),
    "(1)k2": ("refused", BARE_KEEP),
    "(1, 2, 3, 4, 5)k1k2": ("refused", BARE_KEEP),
    "(1, 2, 3, 4, 5)kh1kl1": ("value", 6),
    "(1, 2, 3, 4, 5)p3": ("refused", BARE_KEEP),
    "(1, 2, 3, 4, 5)p1p2": ("refused", BARE_KEEP),
    "(1, 2, 3, 4, 5)ph1pl1": ("value", 9),
    # dice operators
    "1d20rr<20": ("value", 20),
    "1d20rr>1": ("value", 1),
    "1d20rr<21": ("refused", "it would never stop"),
    "1d1rr1": ("refused", "it would never stop"),
    "1d1ro1": ("value", 1),
    "1d6rol1": ("range", 1, 6),
    "1d1ra1": ("value", 2),
    "1d6ral1": ("range", 2, 12),
    # d20: always odd; an explosion stops after 10 more dice here (docs/reference/dice.md): 22 too
    "1d2e2": ("among", {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 22}),
    "1d20e<21": ("refused", "it would never stop"),
    "1d1e1": ("refused", "it would never stop"),
    "10d6mi6": ("value", 60),
    "10d6mi10": ("value", 100),
    "10d6mi2": ("range", 20, 60),
    "10d6ma1": ("value", 10),
    "10d6ma0": ("value", 0),
    "10d6ma5": ("range", 10, 50),
    # test_arguments: without allow_comments d20 refuses a comment too
    "1d20 foo bar": ("refused", COMMENT),
    "1d20 keep something": ("refused", COMMENT),
    "1d20 damage": ("refused", COMMENT),
    "1d20 **bold**": ("refused", "cannot read dice at '*bold**'"),
    "1d20 please save me from this parsing weirdness": ("refused", COMMENT),
    # test_utils
    "1d20+1": ("range", 2, 21),
    "d20-1d4": ("range", -3, 19),
    "1d20ro1": ("range", 1, 20),
    "1 [a] + 2 + 3 [b] + 4": ("value", 10),
    "1 [a] + 2 + 3 [a] + 4": ("value", 10),
    "(1 [a])": ("value", 1),
    "1 [a] + 2 + 3": ("value", 6),
    "1 + 2 + 3 + 4": ("value", 10),
    "8d6": ("range", 8, 48),
    "8d6 [fire]": ("range", 8, 48),
    "1d20 + 4d6 + 3": ("range", 8, 47),
    "2d20 + 8d6 + 3": ("range", 13, 91),
    "(1d6, 1d6)kh1": ("range", 1, 6),
    "(2d6, 2d6)kh1": ("range", 2, 12),
    "(1, 2, 3)": ("value", 6),
    "(1, 2, 3) + (4, 5, 6)": ("value", 21),
    "-1d8 + 4 - (3, 1d4)kh1": ("range", -8, 0),
    "2d20kh1": ("range", 1, 20),
    "2d20kl1": ("range", 1, 20),
}


def totals(text: str) -> set[int]:
    """What the tracker's exact odds say the expression can come to, as d20's total."""
    odds = work_out(text)
    if odds.chance is not None:  # a goal: d20's total is 1 when it is made
        return {v for v, p in ((1, odds.chance), (0, 1 - odds.chance)) if p}
    return {int(v) for v in odds.odds.weights}


# d20's own list, as its tests write it: one expression a line, "#" a comment.
WRITTEN = [
    line
    for line in Path(__file__).with_name("d20_suite.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
]


def test_the_copy_of_d20s_suite_is_whole() -> None:
    assert len(set(WRITTEN)) == len(WRITTEN) == 119  # the issue counted 119 distinct


@pytest.mark.parametrize("text", list(dict.fromkeys([*WRITTEN, *SUITE])))
def test_each_expression_of_d20s_suite(text: str) -> None:
    assert text in SUITE, f"d20's suite has {text!r}: give it the meaning d20's test does"
    kind, *expected = SUITE[text]
    if kind == "refused":
        with pytest.raises(Rejected) as refused:
            work_out(text)
        assert str(expected[0]) in refused.value.message
        assert "\n" not in refused.value.message
        return
    found = totals(text)
    match kind:
        case "value":
            assert found == {expected[0]}
        case "range":
            assert (min(found), max(found)) == tuple(expected)
        case "among":
            assert found == expected[0]
    rolled = answer(text, SeededDice(len(text)))
    result = rolled.total if rolled.made is None else int(rolled.made)
    assert result in found  # what a roll gives is what the odds say can be


@pytest.mark.parametrize(
    ("d20", "tracker"),
    [
        ("(1, 2, 3, 4, 5)k3", "(1, 2, 3, 4, 5)k=3"),
        ("(1, 2, 3, 4, 5)k1k2", "(1, 2, 3, 4, 5)k=1k=2"),
        ("(1, 2, 3, 4, 5)p1p2", "(1, 2, 3, 4, 5)p=1p=2"),
        ("(1)k2", "(1)k=2"),
    ],
)
def test_a_refused_bare_keep_has_its_d20_meaning_with_an_equals_sign(
    d20: str, tracker: str
) -> None:
    expected = {"(1, 2, 3, 4, 5)k3": 3, "(1, 2, 3, 4, 5)k1k2": 3}.get(d20, 12 if "p" in d20 else 0)
    assert totals(tracker) == {expected}


def test_d20s_ranges_are_filled_with_the_right_chances() -> None:
    odds = work_out("4d6kh3").odds
    assert odds.chance(18) == Fraction(21, 1296)
    # l1 of one die always takes it: one more d6, so 2d6
    assert work_out("1d6ral1").odds == work_out("2d6").odds
