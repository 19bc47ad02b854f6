"""Damage in dice notation (``rules.notation``): a sheet's "1d8+3 slashing" read into dice
and a type, its dice doubled on a critical, rolled with every die kept, and its exact
distribution after resistance, vulnerability or immunity. No msgspec."""

from __future__ import annotations

from functools import lru_cache

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.notation.exact import Distribution, distribution
from rules.notation.parse import parse
from rules.notation.roll import Piece, roll
from rules.notation.tree import Binary, Dice, Group, Node, Paren, Unary, notation

MAX_TYPE = 20  # characters of a damage type


def split_damage(text: str) -> tuple[str, str]:
    """ "1d8+3 slashing" as its notation ("1d8+3") and its type ("slashing"; "" for none);
    ``Rejected`` in one line when the dice cannot be read."""
    words = text.split()
    kind = ""
    if len(words) > 1 and words[-1].isalpha():
        kind = words.pop().lower()
    if len(kind) > MAX_TYPE:
        raise Rejected(f"a damage type is at most {MAX_TYPE} letters")
    dice = "".join(words)
    if not dice:
        raise Rejected("damage needs dice, like 1d8+3 slashing")
    tree(dice)  # refuses what cannot be read
    worked_out(dice, False)  # or worked out exactly
    return notation(tree(dice)), kind


@lru_cache(maxsize=256)
def tree(text: str) -> Node:
    """The notation read once (a forecast rolls the same few damages many times)."""
    return parse(text)


def doubled(node: Node) -> Node:
    """The tree with every die rolled twice as many times: a critical hit's damage."""
    match node:
        case Dice():
            return node._replace(quantity=node.quantity * 2)
        case Group(items=items):
            return node._replace(items=tuple(doubled(item) for item in items))
        case Paren(inner=inner):
            return node._replace(inner=doubled(inner))
        case Unary(operand=operand):
            return node._replace(operand=doubled(operand))
        case Binary(left=left, right=right):
            return node._replace(left=doubled(left), right=doubled(right))
    return node


@lru_cache(maxsize=256)
def worked_out(text: str, critical: bool) -> Distribution:
    """The exact distribution of the damage rolled (before any resistance), never below 0."""
    node = tree(text)
    return distribution(doubled(node) if critical else node).mapped(lambda v: max(int(v), 0))


def rolled(text: str, critical: bool, dice: DiceSource) -> tuple[int, tuple[Piece, ...], str]:
    """The damage rolled: its total (never below 0), the dice as they fell, and the notation
    rolled (doubled on a critical)."""
    node = tree(text)
    if critical:
        node = doubled(node)
    result = roll(node, dice)
    return max(int(result.value), 0), result.pieces, notation(node)


def modifier_of(
    kind: str, resist: tuple[str, ...], vulnerable: tuple[str, ...], immune: tuple[str, ...]
) -> str:
    """What the target's sheet does to a damage type: "immune", "resistant", "vulnerable"
    or ""."""
    if kind and kind in immune:
        return "immune"
    if kind and kind in resist and kind not in vulnerable:
        return "resistant"
    if kind and kind in vulnerable and kind not in resist:
        return "vulnerable"
    return ""


def adjusted(amount: int, modifier: str, half: bool = False) -> int:
    """Damage after a save's half (rounded down) and then the target's modifier."""
    if half:
        amount //= 2
    match modifier:
        case "immune":
            return 0
        case "resistant":
            return amount // 2
        case "vulnerable":
            return amount * 2
    return amount
