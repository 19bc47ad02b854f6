"""How big a number may be, where it enters: light (no msgspec), so ``tracker odds`` can use it.

A modifier is what is added to a roll; none of the four rule texts comes near ``MODIFIER``
(a LiveHack hero's best bonus is in the tens), and exact odds of a bigger one cost time that
grows with it. Other numbers (a track's maximum, a count) are bounded by ``LIMIT``.
"""

from __future__ import annotations

from rules.errors import Rejected

MODIFIER = 100
LIMIT = 1_000_000  # far beyond any number a game uses, and well inside what a save can hold
NAME = 60  # characters of a name (an encounter's, a combatant's), as typed
# A name as read from a save, before the characters that act on a terminal are taken out of
# it: room for a hand-made save's escape sequences, short of what slows a screen (a name of
# 1,000 characters took 3.5 s more to draw the first frame at 80x24; 200, 0.4 s).
SAVED_NAME = 200


def within(value: int, label: str, low: int, high: int) -> int:
    """``value``, or ``Rejected`` naming ``label`` when it is outside ``low..high``."""
    if not low <= value <= high:
        raise Rejected(f"{label} must be between {low:,} and {high:,}, not {value:,}")
    return value


def modifier(value: int, label: str) -> int:
    """``value`` if a roll can be given it: within ``±MODIFIER``."""
    return within(value, label, -MODIFIER, MODIFIER)
