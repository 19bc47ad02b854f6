"""A field that takes dice, on a sheet or in a dialog (damage, hit points, a pool of one
die): the one notation of ``:roll``, ``:dice`` and ``tracker dice``, read and checked with a
refusal naming the field, rolled with every die kept, and worked out exactly.

A system stores what was typed (text) on its sheet and calls, all without msgspec, so its
``tracker odds`` can use them too:

- ``read(text, label)``: the exact odds, or ``Rejected`` naming the field: check a field
  when the sheet is saved, and get its ``distribution`` and ``mean``;
- ``roll(text, label, dice)``: the odds, then every die rolled (``Answer.dice``), from the
  system's ``DiceSource``; ``rules.plain_dice.recorded`` makes it the log's event, to keep in
  the system's own (replayed without dice) and show with ``rules.plain_dice.line``;
- ``count(text, label, sides)``: a number of dice of one size, as a pool field takes it:
  ``3``, ``3d6`` or ``d6``; ``3d8`` on a field of d6 is refused by name;
- ``sizes(text, label)``: a pool of dice of any sizes written as dice added up:
  ``2d10+d4`` is a d10, a d10 and a d4.
"""

from __future__ import annotations

from functools import lru_cache

from rules.bounds import LIMIT
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.notation.answer import Answer, Odds, constant_value, roll_out, work_out
from rules.notation.parse import parse
from rules.notation.tree import Binary, Dice, Node, notation


def read(text: str, label: str, *, goal: bool = False) -> Odds:
    """What a dice field holds, worked out exactly; ``Rejected`` with one line naming the
    field when it cannot be read or worked out, or (unless ``goal``) holds a comparison."""
    try:
        odds = work_out(text)
    except Rejected as refused:
        raise Rejected(f"{label}: {refused.message}") from None
    if odds.goal is not None and not goal:
        raise Rejected(f"{label} takes dice without a goal, not {odds.goal_text!r}")
    return odds


def roll(text: str, label: str, dice: DiceSource, *, goal: bool = False) -> Answer:
    """Read the field as ``read`` does, then roll it: every die, the total, a goal made."""
    return roll_out(read(text, label, goal=goal), dice)


# A pool field's few usual values (a roll form's "0"), read again at every roll of a forecast.
@lru_cache(maxsize=256)
def count(
    text: str,
    label: str,
    sides: int,
    *,
    default: int = 0,
    low: int = -LIMIT,
    high: int = LIMIT,
) -> int:
    """A number of dice of ``sides`` sides: ``3``, ``3d6`` or ``d6`` (one), from ``low`` to
    ``high`` (blank: ``default``); anything else is refused naming the field and its die."""
    if not text.strip():
        return default
    wanted = f"{label}: a number of d{sides}, e.g. 3 or 3d{sides}, not"
    try:
        node = parse(text)
    except Rejected:
        raise Rejected(f"{wanted} {text.strip()!r}") from None
    fixed = constant_value(node)
    match node:
        case _ if isinstance(fixed, int):
            number = fixed
        case Dice(sides=size, ops=(), percent=False, explode=False, labels=()):
            if size != sides:
                raise Rejected(f"{label}: d{sides} only, and {notation(node)!r} rolls d{size}")
            number = node.quantity
        case _:
            raise Rejected(f"{wanted} {notation(node)!r}")
    if not low <= number <= high:
        raise Rejected(f"{label} must be between {low:,} and {high:,}")
    return number


def sizes(text: str, label: str) -> tuple[int, ...]:
    """The sides of each die of a pool written as dice added up (``2d10+d4``: 10, 10, 4);
    a pool's dice are each its own, so anything else (``2d10-d4``, ``kh1``) is refused."""
    try:
        node = parse(text)
    except Rejected as refused:
        raise Rejected(f"{label}: {refused.message}") from None
    return tuple(_sides(node, label))


def _sides(node: Node, label: str) -> list[int]:
    match node:
        case Binary(op="+", left=left, right=right):
            return _sides(left, label) + _sides(right, label)
        case Dice(ops=(), percent=False, explode=False):
            return [node.sides] * node.quantity
    raise Rejected(f"{label} is dice added up, e.g. 2d10+d4, not {notation(node)!r}")
