"""Dice sources. The rules never pick numbers themselves: a source is passed in."""

from collections.abc import Iterable
from random import Random
from typing import Protocol


class DiceSource(Protocol):
    """Anything that can roll one die of a given size."""

    def roll(self, sides: int) -> int: ...


class SeededDice:
    """Play dice: a private PRNG seeded once, so a seed reproduces a whole session."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = Random(seed)

    def roll(self, sides: int) -> int:
        # randint(1, sides) is 1 + randrange(sides), face for face, one call layer slower.
        return self._random.randrange(sides) + 1


class ScriptExhausted(Exception):
    """A scripted source was asked for more dice than it was given."""


class ScriptedDice:
    """Test dice: hands out the given faces in order, checking each fits the die."""

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def roll(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise ScriptExhausted(f"no scripted face left for a d{sides}")
        face = self._faces[self._next]
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} cannot come up on a d{sides}")
        self._next += 1
        return face


def roll_exploding(dice: DiceSource, sides: int) -> tuple[int, ...]:
    """Roll one die, rolling again for as long as it shows its highest face."""
    chain = [dice.roll(sides)]
    while chain[-1] == sides:
        chain.append(dice.roll(sides))
    return tuple(chain)


class AnyFace:
    """Dry-run dice: every die shows 1. For building what a command would do (its parts, or
    whether it is allowed) when the faces are never read."""

    def roll(self, sides: int) -> int:
        return 1


ANY_FACE = AnyFace()
