"""The exact odds of dice notation agree with icepool, an independent dice-probability
library, over generated expressions; and a roll only ever gives what the odds allow."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.notation.answer import answer, work_out
from rules.notation.exact import TooBig
from rules.notation.tree import MAX_EXPLOSIONS

SIDES = [2, 3, 4, 6, 8, 10, 12, 20]
Case = tuple[str, icepool.Die]


@st.composite
def dice(draw: st.DrawFn) -> Case:
    count = draw(st.integers(1, 4))
    sides = draw(st.sampled_from(SIDES))
    die = icepool.d(sides)
    text = f"{count}d{sides}"
    kind = draw(
        st.sampled_from(["", "!", "e", "kh", "kl", "ph", "pl", "rr", "ro", "mi", "ma", "c"])
    )
    number = draw(st.integers(1, count))
    face = draw(st.integers(2, sides))
    match kind:
        case "":
            return text, count @ die
        case "!" | "e" if sides <= 4 and count <= 2:
            chain = die.explode(depth=MAX_EXPLOSIONS)
            return text + ("!" if kind == "!" else f"e{sides}"), count @ chain
        case "kh" | "kl":
            pool = die.pool(count)
            kept = pool.highest(number) if kind == "kh" else pool.lowest(number)
            return f"{text}{kind}{number}", kept.sum()
        case "ph" | "pl":
            pool = die.pool(count)
            rest = count - number
            kept = pool.lowest(rest) if kind == "ph" else pool.highest(rest)
            return f"{text}{kind}{number}", kept.sum()
        case "rr" | "ro":
            depth: int | str = "inf" if kind == "rr" else 1
            changed = die.reroll(lambda v: v < face, depth=depth)  # type: ignore[arg-type]
            return f"{text}{kind}<{face}", count @ changed
        case "mi":
            return f"{text}mi{face}", count @ die.clip(face, None)
        case "ma":
            return f"{text}ma{face}", count @ die.clip(None, face)
        case "c":
            return f"{text}c>={face}", count @ die.map(lambda v: int(v >= face))
    return text, count @ die


def numbers() -> st.SearchStrategy[Case]:
    return st.integers(0, 12).map(lambda n: (str(n), icepool.Die([n])))


def labelled(case: Case, label: str) -> Case:
    """A label changes nothing but the log (d20's ``9[fire]``)."""
    return (f"{case[0]} [{label}]" if label else case[0]), case[1]


def combined(parts: st.SearchStrategy[Case]) -> st.SearchStrategy[Case]:
    def join(op: str, a: Case, b: Case) -> Case:
        text = f"({a[0]}){op}({b[0]})"
        divisor_can_be_0 = 0 in b[1]
        match op:
            case "+":
                return text, a[1] + b[1]
            case "-":
                return text, a[1] - b[1]
            case "*":
                return text, a[1] * b[1]
            case "/" | "//" if not divisor_can_be_0:
                # Exact division, cut toward zero only at the very end (as d20 does); floor
                # division rounds down.
                exact = a[1].map(Fraction) / b[1] if op == "/" else a[1] // b[1]
                return text, exact
            case "neg":
                return f"-({a[0]})", -a[1]
            case "set":
                return f"({a[0]}, {b[0]})kh1", icepool.Pool([a[1], b[1]]).highest(1).sum()
        return f"({a[0]})+({b[0]})", a[1] + b[1]

    ops = st.sampled_from(["+", "-", "*", "/", "//", "neg", "set"])
    return st.builds(join, ops, parts, parts)


LEAVES = st.builds(labelled, dice() | numbers(), st.sampled_from(["", "", "fire"]))
EXPRESSIONS = st.recursive(LEAVES, combined, max_leaves=3)


@settings(max_examples=80, deadline=None)
@given(EXPRESSIONS, st.integers(0, 2**32))
def test_exact_means_and_chances_agree_with_icepool(case: Case, seed: int) -> None:
    text, exact = case
    expected = exact.map(lambda v: int(v))  # a fraction is cut toward zero at the end
    try:
        odds = work_out(text).odds
    except TooBig:  # a set of long exploding chains: too many ways, refused (not wrong)
        return
    assert odds.mean == Fraction(expected.mean()), text
    for outcome, quantity in expected.items():
        assert odds.chance(outcome) == Fraction(quantity, expected.denominator()), text
    assert sum(odds.weights.values()) == odds.denominator  # the chances sum to 1
    assert answer(text, SeededDice(seed)).total in odds.weights  # what was rolled could be


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4d6kh3", icepool.d6.pool(4).highest(3).sum()),
        ("3d4!kh2", icepool.d4.explode(depth=MAX_EXPLOSIONS).pool(3).highest(2).sum()),
        ("4d6ro<3kh3", icepool.d6.reroll([1, 2], depth=1).pool(4).highest(3).sum()),
        ("1d20ro1+5", icepool.d20.reroll([1], depth=1) + 5),
        ("2d6mi2", 2 @ icepool.d6.clip(2, None)),
        ("6d10c>=8", 6 @ icepool.d10.map(lambda v: int(v >= 8))),
        ("6d10kh3c>=8", icepool.d10.map(lambda v: int(v >= 8)).pool(6).highest(3).sum()),
        ("(1d8+4)*2", (icepool.d8 + 4) * 2),
        ("((10d6kh5)kl2)kh1", icepool.d6.pool(10)[0, 0, 0, 0, 0, 0, 1, 0, 0, 0].sum()),
    ],
)
def test_the_ways_of_working_out_agree_with_icepool(text: str, expected: icepool.Die) -> None:
    odds = work_out(text).odds
    for outcome, quantity in expected.items():
        assert odds.chance(outcome) == Fraction(quantity, expected.denominator()), text
    assert odds.mean == Fraction(expected.mean())


