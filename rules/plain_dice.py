"""Plain dice in standard notation, in any system: ``2d6+3``, ``4d6kh3``, ``2d20kl1``, ``3d6!``.

Pure: a line is parsed into an ``Expression`` (bounded, or ``Rejected`` with one line), rolled
from an injected ``DiceSource`` (every die of every exploding chain kept), and its total's
exact distribution worked out as whole-number weights over one denominator, so the mean and
the chance of reaching a number are exact fractions.

Notation: terms joined by ``+`` and ``-``; a term is a number or ``NdS`` (N defaults to 1)
with ``!`` (a die showing its highest face is rolled again and added, at most
``MAX_EXPLOSIONS`` times, so the odds are exact too) and then ``khK`` / ``klK`` (keep the K
highest or lowest dice, K defaults to 1). ``>= N`` after it asks the chance of N or more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from msgspec import Struct

from rules.bounds import LIMIT, within
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.logline import Line, Span, spans
from rules.odds import percent

MAX_TEXT = 100  # characters of notation
MAX_TERMS = 20
MAX_DICE = 100  # dice rolled at once (before explosions)
MAX_SIDES = 1000
MAX_CONSTANT = 1000
MAX_EXPLOSIONS = 10  # a die's extra rolls: 6^-10 is the chance a d6 would want more
# Steps of arithmetic the exact distribution may take (a second or so at worst): what
# notation within the bounds above can still ask for beyond it is refused as too big.
MAX_WORK = 1_500_000

EXAMPLES = "like 2d6+3, 4d6kh3, 3d6!, 1d20+5 >= 15"
_TERM = re.compile(r"([0-9]*)d([0-9]+)(!?)(?:(kh|kl)([0-9]*))?|([0-9]+)")
_SIGN = re.compile(r"\s*([+-])\s*")
_LOOKS = re.compile(r"[0-9dkhl!+\-\s>=≥]*[0-9]*d[0-9][0-9dkhl!+\-\s>=≥]*", re.IGNORECASE)


@dataclass(frozen=True)
class Term:
    """``count`` dice of ``sides`` sides, added (``sign`` 1) or taken away (-1)."""

    count: int
    sides: int
    sign: int = 1
    explode: bool = False
    keep: str = ""  # "", "kh" (keep the highest) or "kl" (keep the lowest)
    keep_count: int = 0

    @property
    def notation(self) -> str:
        keep = f"{self.keep}{self.keep_count}" if self.keep else ""
        return f"{self.count}d{self.sides}{'!' if self.explode else ''}{keep}"


@dataclass(frozen=True)
class Expression:
    terms: tuple[Term, ...]
    constant: int = 0
    at_least: int | None = None

    @property
    def notation(self) -> str:
        """The expression written out in full: ``d6+2`` is ``1d6+2``."""
        parts = [("-" if t.sign < 0 else "+") + t.notation for t in self.terms]
        if self.constant:
            parts.append(f"{self.constant:+d}")
        text = "".join(parts).removeprefix("+")
        return text if self.at_least is None else f"{text} >= {self.at_least}"


class Group(Struct, frozen=True):
    """One term as rolled: each die's chain (one face, or more when it exploded) and whether
    the die counts (a kept die; every die counts without ``kh``/``kl``)."""

    notation: str
    sign: int
    chains: tuple[tuple[int, ...], ...]
    kept: tuple[bool, ...]

    @property
    def value(self) -> int:
        return self.sign * sum(sum(c) for c, k in zip(self.chains, self.kept, strict=True) if k)


@dataclass(frozen=True)
class Rolled:
    groups: tuple[Group, ...]
    constant: int

    @property
    def total(self) -> int:
        return sum(g.value for g in self.groups) + self.constant


def looks_like_dice(text: str) -> bool:
    """Whether a line is written as dice notation (then it is read as dice, and its mistakes
    are told as dice mistakes) rather than as words: ``2d6+3``, ``d20 >= 15``, ``4d6kh3``."""
    return bool(_LOOKS.fullmatch(text.strip()))


def parse(text: str) -> Expression:
    """The expression a line writes; ``Rejected`` with one line when it cannot be rolled."""
    if len(text) > MAX_TEXT:
        raise Rejected(f"dice notation is at most {MAX_TEXT} characters")
    line = text.strip().casefold().replace("≥", ">=")
    if not line:
        raise Rejected(f"type some dice, {EXAMPLES}")
    at_least = None
    if ">=" in line:
        line, _, goal = line.partition(">=")
        goal = goal.strip()
        if not re.fullmatch(r"-?[0-9]+", goal):
            raise Rejected(f"after >= comes a whole number, not {goal!r}")
        at_least = within(int(goal), "the number after >=", -LIMIT, LIMIT)
    terms: list[Term] = []
    constant = 0
    position, sign = 0, 1
    found = _SIGN.match(line, position)
    if found and found.group(1) == "-":
        sign, position = -1, found.end()
    elif found:
        position = found.end()
    while True:
        line = line.rstrip()
        term = _TERM.match(line, position)
        if term is None or term.end() == position:
            rest = line[position:] or "the end"
            raise Rejected(f"cannot read dice at {rest!r}: write them {EXAMPLES}")
        if term.group(6) is not None:
            constant += sign * within(int(term.group(6)), "a number", 0, MAX_CONSTANT)
        else:
            terms.append(_term(term, sign))
        position = term.end()
        if position >= len(line):
            break
        found = _SIGN.match(line, position)
        if found is None:
            raise Rejected(f"cannot read dice at {line[position:]!r}: join terms with + or -")
        sign, position = (-1 if found.group(1) == "-" else 1), found.end()
    if not terms:
        raise Rejected(f"{text.strip()!r} has no dice in it: write them {EXAMPLES}")
    if len(terms) > MAX_TERMS:
        raise Rejected(f"at most {MAX_TERMS} kinds of dice at once")
    dice = sum(t.count for t in terms)
    if dice > MAX_DICE:
        raise Rejected(f"at most {MAX_DICE} dice at once, not {dice}")
    within(constant, "the numbers added", -MAX_CONSTANT, MAX_CONSTANT)
    expression = Expression(tuple(terms), constant, at_least)
    if _work(expression) > MAX_WORK:
        raise Rejected(
            f"{expression.notation} has too many possible totals to work out exactly: "
            "roll fewer or smaller dice"
        )
    return expression


def _term(found: re.Match[str], sign: int) -> Term:
    count = int(found.group(1)) if found.group(1) else 1
    sides = int(found.group(2))
    explode = bool(found.group(3))
    keep = found.group(4) or ""
    keep_count = (int(found.group(5)) if found.group(5) else 1) if keep else 0
    written = found.group(0)
    if not 1 <= count <= MAX_DICE:
        raise Rejected(f"{written}: roll 1 to {MAX_DICE} dice, not {count}")
    if not 2 <= sides <= MAX_SIDES:
        raise Rejected(f"{written}: a die has 2 to {MAX_SIDES:,} sides, not {sides:,}")
    if keep and not 1 <= keep_count <= count:
        raise Rejected(f"{written}: keep 1 to {count} of the {count} dice, not {keep_count}")
    if keep and keep_count == count:
        keep, keep_count = "", 0  # keeping every die is no keeping
    return Term(count, sides, sign, explode, keep, keep_count)


# --- rolling ------------------------------------------------------------------------------


def roll(expression: Expression, dice: DiceSource) -> Rolled:
    """Roll every die (exploding ones while they show their highest face, within bounds)."""
    groups = []
    for term in expression.terms:
        chains = tuple(_chain(dice, term) for _ in range(term.count))
        groups.append(Group(term.notation, term.sign, chains, _kept(term, chains)))
    return Rolled(tuple(groups), expression.constant)


def _chain(dice: DiceSource, term: Term) -> tuple[int, ...]:
    chain = [dice.roll(term.sides)]
    while term.explode and chain[-1] == term.sides and len(chain) <= MAX_EXPLOSIONS:
        chain.append(dice.roll(term.sides))
    return tuple(chain)


def _kept(term: Term, chains: Sequence[tuple[int, ...]]) -> tuple[bool, ...]:
    if not term.keep:
        return (True,) * len(chains)
    # The highest (or lowest) values; between equal dice, the first rolled.
    order = sorted(range(len(chains)), key=lambda i: (sum(chains[i]), -i), reverse=True)
    if term.keep == "kl":
        order = sorted(range(len(chains)), key=lambda i: (sum(chains[i]), i))
    chosen = set(order[: term.keep_count])
    return tuple(i in chosen for i in range(len(chains)))


# --- the exact distribution -----------------------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """Each total's whole-number weight; a total's chance is its weight over ``denominator``."""

    weights: dict[int, int]
    denominator: int

    def chance(self, total: int) -> Fraction:
        return Fraction(self.weights.get(total, 0), self.denominator)

    def at_least(self, goal: int) -> Fraction:
        return Fraction(sum(w for t, w in self.weights.items() if t >= goal), self.denominator)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(t * w for t, w in self.weights.items()), self.denominator)


def _blocks(sides: int, explode: bool) -> tuple[list[tuple[int, int, int]], int]:
    """One die as runs of equally likely values, ``(low, high, weight)``, and the weights'
    denominator: each face alike, or, exploding, the chains of at most ``MAX_EXPLOSIONS``
    extra rolls (a chain of j rolls that stops there has chance sides^-j)."""
    if not explode:
        return [(1, sides, 1)], sides
    depth = MAX_EXPLOSIONS
    blocks = [(k * sides + 1, k * sides + sides - 1, sides ** (depth - k)) for k in range(depth)]
    blocks.append((depth * sides + 1, depth * sides + sides, 1))  # the last roll stops anyway
    return blocks, sides ** (depth + 1)


def die(sides: int, explode: bool) -> Distribution:
    """One die's distribution (see ``_blocks``)."""
    blocks, denominator = _blocks(sides, explode)
    weights = {v: w for low, high, w in blocks for v in range(low, high + 1)}
    return Distribution(weights, denominator)


