"""The exact distribution of a tree's value: whole-number weights over one denominator.

Bounded: every step is paid for from a ``Budget`` before it is taken, and an expression
that would cost more (``100d20kh97``, ``1d1000*1d1000``) is refused as too big to work out,
at once or in well under a second. A step is about the time of adding two small whole
numbers into a table of totals (a third of a microsecond here); what costs more is charged
more (``_pair_cost``): a value that is a fraction (``/``) costs some forty steps, a long
weight (``!`` dice) its length squared, and turning values over (``-``, ``int``) is paid
for as well, so no accepted line runs long. The ways, cheapest first:

- dice without operations: the totals a die at a time, by prefix sums;
- operations that touch each die on its own (``rr<3``, ``ro1``, ``mi2``, ``e6``, ``k>4``,
  ``c>=8``): one die's pool worked out, then added up ``count`` times;
- keeping and dropping by rank (``kh3``, ``(10d6kh5)kl2``, after per-die rerolls): which
  ranks stay is known before the roll, so the dice are placed value by value, best first;
- anything else (``ra``, ``ro`` by rank, sets with ``kh1``): every branch of the pool run
  through ``rules.notation.pool``, as a roll would.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from math import comb, lcm
from typing import NamedTuple

from rules.errors import Rejected
from rules.notation import pool
from rules.notation.faces import chain_of, die_denominator, die_weights
from rules.notation.roll import apply_binary
from rules.notation.tree import (
    COMPARISONS,
    MAX_EXPLOSIONS,
    Binary,
    Dice,
    Group,
    Node,
    Number,
    Op,
    Paren,
    Unary,
    Value,
    notation,
)

# Steps the work may take: about half a second at worst, on a quiet machine (bench/dice.py).
MAX_WORK = 1_500_000
# What one pair of values costs, in steps, as measured (bench/dice.py): whole numbers added
# or multiplied (a table of many totals misses the cache: twice the cheapest), the other
# operators on them (``//``, ``%``, a comparison, through ``apply_binary``), and anything
# with a fraction in it (Python's ``Fraction``: some forty times a whole number's cost).
WHOLE_PAIR = 2
OTHER_PAIR = 4
FRACTION_PAIR = 50
# Values ranked (``kh``, ``pl``) cost this many times more when some are fractions: dice
# placed value by value, a set's values item by item (its states keyed by fractions), and
# every branch of a pool.
FRACTION_RANK = 10
FRACTION_SET = 20
FRACTION_BRANCH = 2
# One value turned into another (``-``, ``int``): a whole number, a fraction.
WHOLE_MAP = 2
FRACTION_MAP = 20
# Weights this long (in bits) multiplied cost a step more per this many bits squared.
LONG_WEIGHT = 200_000


TOO_BIG = "too many possible totals to work out exactly"


class TooBig(Rejected):
    """The exact odds would take too long to work out."""


class Budget:
    def __init__(self, steps: int = MAX_WORK) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps
        if self.left < 0:
            raise TooBig(f"{TOO_BIG}: roll fewer or smaller dice")


def _named(node: Dice | Group, work: Callable[[], Distribution]) -> Distribution:
    """``work``, with a refusal for its size naming the dice or set it was for (the
    innermost one: ``(4d6, 100d20kh50)kh1`` names ``100d20kh50``)."""
    try:
        return work()
    except TooBig as exc:
        if str(exc).startswith(f"{TOO_BIG} in "):
            raise
        fewer = "keep or drop fewer, " if any(op.name in ("k", "p") for op in node.ops) else ""
        raise TooBig(
            f"{TOO_BIG} in {notation(node._replace(labels=()))}: {fewer}"
            f"roll fewer or smaller dice (at most {MAX_WORK:,} steps of work)"
        ) from None


class Distribution(NamedTuple):
    """Each value's whole-number weight; its chance is the weight over ``denominator``."""

    weights: dict[Value, int]
    denominator: int

    def chance(self, value: Value) -> Fraction:
        return Fraction(self.weights.get(value, 0), self.denominator)

    def at_least(self, goal: Value) -> Fraction:
        return Fraction(sum(w for t, w in self.weights.items() if t >= goal), self.denominator)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(t * w for t, w in self.weights.items()), self.denominator)

    def mapped(self, how: Callable[[Value], Value], budget: Budget | None = None) -> Distribution:
        """Each value turned by ``how`` (those that become one added up); paid for from
        ``budget`` when given (every value is touched: a long table of fractions costs)."""
        if budget is not None:
            budget.spend(len(self.weights) * (FRACTION_MAP if _has_fraction(self) else WHOLE_MAP))
        out: dict[Value, int] = {}
        for v, w in self.weights.items():
            key = how(v)
            out[key] = out.get(key, 0) + w
        return Distribution(out, self.denominator)


