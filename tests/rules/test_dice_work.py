"""The work of exact odds is bounded: every line the notation accepts is answered or refused
within a bounded amount of work, as its cost is counted before the work
(``rules/notation/exact.py``): a value that is a fraction, a long weight and a sign turned
over are paid for too. The work is counted, not timed (the seconds it takes are
bench/dice.py's)."""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.errors import Rejected
from rules.notation import exact
from rules.notation.answer import work_out
from rules.notation.exact import Distribution, TooBig
from rules.notation.parse import parse
from rules.notation.roll import apply_binary
from tests.hostile_text import STALLING_DICE

# Python calls (functions, and the built-ins they call) a line's odds may make. The costliest
# lines within the budget make about 3.2 million (some 0.2 s of CPU); the fractions the
# budget did not count before made over 30 million each (with the budget switched off). A
# count is the same on every machine however busy: a path that works without paying for it
# shows here, and the seconds the budget allows are bench/dice.py's.
CALLS = 10_000_000


class _TooMany(Exception):
    """More calls than ``CALLS``: the work is stopped there, not waited for."""


def _calls(work: Callable[[], object]) -> int:
    """How many Python calls ``work`` makes (``sys.setprofile``'s call events), stopped
    once they pass ``CALLS``."""
    made = 0

    def counted(frame: object, event: str, arg: object) -> None:
        nonlocal made
        if event in ("call", "c_call"):
            made += 1
            if made > CALLS:
                raise _TooMany

    before = sys.getprofile()
    sys.setprofile(counted)
    try:
        work()
    except _TooMany:
        pass
    finally:
        sys.setprofile(before)
    return made


@pytest.mark.parametrize("text", STALLING_DICE)
def test_big_products_and_quotients_are_refused_before_the_work(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = [0]

    def counted(how: Callable[..., object]) -> Callable[..., object]:
        def counting(*args: object) -> object:
            pairs[0] += 1
            return how(*args)

        return counting

    for op, how in list(exact._FAST.items()):
        monkeypatch.setitem(exact._FAST, op, counted(how))
    monkeypatch.setattr(exact, "apply_binary", counted(apply_binary))
    with pytest.raises(TooBig) as refused:
        work_out(text)
    message = refused.value.message
    assert message.startswith(f"{exact.TOO_BIG} in ") and "\n" not in message
    assert pairs[0] <= 2_000  # each d1000 over its number, at most: not a million pairs


def test_a_pair_costs_more_with_a_fraction_in_it() -> None:
    whole = Distribution({1: 1, 2: 1}, 2)
    half = Distribution({Fraction(1, 2): 1, 1: 1}, 2)
    assert exact._pair_cost(whole, whole, "+") == exact.WHOLE_PAIR
    assert exact._pair_cost(whole, whole, "%") == exact.OTHER_PAIR
    assert exact._pair_cost(whole, whole, "/") == exact.FRACTION_PAIR  # makes fractions
    assert exact._pair_cost(half, whole, "*") == exact.FRACTION_PAIR
    budget = exact.Budget()
    half.mapped(operator.neg, budget)
    assert exact.MAX_WORK - budget.left == 2 * exact.FRACTION_MAP  # a sign turned is paid


def test_what_is_reasonable_keeps_its_exact_odds() -> None:
    assert work_out("1d1000*1d100").odds.denominator == 100_000
    assert work_out("-(1d20/3)*4 >= -10").chance == Fraction(7, 20)  # 1 to 7
    signs = work_out("-" * 18 + "(1d100/7)/(1d10/3)").odds
    assert signs == work_out("(1d100/7)/(1d10/3)").odds and signs.mean == Fraction(1469, 250)


SIDES = (1, 2, 6, 20, 100, 991, 997, 1000)


@st.composite
def pools(draw: st.DrawFn) -> str:
    text = f"{draw(st.sampled_from((1, 2, 5, 20, 100)))}d{draw(st.sampled_from(SIDES))}"
    text += draw(st.sampled_from(("", "", "!", "kh1", "pl2", "ro1", "ra1", "e6", "mi2", "c>3")))
    return text


def lines(depth: int = 0) -> st.SearchStrategy[str]:
    leaf = st.one_of(pools(), st.sampled_from(("3", "997", "1000")))
    if depth >= 3:
        return leaf
    inner = st.deferred(lambda: lines(depth + 1))
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(("-", "-" * 5, "-" * 18)), inner).map(
            lambda p: f"{p[0]}({p[1]})"
        ),
        st.tuples(inner, st.sampled_from(("+", "-", "*", "/", "//", "%")), inner).map(
            lambda p: f"({p[0]}){p[1]}({p[2]})"
        ),
        st.tuples(st.lists(inner, min_size=1, max_size=4), st.sampled_from(("", "kh1", "pl1"))).map(
            lambda p: f"({', '.join(p[0])},){p[1]}"
        ),
    )


@settings(max_examples=40, deadline=None)
@given(lines())
@example("1d1000*1d1000*1d1000")
@example("(1d1000/997)/(1d100/91)")
@example("-" * 18 + "(1d1000*1d700)")
@example("20d1000e1000")
@example("(2d100/997, 2d100/991, 10d10)kh1")
def test_every_accepted_line_is_answered_or_refused_within_its_bound(text: str) -> None:
    try:
        node = parse(text)
    except Rejected:
        return  # refused as it is read: nothing to work out
    said: list[str] = []

    def odds() -> None:
        exact._SUMS.clear()  # worked out afresh, not from what another line kept
        try:
            exact.distribution(node)
        except TooBig as refused:
            said.append(refused.message)
        except Rejected:
            pass  # a divisor that can be 0

    assert _calls(odds) <= CALLS, text
    assert all(exact.TOO_BIG in message and "\n" not in message for message in said)


def _worked(text: str) -> tuple[Distribution, int] | str:
    """The odds of ``text`` and the budget left after them, or its refusal."""
    budget = exact.Budget()
    try:
        return exact.distribution(parse(text), budget), budget.left
    except Rejected as refused:
        return str(refused)


def test_more_of_a_die_worked_out_adds_only_the_dice_not_yet_added(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A library's stat blocks roll a few dice in many counts (18d10+36, 33d20+330): the
    # totals of fewer are kept, so 34d20 after 33d20 adds one die, and 18d20 adds none.
    monkeypatch.setattr(exact, "_SUMS", {})
    added = [0]
    real = exact._one_more

    def counted(*args: object) -> object:
        added[0] += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(exact, "_one_more", counted)
    fresh = {text: _worked(text) for text in ("33d20+330", "18d20", "34d20")}
    assert added[0] == 33 + 0 + 1
    monkeypatch.setattr(exact, "_SUMS", {})
    assert {text: _worked(text) for text in reversed(fresh)} == fresh  # same odds, same cost


@pytest.mark.parametrize("text", ["100d100", "99d100", "1d6+98d100", "20d20!", "30d100*30d100"])
def test_a_die_whose_sums_are_kept_is_refused_as_it_was(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exact, "_SUMS", {})
    cold = _worked(text)
    for warm in ("30d20", "50d6", "14d100", "3d20!", "20d12"):  # their sums kept
        _worked(warm)
    assert isinstance(cold, str) and cold.startswith(exact.TOO_BIG)
    assert _worked(text) == cold
