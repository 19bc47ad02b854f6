"""Turn times, read off the wall times the app stamps on its records (``Applied.at``).

The rules have no clock: a turn begins with the record that gives it (a turn passed, the
first turn given by a sort of the order) and ends with the next such record. Its time is the
time between its records' stamps, less any break: a gap of ``BREAK`` or more between two of
them, with nothing saved, is the table away (a meal, the end of an evening, the fight closed
until next week), not a turn being played. Records without a stamp (an older save, a test)
time nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from rules.encounter import AnyEncounter
from rules.events import OrderSorted, TurnAdvanced
from rules.history import Applied, History
from rules.table_options import clock_text

# An hour with nothing saved is a break. A turn of a live fight saves something far more
# often (a roll, a note, a condition), and a GM's limit (``:clock``) is minutes.
BREAK = 3600.0


class Turn(NamedTuple):
    combatant_id: str
    round: int
    seconds: float


class Took(NamedTuple):
    """One combatant's time over the fight: in all, its turns, and its longest."""

    combatant_id: str
    name: str
    total: float
    turns: int
    longest: float


def _given(record: Applied[Any], acting: str | None) -> tuple[str | None, int | None]:
    """Whom ``record`` gives a turn to (None: nobody new), and the round it says."""
    given: str | None = None
    round_: int | None = None
    for event in record.events:
        if isinstance(event, TurnAdvanced):
            round_ = event.round
            if event.actor_id is not None:
                given = acting = event.actor_id
        elif isinstance(event, OrderSorted) and event.current_id not in (None, acting):
            given = acting = event.current_id
    return given, round_


def _stamp(record: Applied[Any]) -> float | None:
    at = record.at
    return at if at is not None and math.isfinite(at) else None


def _played(earlier: float, later: float) -> float:
    """The time between two stamps that was play: none across a break (or a clock set back)."""
    gap = later - earlier
    return gap if 0 <= gap < BREAK else 0.0


def turns(records: Iterable[Applied[Any]]) -> list[Turn]:
    """Every turn timed from start to end, in order (the one still going is left out)."""
    out: list[Turn] = []
    acting: tuple[str, int] | None = None  # who, the round: a turn timed from its start
    played = 0.0  # its time so far, to...
    last: float | None = None  # ...its newest stamp
    current: str | None = None
    round_ = 1
    for record in records:
        given, said = _given(record, current)
        round_ = said or round_
        at = _stamp(record)
        if at is not None:
            played += _played(last, at) if last is not None else 0.0
            last = at
        if given is None:
            continue
        if acting is not None and at is not None:
            out.append(Turn(acting[0], acting[1], played))
        current = given
        acting = (given, round_) if at is not None else None
        played, last = 0.0, at
    return out


def started(
    records_newest_first: Iterable[Applied[Any]],
    current_id: str | None,
    opened: float | None = None,
) -> float | None:
    """When the turn going on now began, as its clock counts: the clock reads now less this.
    Breaks are left out (see ``BREAK``), and the fight's opening (``opened``, by the same
    clock) counts as a stamp: a fight closed for a break mid-turn counts on from where it
    was left, from its opening, and goes on so as changes are saved. None when it is
    unknown (no stamp, or nobody acts)."""
    if current_id is None:
        return None
    played = 0.0  # the turn's time from its start to its newest stamp
    newest: float | None = None
    later: float | None = None
    for record in records_newest_first:
        at = _stamp(record)
        if at is not None:
            played += _span(at, later, opened) if later is not None else 0.0
            newest = at if newest is None else newest
            later = at
        given, _ = _given(record, None)
        if given is None:
            continue
        if given != current_id or at is None or newest is None:
            return None
        if opened is not None and opened > newest:  # nothing saved since the opening
            return opened - played - _played(newest, opened)
        return newest - played
    return None


def _span(earlier: float, later: float, opened: float | None) -> float:
    """The time played between two stamps, the opening between them counted as one."""
    if opened is not None and earlier < opened < later:
        return _played(earlier, opened) + _played(opened, later)
    return _played(earlier, later)


def took(found: Sequence[Turn], state: AnyEncounter) -> list[Took]:
    """Each combatant's time over its turns, the longest in all first; only those ``state``
    holds (a reader's view leaves out whom it may not see)."""
    by_id: dict[str, list[float]] = {}
    for turn in found:
        if state.find(turn.combatant_id) is not None:
            by_id.setdefault(turn.combatant_id, []).append(turn.seconds)
    out = [
        Took(cid, state.name_of(cid), sum(times), len(times), max(times))
        for cid, times in by_id.items()
    ]
    return sorted(out, key=lambda t: -t.total)


def spent(seconds: float) -> str:
    """A time as the summary shows it: ``2:05``."""
    return clock_text(round(seconds))


def took_line(entry: Took) -> str:
    """ "Orla 5:10 over 3 turns (longest 2:31)"."""
    count = f"{entry.turns} turn{'s' * (entry.turns != 1)}"
    return f"{entry.name} {spent(entry.total)} over {count} (longest {spent(entry.longest)})"


def history_turns(history: History) -> list[Turn]:
    """The turns timed in a whole history (the GM's), from its records in effect."""
    return turns(history.applied_in_effect())


def history_started(history: History, opened: float | None = None) -> float | None:
    """When the turn now going on in a whole history (the GM's) began (see ``started``)."""
    return started(history.newest_in_effect(), history.state.current_id, opened)