def distribution(node: Node, budget: Budget | None = None) -> Distribution:
    """The exact distribution of the tree's value (``TooBig`` when it would take too long,
    ``Rejected`` when a divisor can come to 0)."""
    return _node(node, budget or Budget())


def _node(node: Node, budget: Budget) -> Distribution:
    budget.spend(1)
    match node:
        case Number(value=value):
            return Distribution({value: 1}, 1)
        case Paren(inner=inner):
            return _node(inner, budget)
        case Unary(op=op, operand=operand):
            part = _node(operand, budget)
            return part.mapped(_negated, budget) if op == "-" else part
        case Binary(op=op, left=left, right=right):
            a, b = _node(left, budget), _node(right, budget)
            if op in ("/", "//", "%") and 0 in b.weights:
                if len(b.weights) == 1:  # a plain 0: it does not "come to" 0, it is 0
                    raise Rejected(f"nothing divides by 0: {notation(node)} has no answer")
                raise Rejected(
                    f"{notation(right)} can come to 0, and nothing divides by 0: "
                    f"{notation(node)} has no answer then"
                )
            fast = _FAST.get(op)
            how = fast if fast else (lambda x, y: apply_binary(op, x, y, node))
            try:
                return combine(a, b, how, budget, _pair_cost(a, b, op))
            except TooBig as exc:
                if str(exc).startswith(f"{TOO_BIG} in "):
                    raise
                raise TooBig(
                    f"{TOO_BIG} in {notation(node)}: {_ARITHMETIC.get(op, 'use fewer parts')} "
                    f"(at most {MAX_WORK:,} steps of work)"
                ) from None
        case Dice():
            return _named(node, lambda: _dice(node, budget))
        case Group():
            return _named(node, lambda: _group(node, budget))
    raise TypeError(node)


# What to do about a part too big, by its operator.
_ARITHMETIC = {
    "*": "multiply smaller dice",
    "/": "divide smaller dice, or by a number",
    "//": "divide smaller dice, or by a number",
    "%": "take the remainder of smaller dice",
}


def _has_fraction(d: Distribution) -> bool:
    return any(type(v) is not int for v in d.weights)


def _pair_cost(a: Distribution, b: Distribution, op: str) -> int:
    """Steps one pair of values of ``a`` and ``b`` costs under ``op`` (see ``WHOLE_PAIR``)."""
    if op == "/" or _has_fraction(a) or _has_fraction(b):
        return FRACTION_PAIR
    return WHOLE_PAIR if op in _FAST else OTHER_PAIR


def _long_weights(a: Distribution, b: Distribution) -> int:
    """Steps more a pair costs for its weights' length: long numbers multiply slowly."""
    return a.denominator.bit_length() * b.denominator.bit_length() // LONG_WEIGHT


def combine(
    a: Distribution,
    b: Distribution,
    how: Callable[[Value, Value], Value],
    budget: Budget,
    cost: int = WHOLE_PAIR,
) -> Distribution:
    """``how`` of every pair of values, their weights multiplied; ``cost`` steps a pair
    (``_pair_cost``), more for long weights, all paid before the first."""
    budget.spend(len(a.weights) * len(b.weights) * (cost + _long_weights(a, b)))
    out: dict[Value, int] = {}
    for x, wx in a.weights.items():
        for y, wy in b.weights.items():
            key = how(x, y)
            out[key] = out.get(key, 0) + wx * wy
    return Distribution(out, a.denominator * b.denominator)


def add(a: Distribution, b: Distribution, budget: Budget) -> Distribution:
    return combine(a, b, operator.add, budget, _pair_cost(a, b, "+"))


