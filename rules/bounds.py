"""How big a number may be, where it enters: light (no msgspec), so ``tracker odds`` can use it.

A modifier is what is added to a roll; none of the four rule texts comes near ``MODIFIER``
(a LiveHack hero's best bonus is in the tens), and exact odds of a bigger one cost time that
grows with it. Other numbers typed (a track's maximum) are bounded by ``LIMIT``; how many
of a thing a fight may hold (combatants, conditions, any list in a save), by the counts below.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.errors import Rejected

MODIFIER = 100
LIMIT = 1_000_000  # far beyond any number a game uses, and well inside what a save can hold
NAME = 60  # characters of a name (an encounter's, a combatant's), as typed
# A name as read from a save, before the characters that act on a terminal are taken out of
# it: room for a hand-made save's escape sequences, short of what slows a screen (a name of
# 1,000 characters took 3.5 s more to draw the first frame at 80x24; 200, 0.4 s).
SAVED_NAME = 200
# Characters of any other text typed (a note, a sheet's field, a reason): a page of it. A
# longer one in a save is refused as it is opened, like a longer name.
TEXT = 4000
# How big any number in a record or a state may be, either way: far beyond what the rules
# make of bounded input, short of a count that would keep a loop or a screen busy for ever.
SAVED_NUMBER = 10**9

# --- counts: how many of a thing a fight (and so a save) may hold --------------------------
# Each is refused in one line where a save is read and where a command would pass it; a
# count a system keeps on its sheets (a Multiattack) is bounded in its folder, by its type.
#
# Combatants in one encounter: five times the biggest fight measured (200,
# docs/contributing/performance.md), and short of what stalls: with 20,000 log entries, 1,000 drew
# their first frame in 2.5 s of CPU and exported in 7 s and 200 MB, where a save of 20,000 took 3.3
# GB to export.
COMBATANTS = 1_000
# Conditions one combatant may be given by a command (a table tracks a handful) ...
CONDITIONS = 50
# ... and may carry in a save: room for those a system puts on by itself (dead, an effect's),
# short of what slows the screen (20,000 on each of a few goblins did not draw in 600 s; 100 on
# each of 1,000 combatants drew in 5 s of CPU).
SAVED_CONDITIONS = 2 * CONDITIONS
# Any other list in a record or a state (the events of one record, the dice of a roll, a
# sheet's skills): the longest play makes is one record's events when every condition of every
# combatant expires at once (COMBATANTS x SAVED_CONDITIONS), with room for the solo sides'
# answer; short of the tens of millions of small items a 64 MB save could spell.
SAVED_COUNT = 2 * COMBATANTS * SAVED_CONDITIONS


def within(value: int, label: str, low: int, high: int) -> int:
    """``value``, or ``Rejected`` naming ``label`` when it is outside ``low..high``."""
    if not low <= value <= high:
        raise Rejected(f"{label} must be between {low:,} and {high:,}, not {value:,}")
    return value


def modifier(value: int, label: str) -> int:
    """``value`` if a roll can be given it: within ``±MODIFIER``."""
    return within(value, label, -MODIFIER, MODIFIER)


def out_of_bounds(value: object) -> str | None:
    """What in ``value`` (a Struct, or tuples, lists and dicts of them) no input could hold:
    a text longer than ``TEXT``, a number beyond ``SAVED_NUMBER`` (or not a number), a list
    of more than ``SAVED_COUNT`` items; None if nothing. A command is checked with it as it
    comes in, a record as a save is opened."""
    if isinstance(value, str):
        if len(value) > TEXT:
            return f"a text is {len(value):,} characters long (at most {TEXT:,})"
        return None
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        if not -SAVED_NUMBER <= value <= SAVED_NUMBER:  # NaN is not either
            shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
            return f"a number is {shown} (at most {SAVED_NUMBER:,} either way)"
        return None
    fields = getattr(type(value), "__struct_fields__", None)
    items: Iterable[object]
    if fields is not None:
        items = [getattr(value, name) for name in fields]
    elif isinstance(value, tuple | list | set | frozenset | dict):
        if len(value) > SAVED_COUNT:
            return f"a list holds {len(value):,} items (at most {SAVED_COUNT:,})"
        if isinstance(value, dict):
            items = (part for pair in value.items() for part in pair)
        else:
            items = value
    else:
        return None
    for item in items:
        # Most parts are a flag, a short text or a small number: seen here, without a call
        # for each (every command is checked, a forecast's thousands of moves among them).
        if (
            type(item) is bool
            or (type(item) is str and len(item) <= TEXT)
            or (type(item) is int and -SAVED_NUMBER <= item <= SAVED_NUMBER)
        ):
            continue
        if (found := out_of_bounds(item)) is not None:
            return found
    return None