SELECTORS = st.builds(
    lambda kind, number: f"{kind}{number}",
    st.sampled_from(["h", "l", "<", ">", "<=", ">=", "="]),
    st.integers(0, 7),
)
OPERATION = st.builds(
    lambda name, selector, bound: f"{name}{bound}" if name in ("mi", "ma") else name + selector,
    st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
    SELECTORS,
    st.integers(0, 7),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 3),
    st.sampled_from([2, 3, 4, 6]),
    st.booleans(),
    st.lists(OPERATION, max_size=3),
    st.sampled_from(["", "c>=3", "c=1"]),
)
def test_every_shortcut_agrees_with_running_every_branch(
    quantity: int, sides: int, explode: bool, ops: list[str], count: str
) -> None:
    """The fast ways of working out (per die, by rank) give what running every way the pool
    can fall through ``rules.notation.pool`` gives: the meaning of the operations."""
    from rules.errors import Rejected
    from rules.notation import exact
    from rules.notation.parse import parse
    from rules.notation.tree import Dice

    text = f"{quantity}d{sides}{'!' if explode and sides <= 3 else ''}{''.join(ops)}{count}"
    try:
        dice = parse(text)
        fast = exact.distribution(dice)
    except Rejected:
        return
    assert isinstance(dice, Dice)
    try:
        slow = exact._branches(dice, exact.Budget(300_000))
    except exact.TooBig:  # explosions of most faces: too many ways to run them all
        return
    shared = fast.denominator * slow.denominator
    assert {v: w * slow.denominator for v, w in fast.weights.items() if w} == {
        v: w * fast.denominator for v, w in slow.weights.items() if w
    }, text
    assert shared > 0


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789dkhlproaemic%!+-*/(),.<>=[] ", max_size=40))
def test_any_line_is_read_or_refused_in_one_line(text: str) -> None:
    from rules.errors import Rejected

    try:
        result = answer(text, SeededDice(len(text)))
    except Rejected as refused:
        assert "\n" not in refused.message
        return
    if result.made is None:
        assert result.total in result.odds.odds.weights