# The operators whose Python meaning is d20's (``/`` is not: it stays exact, see roll).
_FAST: dict[str, Callable[[Value, Value], Value]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


def chance_of(op: str, left: Distribution, right: Distribution, budget: Budget) -> Fraction:
    """The chance that ``left op right`` holds (a comparison, as a goal)."""
    from rules.notation.roll import compare

    assert op in COMPARISONS
    cost = _pair_cost(left, right, op)
    held = combine(left, right, lambda x, y: int(compare(op, x, y)), budget, cost)
    return held.chance(1)


# --- one die --------------------------------------------------------------------------------


def _uniform_sum(dice: Dice, budget: Budget) -> Distribution:
    """The total of ``count`` such dice, a die at a time, by prefix sums over runs of equally
    likely values (one run for a plain die, one per chain length for ``!``)."""
    one = die_weights(dice)
    values = sorted(one)
    runs: list[tuple[int, int, int]] = []
    for v in values:
        if runs and runs[-1][1] == v - 1 and runs[-1][2] == one[v]:
            runs[-1] = (runs[-1][0], int(v), runs[-1][2])
        else:
            runs.append((int(v), int(v), one[v]))
    smallest, largest = runs[0][0], runs[-1][1]
    span = largest - smallest + 1
    # Paid before the first step, so what is too big is refused at once: a die at a time,
    # each run over the totals so far (and the weights of ``!`` dice are long numbers).
    # Paid in full even when the sums are kept (below): what is refused stays the same.
    size = 1 + dice.quantity * die_denominator(dice).bit_length() // 256
    steps = sum(len(runs) * (i * span + span) * size for i in range(dice.quantity))
    budget.spend(steps * 3 // 2)  # a step here costs about one and a half (bench/dice.py)
    key = tuple(runs)
    known = _SUMS.get(key, ([1],))
    sums = list(known[: dice.quantity + 1])
    while len(sums) <= dice.quantity:
        sums.append(_one_more(sums[-1], runs))
    weights = sums[dice.quantity]
    if len(sums) > len(known) and _kept_size(len(sums) - 1, span) <= MAX_KEPT_SUMS:
        if len(_SUMS) >= MAX_KEPT_DICE and key not in _SUMS:
            _SUMS.clear()  # one step, as another thread may be reading or adding too
        _SUMS[key] = tuple(sums)  # replaced whole: a thread reading it sees one or the other
    low = smallest * dice.quantity
    totals: dict[Value, int] = {low + i: w for i, w in enumerate(weights) if w}
    return Distribution(totals, die_denominator(dice) ** dice.quantity)


# The weights of the totals of 0, 1, 2... of a die (its runs of equally likely values), kept:
# a library's stat blocks roll the same few dice in many counts (``18d10+36``, ``2d10+4``),
# and 33 d20 then cost what the 33rd die costs. Bounded: a few dice, each up to
# ``MAX_KEPT_SUMS`` weights in all (33 d20 keep some 11,000).
_SUMS: dict[tuple[tuple[int, int, int], ...], tuple[list[int], ...]] = {}
MAX_KEPT_DICE = 16
MAX_KEPT_SUMS = 20_000


def _kept_size(quantity: int, span: int) -> int:
    """The weights kept for the totals of 0 to ``quantity`` dice of ``span`` values."""
    return sum(i * (span - 1) + 1 for i in range(quantity + 1))


def _one_more(weights: list[int], runs: list[tuple[int, int, int]]) -> list[int]:
    """The weights of the totals with one die more (lowest total first), by prefix sums."""
    smallest, largest = runs[0][0], runs[-1][1]
    prefix = [0]
    for weight in weights:
        prefix.append(prefix[-1] + weight)
    top = len(weights) - 1
    out = [0] * (top + largest - smallest + 1)
    for run_low, run_high, run_weight in runs:
        for offset in range(run_low, top + run_high + 1):
            first, last = max(0, offset - run_high), min(top, offset - run_low)
            if first <= last:
                out[offset - smallest] += run_weight * (prefix[last + 1] - prefix[first])
    return out


# --- dice with operations -------------------------------------------------------------------


def _dice(dice: Dice, budget: Budget) -> Distribution:
    if dice.quantity == 0:
        return Distribution({0: 1}, 1)
    if not dice.ops and not dice.percent:
        return _uniform_sum(dice, budget)
    ops = dice.ops
    if all(not s.ranks for op in ops for s in op.selectors) and not any(
        op.name == "ra" for op in ops
    ):
        one = _branches(dice._replace(quantity=1), budget)
        return _repeat(one, dice.quantity, budget)
    ranked = _rank_split(ops)
    if ranked is not None:
        before, by_rank, counter = ranked
        one = _branches(dice._replace(quantity=1, ops=before), budget)
        return _ranked(one, dice.quantity, _kept_ranks(dice.quantity, by_rank), counter, budget)
    return _branches(dice, budget)


def _repeat(one: Distribution, count: int, budget: Budget) -> Distribution:
    span = int(max(one.weights) - min(one.weights)) + 1
    budget.spend(sum((i * span + 1) * len(one.weights) for i in range(1, count)))
    total = one
    for _ in range(count - 1):  # paid above, but for long weights
        total = combine(total, one, operator.add, budget, cost=0)
    return total


def _rank_split(ops: tuple[Op, ...]) -> tuple[tuple[Op, ...], tuple[Op, ...], Op | None] | None:
    """``ops`` as per-die changes that drop nothing, then keeps and drops all by rank, then
    perhaps a count; None when they are not of that shape."""
    index = 0
    while index < len(ops) and ops[index].name in ("rr", "ro", "mi", "ma"):
        if any(s.ranks for s in ops[index].selectors):
            return None
        index += 1
    start = index
    while index < len(ops) and ops[index].name in ("k", "p"):
        kinds = {s.kind for s in ops[index].selectors}
        # Highest and lowest together (kh1kl1) may take the same die when dice tie, as d20
        # does: that depends on the values, not only on the ranks.
        if not kinds <= {"h"} and not kinds <= {"l"}:
            return None
        index += 1
    end = index
    counter = None
    if index < len(ops) and ops[index].name == "c":
        counter, index = ops[index], index + 1
    if end == start or index != len(ops):
        return None
    return ops[:start], ops[start:end], counter


def _kept_ranks(count: int, ops: tuple[Op, ...]) -> list[int]:
    """Which ranks (0 the highest die) are still kept after keeping and dropping by rank."""
    kept = list(range(count))
    for op in ops:
        chosen: set[int] = set()
        for selector in op.selectors:
            batch = (
                kept[: selector.number] if selector.kind == "h" else kept[::-1][: selector.number]
            )
            chosen.update(batch)
        kept = [r for r in kept if (r in chosen) == (op.name == "k")]
    return kept


def _ranked(
    one: Distribution, count: int, ranks: list[int], counter: Op | None, budget: Budget
) -> Distribution:
    """The total of the dice at ``ranks`` among ``count`` such dice (or how many of them
    ``counter`` matches): the values placed from the highest down (from the lowest, when the
    kept ranks are nearer the bottom), choosing how many dice show each, and the ways they
    can. Once the last kept rank is placed, the dice left only multiply the ways, so ``kh3``
    of a hundred dice costs little more than of ten."""
    worth: Callable[[Value], Value] = (
        (lambda v: v)
        if counter is None
        else (lambda v: int(any(s.matches(v) for s in counter.selectors)))
    )
    if not ranks:
        return Distribution({0: 1}, 1)
    values = sorted(one.weights, reverse=True)
    if count - min(ranks) < max(ranks) + 1:  # nearer the bottom: place from the lowest up
        values.reverse()
        ranks = [count - 1 - r for r in ranks]
    reach = max(ranks) + 1  # ranks placed before the rest no longer matter
    span = 2 if counter is not None else int(max(one.weights) - min(one.weights)) + 1
    sums = len(ranks) * span + 1
    slow = FRACTION_RANK if _has_fraction(one) else 1
    budget.spend(len(values) * (reach + 1) * (count + 1) * sums * slow)
    below = [0] * (count + 1)  # below[i]: how many kept ranks are under i
    for i in range(count):
        below[i + 1] = below[i] + (i in ranks)
    states: dict[tuple[int, Value], int] = {(0, 0): 1}
    done: dict[Value, int] = {}
    rest = sum(one.weights.values())  # the weight of the values not yet placed
    for index, value in enumerate(values):
        weight = one.weights[value]
        rest -= weight
        last = index == len(values) - 1
        following: dict[tuple[int, Value], int] = {}
        for (placed, total), ways in states.items():
            left = count - placed
            for here in range(left if last else 0, left + 1):
                taken = below[min(placed + here, reach)] - below[placed]
                key = (placed + here, total + taken * worth(value))
                more = ways * comb(left, here) * weight**here
                if key[0] >= reach:  # every kept rank placed: the rest fall anywhere below
                    done[key[1]] = done.get(key[1], 0) + more * rest ** (left - here)
                else:
                    following[key] = following.get(key, 0) + more
        states = following
    return Distribution({s: w for s, w in done.items() if w}, one.denominator**count)


def _ranked_set(
    items: list[Distribution], ranks: list[int], counter: Op | None, budget: Budget
) -> Distribution:
    """The total of a set's values at ``ranks`` (or how many of them ``counter`` matches):
    the values taken an item at a time, keeping only a window of the highest few seen so far
    (or of the lowest few, the values turned upside down). Below the window either nothing
    counts (``kh2``: the two highest) or everything does (``pl2``: all but the two lowest,
    added up as they leave the window), so a wide set costs the ways its few extreme values
    can fall, not every way the whole set can."""
    count = len(items)

    def worth(value: Value) -> Value:
        return value if counter is None else int(any(s.matches(value) for s in counter.selectors))

    support = len({v for d in items for v in d.weights})
    spread = sum(int(max(d.weights) - min(d.weights)) + 1 for d in items)
    plans = []
    for flip in (False, True):
        held = sorted(count - 1 - r for r in ranks) if flip else sorted(ranks)
        dropped = [r for r in range(count) if r not in held]
        top = (held[-1] + 1) if held else 0  # below it nothing counts
        rest = (dropped[-1] + 1) if dropped else 0  # below it everything counts
        plans.append((comb(support + top, top), flip, top, False, held))
        plans.append((comb(support + rest, rest) * spread, flip, rest, True, held))
    size, flip, window, below_counts, held = min(plans, key=lambda plan: plan[0])
    if flip:
        items = [d.mapped(lambda v: -v) for d in items]

    def real(value: Value) -> Value:
        return -value if flip else value

    slow = FRACTION_SET if any(_has_fraction(d) for d in items) else 1
    seen = 1
    for item in items:
        budget.spend(min(seen, size) * len(item.weights) * (window + 1) * slow)
        seen *= len(item.weights)
    states: dict[tuple[Value, tuple[Value, ...]], int] = {(0, ()): 1}
    for item in items:
        following: dict[tuple[Value, tuple[Value, ...]], int] = {}
        for (past, best), ways in states.items():
            for value, weight in item.weights.items():
                ordered = sorted((*best, value), reverse=True)
                leaving = below_counts and len(ordered) > window
                key = (
                    past + (worth(real(ordered[window])) if leaving else 0),
                    tuple(ordered[:window]),
                )
                following[key] = following.get(key, 0) + ways * weight
        states = following
    denominator = 1
    for item in items:
        denominator *= item.denominator
    out: dict[Value, int] = {}
    for (past, best), ways in states.items():
        total = past + sum((worth(real(best[r])) for r in held if r < window), 0)
        out[total] = out.get(total, 0) + ways
    return Distribution(out, denominator)


# --- every branch -----------------------------------------------------------------------------


Options = tuple[list[tuple[Value, int]], int]  # values with whole-number weights, their total


class _Branch:
    """A Draw that replays the choices made so far and takes the first of any new one; the
    branch's chance is ``numerator / denominator``."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = choices
        self.sizes: list[int] = []
        self.numerator = self.denominator = 1

    def pick(self, options: Options) -> Value:
        at = len(self.sizes)
        if at == len(self.choices):
            self.choices.append(0)
        values, total = options
        self.sizes.append(len(values))
        chosen, weight = values[self.choices[at]]
        self.numerator *= weight
        self.denominator *= total
        return chosen

    def die(self, dice: Dice) -> tuple[int, ...]:
        return chain_of(dice, int(self.pick(_die_options(dice, None))))

    def unlike(self, dice: Dice, op: Op) -> list[tuple[int, ...]]:
        return [chain_of(dice, int(self.pick(_die_options(dice, op))))]


_OPTIONS: dict[tuple[Dice, Op | None], Options] = {}


def _die_options(dice: Dice, op: Op | None) -> Options:
    key = (dice._replace(quantity=1, ops=(), wraps=(), labels=()), op)
    if key not in _OPTIONS:
        weights = die_weights(dice)
        if op is not None:
            weights = {
                v: w for v, w in weights.items() if not any(s.matches(v) for s in op.selectors)
            }
        if len(_OPTIONS) > 256:
            _OPTIONS.clear()
        _OPTIONS[key] = (list(weights.items()), sum(weights.values()))
    return _OPTIONS[key]


def _branches(node: Dice | Group, budget: Budget) -> Distribution:
    """Every way the pool can fall, run through ``pool`` as a roll would, with its chance."""
    items: list[Options] = []
    if isinstance(node, Group):
        for item in node.items:
            part = _node(item, budget)
            items.append((list(part.weights.items()), part.denominator))
    slow = FRACTION_BRANCH if any(type(v) is not int for o, _ in items for v, _ in o) else 1
    budget.spend(_BRANCH * slow * _fewest_branches(node, items))
    explodes = any(op.name == "e" for op in node.ops)
    found: dict[tuple[Value, int], int] = {}  # (value, denominator) -> numerator
    choices: list[int] = []
    while True:
        branch = _Branch(choices)
        if isinstance(node, Dice):
            entries = [pool.Entry(branch.die(node)) for _ in range(node.quantity)]
            pool.apply(entries, node.ops, node, branch)
        else:
            entries = [pool.Entry((), branch.pick(options)) for options in items]
            pool.apply(entries, node.ops, None, branch)
        key = (pool.value(entries, node.ops), branch.denominator)
        found[key] = found.get(key, 0) + branch.numerator
        choices, sizes = branch.choices, branch.sizes
        # A branch's dice are looked over once an operation each, and an explosion's
        # again for every die it brings: its length squared.
        looks = len(entries) * len(node.ops) * (8 * len(entries) if explodes else 4)
        budget.spend(slow * (_BRANCH + 8 * len(sizes) + looks))
        del choices[len(sizes) :]
        while choices and choices[-1] + 1 >= sizes[len(choices) - 1]:
            choices.pop()
        if not choices:
            break
        choices[-1] += 1
    denominator = lcm(*(d for _, d in found))
    weights: dict[Value, int] = {}
    for (value, below), numerator in found.items():
        weights[value] = weights.get(value, 0) + numerator * (denominator // below)
    return Distribution(weights, denominator)


_BRANCH = 60  # steps one branch costs, about (a roll of a small pool through its ops)


def _fewest_branches(node: Dice | Group, items: list[Options]) -> int:
    """At least how many branches the pool has, known before any: so a pool that has far
    too many is refused at once, not after a second of trying."""
    if isinstance(node, Group):
        ways = 1
        for values, _ in items:
            ways *= len(values)
        return ways
    faces = len(_die_options(node, None)[0])
    per_die = faces
    for op in node.ops:
        if op.name == "e":  # a matching face rolls again, up to the bound
            matching = faces - len(_die_options(node, op)[0])
            per_die = (faces - matching) * sum(matching**k for k in range(MAX_EXPLOSIONS))
            per_die += faces * matching**MAX_EXPLOSIONS
    return int(per_die**node.quantity)


def _group(node: Group, budget: Budget) -> Distribution:
    if not node.ops:
        total = Distribution({0: 1}, 1)
        for item in node.items:
            total = add(total, _node(item, budget), budget)
        return total
    ranked = _rank_split(node.ops)
    if ranked is not None and node.items and all(op.name in ("mi", "ma") for op in ranked[0]):
        before, by_rank, counter = ranked
        items = [_clamped(_node(item, budget), before) for item in node.items]
        ranks = _kept_ranks(len(items), by_rank)
        if all(item == items[0] for item in items):  # (4d6, 4d6, ...): placed as dice are
            return _ranked(items[0], len(items), ranks, counter, budget)
        return _ranked_set(items, ranks, counter, budget)
    return _branches(node, budget)


def _clamped(item: Distribution, ops: tuple[Op, ...]) -> Distribution:
    """A set's value after minimums and maximums (``mi``, ``ma``), as ``pool.apply`` does."""
    for op in ops:
        item = item.mapped(_clamp(op.name == "mi", op.selectors[-1].number))
    return item


def _clamp(low: bool, bound: int) -> Callable[[Value], Value]:
    return lambda v: bound if (v < bound if low else v > bound) else v


def _negated(value: Value) -> Value:
    return -value