def distribution(expression: Expression) -> Distribution:
    """The exact distribution of the expression's total."""
    total = Distribution({expression.constant: 1}, 1)
    for term in expression.terms:
        part = _term_distribution(term)
        if term.sign < 0:
            part = Distribution({-v: w for v, w in part.weights.items()}, part.denominator)
        total = _add(total, part)
    return total


def _add(a: Distribution, b: Distribution) -> Distribution:
    out: dict[int, int] = {}
    for x, wx in a.weights.items():
        for y, wy in b.weights.items():
            out[x + y] = out.get(x + y, 0) + wx * wy
    return Distribution(out, a.denominator * b.denominator)


def _term_distribution(term: Term) -> Distribution:
    if term.keep:
        one = die(term.sides, term.explode)
        return _keep(one, term.count, term.keep_count, highest=term.keep == "kh")
    return _sum_of(term.count, *_blocks(term.sides, term.explode))


def _sum_of(count: int, blocks: list[tuple[int, int, int]], denominator: int) -> Distribution:
    """The total of ``count`` such dice, a die at a time: the weight of a new total is, for
    each run of the die, the run's weight times a window of the old totals (prefix sums)."""
    low, weights = 0, [1]  # weights[i]: the weight of the total low + i
    smallest, largest = blocks[0][0], blocks[-1][1]
    for _ in range(count):
        prefix = [0]
        for weight in weights:
            prefix.append(prefix[-1] + weight)
        top = len(weights) - 1
        out = [0] * (top + largest - smallest + 1)
        for run_low, run_high, run_weight in blocks:
            for offset in range(run_low, top + run_high + 1):
                first, last = max(0, offset - run_high), min(top, offset - run_low)
                if first <= last:
                    out[offset - smallest] += run_weight * (prefix[last + 1] - prefix[first])
        low, weights = low + smallest, out
    totals = {low + i: w for i, w in enumerate(weights) if w}
    return Distribution(totals, denominator**count)


