"""The event log of an encounter, with undo and redo recorded in it.

The log only grows: undo and redo are records of their own, so a journal can be appended
to and a replay sees them. Each ``Applied`` record holds the events of one command, which
is the unit of undo.

A history opened from a save is lazy: the state after each record is computed only when undo
needs it, and its records are made inert only when something reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, Generic, Protocol, TypeAlias, TypeVar, cast, overload

from msgspec import Meta, Struct

from rules.bounds import SAVED_COUNT, SAVED_NUMBER
from rules.encounter import AnyEncounter, Event
from rules.engine import apply, initial_state
from rules.errors import Rejected
from rules.events import EncounterCreated

# A record's stamp counts seconds from 2025-01-01 UTC, not from 1970: so it stays within the
# numbers a save may hold (``rules.bounds.SAVED_NUMBER``) until 2056.
STAMP_EPOCH = 1_735_689_600
E = TypeVar("E")  # the events of one system (``rules.snapshot`` decodes with the exact union)


class Applied(Struct, Generic[E], frozen=True, tag="applied"):
    # A save holding more in one record is refused as it is decoded (rules.bounds: why).
    events: Annotated[tuple[E, ...], Meta(max_length=SAVED_COUNT)]
    label: str = ""
    # When the app committed it (seconds since STAMP_EPOCH; None: unknown, an older save or a
    # test): the tracker's turn clock and turn times read it, the rules never do, so a
    # replay folds without a clock.
    at: Annotated[float, Meta(ge=0, le=SAVED_NUMBER)] | None = None


class Undone(Struct, frozen=True, tag="undone"):
    """Takes back the newest applied record still in effect."""


class Redone(Struct, frozen=True, tag="redone"):
    """Puts back the newest undone record."""


Record: TypeAlias = Applied[Any] | Undone | Redone

RECENT = 2000  # records looked back through for what happened lately: a fight's worth and more
KEPT = 64  # records in effect between the states ``History.refold`` keeps
# Records in effect after the state a save keeps near its end (``History.near_end``): more
# log entries than any terminal's lines, so the log a save opens to draws from it alone.
NEAR = 256


class HistoryView(Protocol):
    """What the screens read of a history: the GM's whole one, or a seat's, where a player
    or spectator sees only what their role may (``tracker.serve.seats``)."""

    @property
    def in_effect_folds(self) -> bool:
        """Whether each state ``in_effect`` gives is the one before it with that event
        applied (a fight's first event excepted: the state it is given already holds it),
        so that a log may keep only some of them and fold forward to the others."""
        ...

    @property
    def state(self) -> AnyEncounter: ...

    def in_effect(self) -> Iterable[tuple[Event, AnyEncounter]]: ...

    def in_effect_sparse(self) -> Iterable[tuple[Event, AnyEncounter | None]]:
        """``in_effect``'s pairs for a log; where ``in_effect_folds``, a state is given only
        where it is known without folding (None elsewhere)."""
        ...

    def recent_events(self, limit: int = RECENT) -> Iterator[Event]: ...


_V = TypeVar("_V")


class RecordFinish(Protocol):
    """How a record read from a save is finished (``rules.text.inert_value``): a record, or
    a list of them at once, made safe."""

    def __call__(self, value: _V, /) -> _V: ...


class RecordLog:
    """The records of a log, in order. Those read from a save were decoded as it was opened
    (to check them, and kept: a record is decoded once), or the oldest when first asked for
    (``read``); each is finished by ``finish`` (made inert) on first use, so opening a long
    fight does not walk every text it holds."""

    def __init__(
        self,
        items: Iterable[Record | None] = (),
        finish: RecordFinish | None = None,
        unread: Callable[[], list[Record]] | None = None,
    ) -> None:
        # None for a record not read yet: ``unread`` gives them all, in order, when one is
        # first asked for (a long fight opens reading only its newest records: see ``read``).
        self._items: list[Record | None] = list(items)
        self._unread = unread
        self._finish = finish
        # 1 where a record is still as read, 0 once finished (one byte a record, no objects).
        self._unfinished = bytearray(b"\x01" if finish else b"\x00") * len(self._items)
        # The save format's compressed blocks of the first records (``rules.snapshot``), kept
        # so that a compaction does not compress again what it wrote or read before: the log
        # only grows, so a block once full never changes.
        self.packed: list[bytes] = []

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._items)))]
        item = self._items[index]
        if item is None:
            self.read()
            item = self._items[index]
            assert item is not None
        if self._unfinished[index] and self._finish is not None:
            item = self._finish(item)
            self._items[index] = item
            self._unfinished[index] = 0
        return item

    def __iter__(self) -> Iterator[Record]:
        for index in range(len(self._items)):
            yield self[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordLog | list):
            return list(self) == list(other)
        return NotImplemented

    def append(self, record: Record) -> None:
        self._items.append(record)
        self._unfinished.append(0)

    @property
    def all_read(self) -> bool:
        """Whether every record is read (see ``read``)."""
        return self._unread is None

    def read(self) -> None:
        """Read the records not read yet, at once: what ``unread`` raises for a record that
        cannot be one (a crafted save) is raised here, and they stay unread."""
        if self._unread is None:
            return
        items = self._items
        unread = (index for index, item in enumerate(items) if item is None)
        for index, record in zip(unread, self._unread(), strict=True):
            items[index] = record
        self._unread = None

    def finish_all(self) -> None:
        """Every record finished now: ``finish`` goes through them all in one pass in C (a
        call a record made a long fight's fold 6-30% slower)."""
        self.read()
        if self._finish is None or 1 not in self._unfinished:
            return  # a log made here, not read, or all finished (found in C): nothing to do
        pending = [index for index, flag in enumerate(self._unfinished) if flag]
        if not pending:
            return
        items = self._items
        for index, item in zip(pending, self._finish([items[i] for i in pending]), strict=True):
            items[index] = item
        self._unfinished = bytearray(len(items))

    def encodable(self) -> list[Record]:
        """The records as they can be written: those not yet finished go out as they were
        read (a reader makes them inert again)."""
        self.read()
        return cast("list[Record]", self._items)


class History:
    """The log, the records in effect (with the state after each, where known), and redo."""

    in_effect_folds = True  # see HistoryView

    def __init__(self, created: EncounterCreated) -> None:
        self.records = RecordLog([Applied((created,), "new encounter")])
        # (index of an Applied record, the state after it or None until needed); the top's
        # state is always known.
        self._done: list[tuple[int, AnyEncounter | None]] = [(0, initial_state(created))]
        self._undone: list[int] = []  # indices of undone records, newest last
        # Opened with a state near its end, after this many records in effect (``restore``):
        # the records after it are folded by ``fold_tail``, those before by ``refold``.
        self.near_step = 0
        self._tail_folded = False

    @classmethod
    def from_records(cls, records: Iterable[Record]) -> History:
        """Replay a whole log, checking every record as it goes."""
        it = iter(records)
        first = next(it, None)
        history = cls(_creation(first))
        history.records = RecordLog([_applied_first(first)])
        for record in it:
            history._replay(record)
        return history

    @classmethod
    def restore(
        cls,
        records: RecordLog,
        done: list[int],
        undone: list[int],
        state: AnyEncounter,
        near: tuple[int, AnyEncounter] | None = None,
    ) -> History:
        """A history from a save, without replaying it: ``state`` is the state after ``done``;
        ``near``, the step and the state after ``done[step]`` (``near_end``), known too."""
        history = cls(_creation(records[0]))
        later = done[1:] + undone
        if not done or done[0] != 0 or (later and not 0 < min(later) <= max(later) < len(records)):
            raise ValueError("the records in effect do not fit the log")
        history.records = records
        history._done = [(index, None) for index in done]
        history._done[0] = (0, initial_state(_creation(records[0])))
        history._done[-1] = (done[-1], state)
        history._undone = list(undone)
        if near is not None:
            step, before = near
            if not 0 < step < len(done) - 1:
                raise ValueError("the state kept near the end does not fit the log")
            history._done[step] = (done[step], before)
            history.near_step = step
        return history

    @property
    def near_known(self) -> bool:
        """Opened with a state near its end (``restore``)."""
        return self.near_step > 0

    def fold_tail(self) -> None:
        """Fold the records in effect after the state near the end, keeping each state not
        known: a long fight drawn before its whole log is checked (``refold``) draws from
        these, so a crafted one among them is refused as it opens (those a journal added
        after the snapshot too, though they were folded as they were read). Raises what
        the rules raise."""
        state = self._done[self.near_step][1] if self.near_step < len(self._done) else None
        for step in range(self.near_step + 1, len(self._done)):
            assert state is not None
            index, known = self._done[step]
            state = _fold(state, self._applied(index).events)
            if known is None:
                self._done[step] = (index, state)
        self._tail_folded = True

    # --- reading -------------------------------------------------------------------------------

    @property
    def state(self) -> AnyEncounter:
        return self._state_after(len(self._done) - 1)

    @property
    def can_undo(self) -> bool:
        return len(self._done) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def near_end(self) -> tuple[int, AnyEncounter] | None:
        """The state a save keeps near its end, and its place among the records in effect:
        the one before the last ``NEAR`` (None: the log is shorter). A long fight opens
        drawing its newest entries from it, and checks the rest of its log after."""
        step = len(self._done) - 1 - NEAR
        return (step, self._state_after(step)) if step > 0 else None

    def done_indices(self) -> list[int]:
        """Indices of the records in effect (for the save format)."""
        return [index for index, _ in self._done]

    def undone_indices(self) -> list[int]:
        return list(self._undone)

    def applied_in_effect(self) -> list[Applied[Any]]:
        """The records in effect, oldest first (undone ones left out)."""
        self.records.finish_all()  # in one pass: one a record was most of a long log's cost
        return [self._applied(index) for index, _ in self._done]

    def effective_events(self) -> list[Event]:
        return [event for record in self.applied_in_effect() for event in record.events]

    def recent_events(self, limit: int = RECENT) -> Iterator[Event]:
        """The events in effect, newest first, from the last ``limit`` records only."""
        for index, _ in reversed(self._done[-limit:]):
            record = self.records[index]
            if isinstance(record, Applied):
                yield from reversed(record.events)

    def in_effect(self) -> Iterator[tuple[Event, AnyEncounter]]:
        """Every event in effect, with the state it was applied to (for the log). The
        records are those in effect when called: a worker thread may go through them while
        the history goes on."""
        state = self._done[0][1]
        assert state is not None
        return _pairs(self.applied_in_effect(), state)

    def refold(self) -> None:
        """Fold every record in effect from the start, keeping the state after every
        ``KEPT``-th: a save opened to play is checked so, a crafted log that does not fold
        refused as it opens, not when its log or an undo first folds it; an undo then folds
        at most that many records. Raises what the rules raise for a record that does not
        fold. The state after the last stays the one the save holds, as does the one near
        the end (``restore``); a tail already folded from it (``fold_tail``) is not again."""
        state = self._done[0][1]
        assert state is not None
        self.records.finish_all()
        end = len(self._done)
        if self._tail_folded:
            end = min(self.near_step + 1, end)
        for step in range(1, end):
            index, known = self._done[step]
            state = _fold(state, self._applied(index).events)
            if known is None and step % KEPT == 0:
                self._done[step] = (index, state)

    def in_effect_after(
        self, found: Callable[[AnyEncounter], bool]
    ) -> Iterator[tuple[Event, AnyEncounter]]:
        """``in_effect``'s pairs after the newest record in effect whose state is known
        without folding (``refold`` keeps some, a commit its own) and ``found`` in it, or
        all of them if none is: a view of the fight as players saw it needs only the states
        since the last roll they could see."""
        done = list(self._done)
        for step in range(len(done) - 1, 0, -1):
            state = done[step][1]
            if state is not None and found(state):
                later = [self._applied(index) for index, _ in done[step + 1 :]]
                return _pairs_from(later, state)
        return self.in_effect()

    def in_effect_sparse(self) -> Iterator[tuple[Event, AnyEncounter | None]]:
        """``in_effect``'s events, each record's first given the state after the record
        before where that is known (``refold`` keeps some, a commit its own), every other
        None: a log keeps those and folds forward to the rest as it needs them."""
        done, records = list(self._done), self.applied_in_effect()
        yield records[0].events[0], done[0][1]
        yield from _sparse(done, records[1:])

    def in_effect_tail(self) -> Iterator[tuple[Event, AnyEncounter | None]]:
        """``in_effect_sparse``'s pairs after the state kept near the end (``restore``), or
        all of them if none is: what a long fight's log shows before its older records are
        read (``RecordLog.read``), which this leaves unread."""
        if not self.near_known:
            return self.in_effect_sparse()
        done = self._done[self.near_step :]
        return _sparse(done, [self._applied(index) for index, _ in done[1:]])

    def newest_in_effect(self) -> Iterator[Applied[Any]]:
        """The records in effect, newest first; while the older records are not read
        (``RecordLog.read``), only those after the state kept near the end."""
        first = 0 if self.records.all_read else self.near_step + 1
        for step in range(len(self._done) - 1, first - 1, -1):  # no copy: most stop at once
            yield self._applied(self._done[step][0])

    # --- changing --------------------------------------------------------------------------------

    def commit(
        self, events: Iterable[Event], label: str = "", at: float | None = None
    ) -> Applied[Any]:
        """``at``: the wall time the app gives it (the rules keep it and never read it)."""
        record = Applied(tuple(events), label, at)
        self._replay(record)
        return record

    def undo(self) -> Applied[Any]:
        if not self.can_undo:
            raise Rejected("nothing to undo")
        undone = self._applied(self._done[-1][0])
        self._replay(Undone())
        return undone

    def redo(self) -> Applied[Any]:
        if not self.can_redo:
            raise Rejected("nothing to redo")
        redone = self._applied(self._undone[-1])
        self._replay(Redone())
        return redone

    def _replay(self, record: Record) -> None:
        match record:
            case Applied(events=events):
                self._done.append((len(self.records), _fold(self.state, events)))
                self._undone.clear()
            case Undone():
                if not self.can_undo:
                    raise ValueError("an undo record with nothing to undo")
                index, _ = self._done.pop()
                self._undone.append(index)
                self.state  # noqa: B018 - the new top's state must be known
            case Redone():
                if not self.can_redo:
                    raise ValueError("a redo record with nothing to redo")
                # Redo applies the record again to the state it was first applied to.
                index = self._undone.pop()
                self._done.append((index, _fold(self.state, self._applied(index).events)))
        self.records.append(record)

    # --- helpers ---------------------------------------------------------------------------------

    def _applied(self, index: int) -> Applied[Any]:
        record = self.records[index]
        if not isinstance(record, Applied):
            raise ValueError(f"record {index} is not an applied record")
        return record

    def _state_after(self, position: int) -> AnyEncounter:
        """The state after the ``position``-th record in effect, folding forward if unknown."""
        known = position
        while self._done[known][1] is None:
            known -= 1
        state = self._done[known][1]
        assert state is not None
        for step in range(known + 1, position + 1):
            index, _ = self._done[step]
            state = _fold(state, self._applied(index).events)
            self._done[step] = (index, state)
        return state


def _pairs(
    records: list[Applied[Any]], state: AnyEncounter
) -> Iterator[tuple[Event, AnyEncounter]]:
    yield records[0].events[0], state
    yield from _pairs_from(records[1:], state)


def _pairs_from(
    records: list[Applied[Any]], state: AnyEncounter
) -> Iterator[tuple[Event, AnyEncounter]]:
    """Each event of ``records`` with the state it is applied to, from ``state`` on."""
    for record in records:
        for event in record.events:
            yield event, state
            state = apply(state, event)


def _sparse(
    done: list[tuple[int, AnyEncounter | None]], records: list[Applied[Any]]
) -> Iterator[tuple[Event, AnyEncounter | None]]:
    """Each event of ``records`` (those after ``done``'s first), the first of each given the
    state after the record before where ``done`` knows it, every other None."""
    for (_, before), record in zip(done, records, strict=False):
        for position, event in enumerate(record.events):
            yield event, None if position else before


def _applied_first(record: object) -> Applied[Any]:
    _creation(record)
    assert isinstance(record, Applied)
    return record


def _creation(record: object) -> EncounterCreated:
    if not (
        isinstance(record, Applied)
        and len(record.events) == 1
        and isinstance(record.events[0], EncounterCreated)
    ):
        raise ValueError("a log must open with the creation of the encounter")
    return record.events[0]


def _fold(state: AnyEncounter, events: Iterable[Event]) -> AnyEncounter:
    for event in events:
        state = apply(state, event)
    return state
