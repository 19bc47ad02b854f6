"""Roll a tree from an injected dice source: every die shown as the table would read it.

A die is shown as it fell (``4``), an exploded ``!`` die as its chain (``6+6+2``), a die that
brought another with ``e`` or ``ra`` with a ``!`` (``6!``), a rerolled or raised one as
before and after (``1→5``), a dropped one in brackets (``(1)``), a counted one with ``✓``;
labels stay where they were written.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.notation import pool
from rules.notation.faces import chain_of, die_weights
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

Piece = tuple[str, str]  # text and a style name: "die", "muted", "note" or ""
_REROLLS = 20  # rerolls tried one by one before a die is drawn among the faces left


class RolledDice(NamedTuple):
    """One ``NdS`` as rolled, for ``--json``: each die's faces, and whether it counts."""

    notation: str
    sign: int
    rolls: tuple[tuple[int, ...], ...]
    kept: tuple[bool, ...]
    was: tuple[tuple[Value, ...], ...]


class Rolled(NamedTuple):
    value: Value
    pieces: tuple[Piece, ...]
    dice: tuple[RolledDice, ...]


def roll(node: Node, dice: DiceSource) -> Rolled:
    """Roll every die of the tree; ``Rejected`` only for a division by zero (which the exact
    odds refuse before any roll, see ``exact``)."""
    roller = _Roller(dice)
    value, pieces = roller.node(node, tight=False, sign=1)
    return Rolled(value, tuple(pieces), tuple(roller.groups))


class _Roller:
    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.groups: list[RolledDice] = []

    # --- the Draw of rules.notation.pool ------------------------------------------------------

    def die(self, dice: Dice) -> tuple[int, ...]:
        if dice.percent:
            return ((self.source.roll(10) - 1) * 10,)
        chain = [self.source.roll(dice.sides)]
        while dice.explode and chain[-1] == dice.sides and len(chain) <= MAX_EXPLOSIONS:
            chain.append(self.source.roll(dice.sides))
        return tuple(chain)

    def unlike(self, dice: Dice, op: Op) -> list[tuple[int, ...]]:
        tried: list[tuple[int, ...]] = []
        for _ in range(_REROLLS):
            tried.append(self.die(dice))
            if not op_matches(op, sum(tried[-1])):
                return tried
        # What rolling on would come to, at once: one of the faces left, each as likely
        # as it was (the parser refused a reroll that every face matches).
        left = [(v, w) for v, w in die_weights(dice).items() if not op_matches(op, v)]
        pick = self.source.roll(sum(w for _, w in left))
        for v, w in left:
            if pick <= w:
                return [*tried, chain_of(dice, int(v))]
            pick -= w
        raise AssertionError("a pick beyond the weights")  # pragma: no cover

    # --- the tree ---------------------------------------------------------------------------

    def node(self, node: Node, *, tight: bool, sign: int) -> tuple[Value, list[Piece]]:
        match node:
            case Number(value=value, text=text, labels=labels):
                return value, [(text, ""), *_labels(labels)]
            case Dice():
                return self.dice(node, tight=tight, sign=sign)
            case Group():
                return self.group(node)
            case Paren(inner=inner, labels=labels):
                value, pieces = self.node(inner, tight=False, sign=sign)
                return value, [("(", ""), *pieces, (")", ""), *_labels(labels)]
            case Unary(op=op, operand=operand):
                inner_sign = -sign if op == "-" else sign
                value, pieces = self.node(operand, tight=True, sign=inner_sign)
                return (-value if op == "-" else value), [(op, ""), *pieces]
            case Binary(op=op, left=left, right=right):
                close = op not in ("+", "-")
                a, left_pieces = self.node(left, tight=close, sign=sign)
                right_sign = -sign if op == "-" else sign
                b, right_pieces = self.node(right, tight=close, sign=right_sign)
                return apply_binary(op, a, b, node), [*left_pieces, (f" {op} ", ""), *right_pieces]
        raise TypeError(node)

    def dice(self, node: Dice, *, tight: bool, sign: int) -> tuple[Value, list[Piece]]:
        entries = [pool.Entry(self.die(node)) for _ in range(node.quantity)]
        pool.apply(entries, node.ops, node, self)
        counting = bool(node.ops) and node.ops[-1].name == "c"
        pieces: list[Piece] = []
        for entry in entries:
            if pieces:
                pieces.append((" ", ""))
            pieces.append(_die(entry, counting and pool.matched(entry, node.ops)))
        if not entries:
            pieces.append(("0", "muted"))
        if tight and len(entries) > 1:
            pieces = [("(", ""), *pieces, (")", "")]
        self.groups.append(
            RolledDice(
                _written(node),
                sign,
                tuple(e.chain for e in entries),
                tuple(e.kept for e in entries),
                tuple(tuple(e.was) for e in entries),
            )
        )
        return pool.value(entries, node.ops), [*pieces, *_labels(node.labels)]

    def group(self, node: Group) -> tuple[Value, list[Piece]]:
        entries: list[pool.Entry] = []
        shown: list[list[Piece]] = []
        for item in node.items:
            value, pieces = self.node(item, tight=False, sign=1)
            entries.append(pool.Entry((), value))
            shown.append(pieces)
        pool.apply(entries, node.ops, None, self)
        counting = bool(node.ops) and node.ops[-1].name == "c"
        out: list[Piece] = [("(", "")]
        for index, (entry, pieces) in enumerate(zip(entries, shown, strict=True)):
            if index:
                out.append((", ", ""))
            if not entry.kept:
                out += [("(", "muted"), *((t, "muted") for t, _ in pieces), (")", "muted")]
            else:
                out += pieces
                if counting and pool.matched(entry, node.ops):
                    out.append(("✓", "note"))
        out.append((")", ""))
        return pool.value(entries, node.ops), [*out, *_labels(node.labels)]


