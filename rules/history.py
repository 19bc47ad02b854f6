"""The event log of an encounter, with undo and redo recorded in it.

The log only grows: undo and redo are records of their own, so a journal can be appended
to and a replay sees them. Each ``Applied`` record holds the events of one command, which
is the unit of undo.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from msgspec import Struct

from rules.encounter import Encounter, Event
from rules.engine import apply, initial_state
from rules.errors import Rejected
from rules.events import EncounterCreated


class Applied(Struct, frozen=True, tag="applied"):
    events: tuple[Event, ...]
    label: str = ""


class Undone(Struct, frozen=True, tag="undone"):
    """Takes back the newest applied record still in effect."""


class Redone(Struct, frozen=True, tag="redone"):
    """Puts back the newest undone record."""


Record = Applied | Undone | Redone


class History:
    """The log, the records in effect, and the state after each of them."""

    def __init__(self, created: EncounterCreated) -> None:
        opening = Applied((created,), "new encounter")
        self.records: list[Record] = [opening]
        self._done: list[tuple[Applied, Encounter]] = [(opening, initial_state(created))]
        self._undone: list[tuple[Applied, Encounter]] = []

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> History:
        it = iter(records)
        first = next(it, None)
        if not (
            isinstance(first, Applied)
            and len(first.events) == 1
            and isinstance(first.events[0], EncounterCreated)
        ):
            raise ValueError("a log must open with the creation of the encounter")
        history = cls(first.events[0])
        history.records[0] = first
        history._done[0] = (first, history._done[0][1])
        for record in it:
            history._replay(record)
        return history

    @property
    def state(self) -> Encounter:
        return self._done[-1][1]

    @property
    def can_undo(self) -> bool:
        return len(self._done) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def commit(self, events: Iterable[Event], label: str = "") -> Applied:
        record = Applied(tuple(events), label)
        self._replay(record)
        return record

    def undo(self) -> Applied:
        if not self.can_undo:
            raise Rejected("nothing to undo")
        undone = self._done[-1][0]
        self._replay(Undone())
        return undone

    def redo(self) -> Applied:
        if not self.can_redo:
            raise Rejected("nothing to redo")
        redone = self._undone[-1][0]
        self._replay(Redone())
        return redone

    def _replay(self, record: Record) -> None:
        match record:
            case Applied(events=events):
                state = self.state
                for event in events:
                    state = apply(state, event)
                self._done.append((record, state))
                self._undone.clear()
            case Undone():
                if not self.can_undo:
                    raise ValueError("an undo record with nothing to undo")
                self._undone.append(self._done.pop())
            case Redone():
                if not self.can_redo:
                    raise ValueError("a redo record with nothing to redo")
                self._done.append(self._undone.pop())
        self.records.append(record)

    def in_effect(self) -> Iterator[tuple[Event, Encounter]]:
        """Every event in effect, with the state it was applied to (for the log)."""
        before = None
        for record, after in self._done:
            state = before
            for event in record.events:
                if state is not None:
                    yield event, state
                    state = apply(state, event)
                else:
                    yield event, after
            before = after

    def applied_in_effect(self) -> list[Applied]:
        """The records in effect, oldest first (undone ones left out)."""
        return [record for record, _ in self._done]

    def effective_events(self) -> list[Event]:
        return [event for record, _ in self._done for event in record.events]
