"""Turn times, read off the wall times the app stamps on its records (``Applied.at``).

The rules have no clock: a turn begins with the record that gives it (a turn passed, the
first turn given by a sort of the order) and ends with the next such record; its time is the
difference of their stamps. Records without a stamp (an older save, a test) time nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from rules.encounter import AnyEncounter
from rules.events import OrderSorted, TurnAdvanced
from rules.history import Applied, History
from rules.table_options import clock_text


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


def turns(records: Iterable[Applied[Any]]) -> list[Turn]:
    """Every turn timed from start to end, in order (the one still going is left out)."""
    out: list[Turn] = []
    acting: tuple[str, int, float] | None = None  # who, the round, since when
    current: str | None = None
    round_ = 1
    for record in records:
        given, said = _given(record, current)
        round_ = said or round_
        if given is None:
            continue
        at = _stamp(record)
        if acting is not None and at is not None and at >= acting[2]:
            out.append(Turn(acting[0], acting[1], at - acting[2]))
        current = given
        acting = (given, round_, at) if at is not None else None
    return out


def started(records_newest_first: Iterable[Applied[Any]], current_id: str | None) -> float | None:
    """When the turn going on now began: the stamp of the newest record that gave the turn
    to ``current_id``; None when it is unknown (no stamp, or nobody acts)."""
    if current_id is None:
        return None
    for record in records_newest_first:
        given, _ = _given(record, None)
        if given is not None:
            return _stamp(record) if given == current_id else None
    return None


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


def history_started(history: History) -> float | None:
    """When the turn now going on in a whole history (the GM's) began."""
    return started(history.newest_in_effect(), history.state.current_id)
