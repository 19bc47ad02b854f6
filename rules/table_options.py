"""A table's options for one encounter, set by the GM (``:clock 2m``, ``:init each-round on``).

They are encounter state like any other: a ``SetOption`` command decided into an
``OptionSet`` event, folded, undone and replayed. An option's value travels as words in the
event and is read again as it is folded, so a save never holds a value its option refuses.
"""

from __future__ import annotations

import re
from typing import Annotated

from msgspec import Meta, Struct, structs

from rules.bounds import COMBATANTS
from rules.errors import Rejected
from rules.events import OptionSet

TURN_LIMIT_MOST = 24 * 60 * 60  # seconds: a day, beyond any table's turn
ON, OFF = ("on", "yes", "true"), ("off", "no", "false")
# "90", "90s", "2m", "1m30s", "1:30": a turn's limit
_SPAN = re.compile(r"(?:(?P<m>[0-9]{1,5})m)?(?:(?P<s>[0-9]{1,6})s?)?")
_CLOCK = re.compile(r"(?P<m>[0-9]{1,5}):(?P<s>[0-5][0-9])")


class TableOptions(Struct, frozen=True, kw_only=True):
    """The options, each at its default until the GM sets it."""

    turn_limit: int = 0  # seconds a turn should take before the clock warns; 0: no limit
    reroll_each_round: bool = False  # everyone's initiative rolled again as a round begins
    surprise_way: str = ""  # one of the system's ``surprise_ways`` ("": its first)
    # (side, "band" | "hidden"): how a seat sees that side's hit points (rules.hp_view);
    # a side not listed is shown exactly.
    hp_views: Annotated[tuple[tuple[str, str], ...], Meta(max_length=COMBATANTS)] = ()


NAMES = ("turn-limit", "init-each-round", "surprise-way", "hp-view")
WAY = 20  # characters of a way's name


def seconds(text: str) -> int:
    """A span of time as typed: ``90``, ``90s``, ``2m``, ``1m30s``, ``1:30``; ``off`` or 0 for
    none. ``Rejected`` with one line otherwise."""
    word = text.strip().casefold()
    if word in OFF or word == "0":
        return 0
    found = _CLOCK.fullmatch(word) or _SPAN.fullmatch(word)
    if not word or found is None:
        raise Rejected(f"a turn's limit is like 90s, 2m, 1m30s or 1:30 (or off), not {text!r}")
    total = int(found.group("m") or 0) * 60 + int(found.group("s") or 0)
    if not 0 <= total <= TURN_LIMIT_MOST:
        raise Rejected(f"a turn's limit is at most {TURN_LIMIT_MOST // 3600} hours")
    return total


HP_MODES = ("exact", "band", "hidden")


def read_views(views: tuple[tuple[str, str], ...], value: str) -> tuple[tuple[str, str], ...]:
    """The hit point views with ``value`` ("MODE SIDE") set: exact drops the side's entry."""
    mode, _, side = value.strip().partition(" ")
    mode, side = mode.casefold(), side.strip()
    if mode not in HP_MODES or not side:
        raise Rejected(f"hit points are shown {', '.join(HP_MODES)}: :hp SIDE MODE")
    kept = tuple((s, m) for s, m in views if s != side)
    return kept if mode == "exact" else (*kept, (side, mode))


def switch(text: str, name: str) -> bool:
    word = text.strip().casefold()
    if word in ON:
        return True
    if word in OFF:
        return False
    raise Rejected(f"{name} is on or off, not {text!r}")


def clock_text(total: int) -> str:
    """``2:05`` for 125 seconds; ``1:02:05`` past an hour."""
    total = max(0, total)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def read(options: TableOptions, name: str, value: str) -> TableOptions:
    """``options`` with ``name`` set from ``value``'s words; ``Rejected`` when it cannot be."""
    match name:
        case "turn-limit":
            return structs.replace(options, turn_limit=seconds(value))
        case "init-each-round":
            return structs.replace(options, reroll_each_round=switch(value, "init each-round"))
        case "hp-view":
            return structs.replace(options, hp_views=read_views(options.hp_views, value))
        case "surprise-way":
            way = value.strip().casefold()
            if not way or len(way) > WAY:
                raise Rejected(f"a way of surprise is a word, not {value!r}")
            return structs.replace(options, surprise_way=way)
    raise Rejected(f"no table option {name!r} (options: {', '.join(NAMES)})")


def decide(options: TableOptions, name: str, value: str) -> list[OptionSet]:
    """The event setting an option, none when it is set so already."""
    changed = read(options, name, value)
    if changed == options:
        return []
    mode, _, side = value.strip().partition(" ")
    said = f"{mode.casefold()} {side.strip()}" if name == "hp-view" else value
    return [OptionSet(name, canonical(changed, name, said))]


def canonical(options: TableOptions, name: str, value: str = "") -> str:
    """An option's value as the event keeps it (and the log shows it)."""
    if name == "turn-limit":
        return clock_text(options.turn_limit) if options.turn_limit else "off"
    if name == "surprise-way":
        return options.surprise_way
    if name == "hp-view":
        return value
    return "on" if options.reroll_each_round else "off"


def described(event: OptionSet) -> str:
    """The log's words for an option set."""
    if event.name == "turn-limit":
        off = event.value == "off"
        return "The turn clock has no limit" if off else f"A turn's limit is {event.value}"
    if event.name == "init-each-round":
        each = "rolled again each round" if event.value == "on" else "kept from round to round"
        return f"Initiative is {each}"
    if event.name == "surprise-way":
        return f"Surprise is played the {event.value} way"
    if event.name == "hp-view":
        mode, _, side = event.value.partition(" ")
        how = {"exact": "exactly", "band": "as a band", "hidden": "not at all"}.get(mode, mode)
        return f"Players see the hit points of {side} {how}"
    return f"Option {event.name}: {event.value}"