def _pool(*dice: icepool.Die) -> icepool.Pool:
    return icepool.Pool(list(dice))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("100d20kh3", icepool.d20.pool(100).highest(3).sum()),
        ("100d20kl3", icepool.d20.pool(100).lowest(3).sum()),
        ("(4d6, 4d6, 4d6, 4d6, 4d6, 4d6)kh3", _pool(*[4 @ icepool.d6] * 6).highest(3).sum()),
        ("(" + ", ".join(["2d6"] * 10) + ")pl2", _pool(*[2 @ icepool.d6] * 10).highest(8).sum()),
        ("(" + ", ".join(["1d20"] * 20) + ")kh10", icepool.d20.pool(20).highest(10).sum()),
        (
            "(1d4, 1d6, 1d8, 1d10, 1d12, 1d20)kh2",
            _pool(icepool.d4, icepool.d6, icepool.d8, icepool.d10, icepool.d12, icepool.d20)
            .highest(2)
            .sum(),
        ),
        (
            "(3d6, 2d8, 1d20, 4d4, 2d10)pl1",
            _pool(3 @ icepool.d6, 2 @ icepool.d8, icepool.d20, 4 @ icepool.d4, 2 @ icepool.d10)
            .highest(4)
            .sum(),
        ),
        (
            "(1d20, 1d20+2, 1d20-1, 1d12+4, 1d20, 1d20, 1d20, 1d20)kl2",
            _pool(*[icepool.d20] * 5, icepool.d20 + 2, icepool.d20 - 1, icepool.d12 + 4)
            .lowest(2)
            .sum(),
        ),
    ],
)
def test_wide_keeps_and_drops_are_worked_out(text: str, expected: icepool.Die) -> None:
    """Sets of many values, and many dice, kept or dropped by rank: once refused as too big,
    now worked out within the budget, and right."""
    odds = work_out(text).odds
    assert odds.mean == Fraction(expected.mean()), text
    for outcome, quantity in expected.items():
        assert odds.chance(outcome) == Fraction(quantity, expected.denominator()), text


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("100d20kh97", "in 100d20kh97: keep or drop fewer"),
        ("(1d20, 1d19, 1d18, 1d17, 1d16, 1d15, 1d14, 1d13, 1d12, 1d11)kh5", "kh5: keep or"),
        ("(1d6, 90d20kh60)kh1", "in 90d20kh60: keep or drop fewer"),
    ],
)
def test_a_keep_too_wide_to_work_out_is_refused_by_name(text: str, named: str) -> None:
    with pytest.raises(TooBig) as refused:
        work_out(text)
    assert named in refused.value.message and "at most 1,500,000 steps" in refused.value.message


ITEMS = st.sampled_from(["1d2", "1d3", "1d4", "2d2", "1d3+1", "1d2-1", "3", "1d4*2"])
RANKED = st.builds(
    lambda name, kind, number: f"{name}{kind}{number}",
    st.sampled_from(["k", "p"]),
    st.sampled_from(["h", "l"]),
    st.integers(0, 6),
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(ITEMS, min_size=1, max_size=5),
    st.sampled_from(["", "mi2", "ma2", "mi2ma3"]),
    st.lists(RANKED, min_size=1, max_size=3),
    st.sampled_from(["", "c>=3", "c=1"]),
)
def test_a_set_kept_by_rank_agrees_with_running_every_branch(
    items: list[str], clamp: str, ranked: list[str], count: str
) -> None:
    """The window over a set's extreme values (and, for a set of equal items, placing them
    as dice) gives what running every way the set can fall through ``pool`` gives."""
    from rules.errors import Rejected
    from rules.notation import exact
    from rules.notation.parse import parse
    from rules.notation.tree import Group

    text = f"({', '.join(items)}){clamp}{''.join(ranked)}{count}"
    try:
        node = parse(text)
        fast = exact.distribution(node)
    except Rejected:
        return
    if not isinstance(node, Group):  # one item: "(1d4)" is "1d4"
        return
    slow = exact._branches(node, exact.Budget())
    assert {v: w * slow.denominator for v, w in fast.weights.items() if w} == {
        v: w * fast.denominator for v, w in slow.weights.items() if w
    }, text


@pytest.mark.parametrize("text", ["2d2kh1kl1", "(1d2, 1d2)kh1kl1", "5d3kh2kl2"])
def test_highest_and_lowest_together_keep_one_die_of_a_tie_as_d20_does(text: str) -> None:
    """``kh1kl1`` on two dice showing the same keeps one of them (d20 takes the first of a
    tie for both): a shortcut by ranks alone would keep both."""
    from rules.notation import exact
    from rules.notation.parse import parse
    from rules.notation.tree import Dice, Group

    node = parse(text)
    assert isinstance(node, Dice | Group)
    assert work_out(text).odds.weights == exact._branches(node, exact.Budget()).weights
    if text.startswith("2d2"):
        assert work_out(text).odds.weights == {1: 1, 2: 1, 3: 2}