def _keep(one: Distribution, count: int, keep: int, *, highest: bool) -> Distribution:
    """The sum of the ``keep`` highest (or lowest) of ``count`` such dice: the values taken
    from the best down, choosing how many dice show each, and the ways they can."""
    states: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, sum kept) -> weight
    values = sorted(one.weights, reverse=highest)
    for index, value in enumerate(values):
        weight = one.weights[value]
        last = index == len(values) - 1
        following: dict[tuple[int, int], int] = {}
        for (placed, kept_sum), ways in states.items():
            left = count - placed
            for here in range(left if last else 0, left + 1):
                taken = min(here, max(0, keep - placed))
                key = (placed + here, kept_sum + taken * value)
                following[key] = following.get(key, 0) + ways * comb(left, here) * weight**here
        states = following
    return Distribution({s: w for (_, s), w in states.items()}, one.denominator**count)


def _work(expression: Expression) -> int:
    """About how many steps ``distribution`` takes, worked out from the sizes alone."""
    work, width = 0, 1
    for term in expression.terms:
        values = term.sides * (MAX_EXPLOSIONS + 1) if term.explode else term.sides
        span = term.sides * (MAX_EXPLOSIONS + 1) if term.explode else term.sides
        if term.keep:
            sums = term.keep_count * span + 1
            work += values * (term.count + 1) ** 2 * sums // 2
            term_width = sums
        else:
            runs = MAX_EXPLOSIONS + 1 if term.explode else 1
            term_width = 1
            for _ in range(term.count):
                work += runs * (term_width + span)
                term_width += span
        work += width * term_width
        width += term_width
    return work


