"""A line of dice notation answered: its exact odds worked out first (so what cannot be
worked out is refused before a die is rolled), then rolled, with the goal made or missed.

A comparison at the top (``1d20+5 >= 15``) is a goal: the total is its left side, and the
answer says whether this roll made it and the exact chance it would. A total that is not a
whole number (``15/2``) is cut toward zero at the end, as d20 does.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from rules.dice import DiceSource
from rules.errors import Rejected
from rules.notation.exact import Budget, Distribution, TooBig, chance_of, distribution
from rules.notation.parse import parse
from rules.notation.roll import Piece, RolledDice, compare, roll
from rules.notation.tree import COMPARISONS, Binary, Node, Number, Paren, Unary, Value, notation


class Odds(NamedTuple):
    """What a line asks, worked out: the total's exact distribution and the goal's chance."""

    notation: str
    total: Node
    goal_op: str  # "" without a goal
    goal: Node | None
    odds: Distribution  # of the whole-number total
    chance: Fraction | None  # that the goal is made

    @property
    def goal_text(self) -> str:
        return f"{self.goal_op} {notation(self.goal)}" if self.goal is not None else ""

    @property
    def at_least(self) -> int | None:
        """N when the goal is ``>= N`` for a whole number N (the older, shorter answer)."""
        if self.goal_op != ">=" or self.goal is None:
            return None
        fixed = constant_value(self.goal)
        return fixed if isinstance(fixed, int) else None


class Answer(NamedTuple):
    odds: Odds
    total: int
    pieces: tuple[Piece, ...]
    dice: tuple[RolledDice, ...]
    goal_value: Value | None
    made: bool | None
    constant: Value
    against: str  # a goal with dice in it, as its dice fell: "19", "4 2 + 3 = 9"


# Lines worked out lately, refusals too: a line whose odds a worker thread worked out (the
# ``:`` prompt's, off the app's loop) is then rolled at once, and a line typed again (or a
# sheet's damage, a form's field) costs nothing. Bounded, oldest out first.
_WORKED: dict[str, Odds | Rejected] = {}
MOST_KEPT = 128
# Steps of work a line may take on an app's loop before it is worked out in a thread: about
# 15 ms (a step is about a third of a microsecond, ``rules.notation.exact``).
QUICK = 50_000


def work_out(text: str) -> Odds:
    """Parse and work out the exact odds; ``Rejected`` with one line if either cannot be."""
    found = _WORKED.get(text)
    if found is None:
        try:
            found = _worked_out(text)
        except Rejected as exc:
            found = type(exc)(exc.message)  # kept without its traceback
        _keep(text, found)
    if isinstance(found, Rejected):
        raise type(found)(found.message)
    return found


def ready(text: str, steps: int = QUICK) -> bool:
    """Whether ``work_out(text)`` answers at once: the line is kept, or its odds (or its
    refusal) take at most ``steps`` of work, and are now kept. False: it may take longer,
    so a caller with an event loop works it out in a thread first."""
    if text in _WORKED:
        return True
    try:
        found: Odds | Rejected = _worked_out(text, Budget(steps))
    except TooBig:  # too big for a moment's work, perhaps not for the whole budget
        return False
    except Rejected as exc:
        found = type(exc)(exc.message)
    _keep(text, found)
    return True


def _keep(text: str, found: Odds | Rejected) -> None:
    while len(_WORKED) >= MOST_KEPT:
        _WORKED.pop(next(iter(_WORKED)), None)
    _WORKED[text] = found


def _worked_out(text: str, budget: Budget | None = None) -> Odds:
    tree = parse(text)
    budget = budget or Budget()
    op, goal = "", None
    total = tree
    if isinstance(tree, Binary) and tree.op in COMPARISONS:
        op, total, goal = tree.op, tree.left, tree.right
    left = distribution(total, budget)
    chance = None
    if goal is not None:
        chance = chance_of(op, left, distribution(goal, budget), budget)
    whole = left.mapped(int, budget)
    return Odds(notation(tree), total, op, goal, whole, chance)


def answer(text: str, dice: DiceSource) -> Answer:
    """Work out the odds, then roll every die."""
    return roll_out(work_out(text), dice)


def roll_out(odds: Odds, dice: DiceSource) -> Answer:
    """Roll every die of a line whose odds are worked out."""
    rolled = roll(odds.total, dice)
    pieces = rolled.pieces
    made = goal_value = None
    dice_rolled, against = rolled.dice, ""
    if odds.goal is not None:
        goal = roll(odds.goal, dice)
        goal_value = goal.value
        made = compare(odds.goal_op, rolled.value, goal.value)
        dice_rolled += goal.dice
        if goal.dice:  # a goal with dice in it: say how they fell
            against = "".join(text for text, _ in goal.pieces)
            if len(goal.pieces) > 1:
                against += f" = {int(goal.value)}"
    total = int(rolled.value)
    return Answer(odds, total, pieces, dice_rolled, goal_value, made, constant(odds.total), against)


def constant(node: Node, sign: int = 1) -> Value:
    """The numbers added to the dice at the top of the expression (``2d6+3-1``: 2)."""
    match node:
        case Number(value=value):
            return sign * value
        case Unary(op=op, operand=operand):
            return constant(operand, -sign if op == "-" else sign)
        case Binary(op="+" | "-", left=left, right=right):
            return constant(left, sign) + constant(right, -sign if node.op == "-" else sign)
    return 0


def constant_value(node: Node) -> Value | None:
    """The value of a part with no dice in it, or None."""
    match node:
        case Number(value=value):
            return value
        case Paren(inner=inner):
            return constant_value(inner)
        case Unary(op=op, operand=operand):
            part = constant_value(operand)
            return None if part is None else (-part if op == "-" else part)
    return None
