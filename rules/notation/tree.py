"""A line of dice notation as a tree, its bounds, and the tree written back as notation.

NamedTuples, not dataclasses: ``dataclasses`` imports ``inspect``, a good part of the start-up
time of the headless commands that read dice.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from rules.bounds import LIMIT

MAX_TEXT = 150  # characters of notation
MAX_DEPTH = 20  # parentheses and signs inside each other
MAX_PARTS = 60  # numbers, dice, sets and operators
MAX_DICE = 100  # dice written, all terms together (before rerolls and explosions)
MAX_SIDES = 1000
MAX_NUMBER = LIMIT
MAX_ITEMS = 20  # values in one set
MAX_OPS = 10  # operations after one die or set
MAX_LABEL = 30  # characters of one label
MAX_EXPLOSIONS = 10  # extra dice one die may bring (``!``, ``e``, ``ra``)

Value = int | Fraction

COMPARISONS = ("==", "!=", ">=", "<=", ">", "<")
# What each operation does, for the help and for refusals that name it.
OPERATIONS = {
    "k": "keep",
    "p": "drop",
    "rr": "reroll until it no longer matches",
    "ro": "reroll once",
    "ra": "reroll and add, once",
    "e": "explode",
    "mi": "minimum",
    "ma": "maximum",
    "c": "count the dice that match",
}


class Selector(NamedTuple):
    """Which dice an operation takes: ``h3`` (the 3 highest), ``l1``, ``>4``, ``<3``, ``>=8``,
    ``<=2`` or a bare number (those showing it; ``kind`` "=")."""

    kind: str
    number: int

    def matches(self, value: Value) -> bool:
        match self.kind:
            case "<":
                return value < self.number
            case ">":
                return value > self.number
            case "<=":
                return value <= self.number
            case ">=":
                return value >= self.number
            case "=":
                return value == self.number
        raise ValueError(self.kind)  # h and l rank, they match no single value

    @property
    def ranks(self) -> bool:
        return self.kind in ("h", "l")

    def text(self, op: str) -> str:
        # A bare number keeps its d20 meaning after rr, ro, ra and e; after k and p it is
        # refused (see parse), so there an "equals" selector is written with its "=".
        if self.kind == "=":
            return f"={self.number}" if op in ("k", "p", "c") else str(self.number)
        return f"{self.kind}{self.number}"


class Op(NamedTuple):
    """One operation on a pool with its selectors: ``k1k2`` is one keep of both (as d20)."""

    name: str
    selectors: tuple[Selector, ...]

    @property
    def text(self) -> str:
        return "".join(self.name + s.text(self.name) for s in self.selectors)


class Number(NamedTuple):
    value: Value
    text: str
    labels: tuple[str, ...] = ()


class Dice(NamedTuple):
    """``quantity`` dice of ``sides`` (``d%``: a tens die, 0 to 90, as d20 has it), ``!``
    exploding, then ``ops``; ``wraps`` are parentheses around the dice and the ops so far
    (``(10d6kh5)kl2`` is 10d6 with kh5 and then, not merged with it, kl2)."""

    quantity: int
    sides: int
    percent: bool = False
    explode: bool = False
    ops: tuple[Op, ...] = ()
    wraps: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()

    @property
    def faces(self) -> tuple[int, ...]:
        if self.percent:
            return tuple(range(0, 100, 10))
        return tuple(range(1, self.sides + 1))


class Group(NamedTuple):
    """A set, ``(1d4, 2+2, 3d6kl1)``, whose values keep or drop as a die would."""

    items: tuple[Node, ...]
    ops: tuple[Op, ...] = ()
    wraps: tuple[int, ...] = ()
    labels: tuple[str, ...] = ()


class Paren(NamedTuple):
    inner: Node
    labels: tuple[str, ...] = ()


class Unary(NamedTuple):
    op: str
    operand: Node


class Binary(NamedTuple):
    op: str
    left: Node
    right: Node


Node = Number | Dice | Group | Paren | Unary | Binary
Pool = Dice | Group


def counts(node: Node) -> bool:
    """Whether a pool's last operation counts dice (``c``): its value is then a count."""
    return isinstance(node, Dice | Group) and bool(node.ops) and node.ops[-1].name == "c"


def notation(node: Node) -> str:
    """The tree written out: ``d6+2`` is ``1d6+2``, comparisons spaced (``1d20 >= 15``)."""
    match node:
        case Number(text=text, labels=labels):
            return text + _labels(labels)
        case Dice() | Group():
            return _pool(node)
        case Paren(inner=inner, labels=labels):
            return f"({notation(inner)}){_labels(labels)}"
        case Unary(op=op, operand=operand):
            return op + notation(operand)
        case Binary(op=op, left=left, right=right):
            before = notation(left)
            gap = " " if op in COMPARISONS or before.endswith("]") else ""  # after a label
            return f"{before}{gap}{op}{gap}{notation(right)}"
    raise TypeError(node)


def _pool(node: Pool) -> str:
    if isinstance(node, Dice):
        text = f"{node.quantity}d{'%' if node.percent else node.sides}{'!' if node.explode else ''}"
    else:
        items = ", ".join(notation(item) for item in node.items)
        text = f"({items},)" if len(node.items) == 1 else f"({items})"
    done = 0
    for wrap in node.wraps:
        text = "(" + text + "".join(op.text for op in node.ops[done:wrap]) + ")"
        done = wrap
    return text + "".join(op.text for op in node.ops[done:]) + _labels(node.labels)


def _labels(labels: tuple[str, ...]) -> str:
    return "".join(f" [{label}]" for label in labels)