def apply_binary(op: str, a: Value, b: Value, node: Node) -> Value:
    """``a op b`` as d20 works it: ``/`` exact (a total is cut to a whole number only at
    the end), ``//`` and ``%`` as Python's, a comparison 1 or 0."""
    if op in ("/", "//", "%") and b == 0:
        raise Rejected(f"{notation(node)}: nothing divides by 0")
    match op:
        case "+":
            return a + b
        case "-":
            return a - b
        case "*":
            return a * b
        case "/":
            from fractions import Fraction

            quotient = Fraction(a) / b
            return quotient.numerator if quotient.denominator == 1 else quotient
        case "//":
            return a // b
        case "%":
            return a % b
    if op in COMPARISONS:
        return int(compare(op, a, b))
    raise ValueError(op)


def compare(op: str, a: Value, b: Value) -> bool:
    match op:
        case "==":
            return a == b
        case "!=":
            return a != b
        case ">=":
            return a >= b
        case "<=":
            return a <= b
        case ">":
            return a > b
    return a < b


def op_matches(op: Op, value: Value) -> bool:
    return any(s.matches(value) for s in op.selectors)


def _die(entry: pool.Entry, counted: bool) -> Piece:
    face = "+".join(str(f) for f in entry.chain) if len(entry.chain) > 1 else str(entry.value)
    if entry.was:
        now = face if entry.chain and sum(entry.chain) == entry.value else str(entry.value)
        face = "→".join([*(str(w) for w in entry.was), now])
    if entry.exploded:
        face += "!"
    if not entry.kept:
        return (f"({face})", "muted")
    return (face + "✓", "die") if counted else (face, "die")


@lru_cache(maxsize=256)
def _written(node: Dice) -> str:
    """A pool's notation without its labels (``--json`` gives it with each roll), written
    once a pool: a forecast rolls the same damage thousands of times."""
    return notation(node._replace(labels=()))


def _labels(labels: tuple[str, ...]) -> list[Piece]:
    return [(f" [{label}]", "note") for label in labels]
