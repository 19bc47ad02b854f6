"""What one die can show: a face, or with ``!`` the total of its chain of faces (a top face
rolls again and adds, at most ``MAX_EXPLOSIONS`` more times; the last roll stops anyway)."""

from __future__ import annotations

from rules.notation.tree import MAX_EXPLOSIONS, Dice, Value


def die_weights(dice: Dice) -> dict[Value, int]:
    """One die's values and their weights, over ``die_denominator``: a chain of j rolls
    that stops there has chance sides^-j."""
    if dice.percent or not dice.explode:
        return {v: 1 for v in dice.faces}
    top, depth = dice.sides, MAX_EXPLOSIONS
    weights: dict[Value, int] = {}
    for k in range(depth):
        for r in range(1, top):
            weights[k * top + r] = top ** (depth - k)
    for r in range(1, top + 1):
        weights[depth * top + r] = 1
    return weights


def die_denominator(dice: Dice) -> int:
    if dice.explode and not dice.percent:
        return int(dice.sides ** (MAX_EXPLOSIONS + 1))
    return len(dice.faces)


def support(dice: Dice) -> tuple[Value, ...]:
    return tuple(die_weights(dice))


def chain_of(dice: Dice, total: int) -> tuple[int, ...]:
    """The faces of an exploded ``!`` die that came to ``total``."""
    if not dice.explode:
        return (total,)
    top = dice.sides
    extra = min((total - 1) // top, MAX_EXPLOSIONS)
    return (top,) * extra + (total - extra * top,)