# --- the event ------------------------------------------------------------------------------


class DiceRolled(Struct, frozen=True, tag="dice-rolled"):
    """A core event: plain dice, every die as rolled, the total, and the exact mean and
    chance worked out when rolled (fractions as text: they outgrow a saved integer)."""

    notation: str
    groups: tuple[Group, ...]
    constant: int
    total: int
    mean: str
    at_least: int | None = None
    chance: str = ""  # of ``at_least`` or more


def rolled(notation: str, dice: DiceSource) -> DiceRolled:
    """Parse, roll and work out the odds of a line of dice notation: the event it makes."""
    expression = parse(notation)
    result = roll(expression, dice)
    odds = distribution(expression)
    goal = expression.at_least
    return DiceRolled(
        notation=expression.notation,
        groups=result.groups,
        constant=result.constant,
        total=result.total,
        mean=str(odds.mean),
        at_least=goal,
        chance=str(odds.at_least(goal)) if goal is not None else "",
    )


def line(event: DiceRolled) -> Line:
    """``🎲 4d6kh3 >= 12: 6 5 3 (1) = 14 · mean 12.24 · 12+: 1/2 (50.0%)``: every die, an
    exploded one as its chain (``6+6+2``), one not kept in brackets."""
    parts: list[str | Span] = [Span("🎲 ", "muted"), Span(event.notation, "name"), ":"]
    for index, group in enumerate(event.groups):
        if group.sign < 0 or index:
            parts.append(" -" if group.sign < 0 else " +")
        for chain, kept in zip(group.chains, group.kept, strict=True):
            face = "+".join(str(f) for f in chain)
            parts += [" ", Span(face, "die") if kept else Span(f"({face})", "muted")]
    if event.constant:
        parts.append(f" {'-' if event.constant < 0 else '+'} {abs(event.constant)}")
    parts += [" = ", Span(str(event.total), "tier"), f" · mean {figure(Fraction(event.mean))}"]
    if event.at_least is not None:
        parts.append(f" · {event.at_least}+: {chance_text(Fraction(event.chance))}")
    return spans(*parts)


def figure(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{float(value):.2f}"


def chance_text(chance: Fraction) -> str:
    """A chance as a percentage, after its fraction when that is short: ``1/6 (16.7%)``."""
    shown = percent(chance)
    return f"{chance} ({shown})" if chance.denominator <= 1000 and 0 < chance < 1 else shown
