"""The encounter session: the event bus between the views and the rules.

A view sends a command; the session asks the rules for the events, commits them to the
history, saves, and then tells every subscriber. Views never change the state themselves,
so any number of them (local panes, later remote seats) can share one session.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rules import solo, turn_times
from rules.dice import DiceSource
from rules.encounter import AnyEncounter, Event
from rules.engine import apply, decide, fold_onto
from rules.errors import Rejected
from rules.history import STAMP_EPOCH, Applied, History
from rules.outcome import Outcome, outcome
from rules.permissions import leaves_waiting, may_undo, refusal
from rules.registry import get_system
from rules.system import RuleSystem
from rules.text import inert
from rules.visibility import GM, Viewer
from tracker.store import storage


@dataclass(frozen=True)
class Change:
    """What happened to the encounter; ``record`` is the command's record (or the one undone)."""

    kind: Literal["applied", "undone", "redone"]
    record: Applied[Any]
    before: AnyEncounter
    state: AnyEncounter
    save_error: str | None = None
    # A seat's whole log is to be read again, not only this record's lines (a side's hit
    # points now shown otherwise: tracker/serve/seats.py).
    anew: bool = False

    def happened(self) -> list[tuple[Event, AnyEncounter]]:
        """Each event of the record with the state it was applied to (for the log).

        An undone record was applied to the state the undo goes back to.
        """
        pairs, state = [], self.state if self.kind == "undone" else self.before
        for event in self.record.events:
            pairs.append((event, state))
            state = apply(state, event)
        return pairs


Subscriber = Callable[[Change], None]


class EncounterSession:
    COMPACT_EVERY = 500  # records in the journal before it is folded into the snapshot

    def __init__(
        self,
        history: History,
        dice: DiceSource,
        path: Path | None = None,
        lock: storage.SaveLock | None = None,
        save_id: bytes | None = None,
        checked: bool = True,
    ) -> None:
        """``lock``: the save's, held by this session from now on (``close`` releases it);
        ``save_id``: the save's id, if known (else read from the save when first needed);
        ``checked``: False for a save opened before its log was folded (``check``)."""
        self.history = history
        self._checked = checked
        self.refused: str | None = None  # why the save opened cannot be played (``check``)
        self.dice = dice
        self.path = path
        self._lock = lock
        self._subscribers: list[Subscriber] = []
        self._journal = storage.Journal(path, save_id) if path is not None else None
        self._since_compaction = 0
        # A journal only makes sense after a snapshot: write one first if there is none yet,
        # and again after a failed append, which would leave a gap in the journal.
        self._needs_snapshot = path is not None and not path.exists()
        # Nothing recorded since the last snapshot: a second save (quitting saves, then the
        # launcher closes) would rewrite the whole file for nothing.
        self._saved = False
        self._outcome: tuple[AnyEncounter, Outcome] | None = None  # the last state asked about
        # When the fight was opened here, by ``clock``: taken as the turn clock is first
        # asked (as the fight is first shown), so a clock a test sets is the one read.
        self._opened: float | None = None
        # The headline of the end the GM plays on past ("Fight over: foes won"): every seat's
        # turns run on from then (not saved: a fight opened again asks again).
        self.playing_on: str | None = None

    @classmethod
    def resume(
        cls, opened: storage.Opened, dice: DiceSource
    ) -> tuple[EncounterSession, str | None]:
        """A session on an opened save; a repaired one first sheds its torn journal end."""
        session = cls(
            opened.history, dice, opened.path, opened.lock, opened.save_id, opened.checked
        )
        error = session.save() if opened.repaired else None
        return session, error

    @property
    def checked(self) -> bool:
        """Whether the save's whole log is read and folded (``check``)."""
        return self._checked

    def check(self) -> str | None:
        """Fold the whole log of a save opened before it was (``storage.open_save``'s
        check_later), once: the app asks after its first frame, and before any input. A log
        that does not fold is refused, in one line (returned, and kept in ``refused``): its
        files are let go, and nothing is ever written to them."""
        if not self._checked:
            self._checked = True
            try:
                storage.refolded(self.path or Path(), self.history)
            except storage.SaveError as exc:
                self.refused = str(exc)
                self.let_go()
        return self.refused

    @property
    def state(self) -> AnyEncounter:
        return self.history.state

    @property
    def system(self) -> RuleSystem:
        return get_system(self.state.system)

    def clock(self) -> float | None:
        """The wall time a record is stamped with (the turn clock's); a test sets its own, or
        None to stamp nothing (a screenshot, which a running clock would change). Seconds from
        ``STAMP_EPOCH``, as a save keeps them."""
        return time.time() - STAMP_EPOCH

    def turn_times(self) -> list[turn_times.Turn]:
        """Every turn the records' stamps time, in order."""
        return turn_times.history_turns(self.history)

    def turn_started(self) -> float | None:
        """When the turn going on now began, as its clock counts: by the records' stamps,
        breaks left out, and timed from this opening after one (None: unknown)."""
        if self._opened is None:
            self._opened = self.clock()
        return turn_times.history_started(self.history, self._opened)

    def outcome(self) -> Outcome:
        """Whether the fight is over, and who won: worked out once a state (a served table's
        every seat asks, twice a change)."""
        state = self.state
        known = self._outcome
        if known is None or known[0] is not state:
            known = self._outcome = (state, outcome(state))
        return known[1]

    def stopped(self) -> bool:
        """Whether the fight is over and the GM has not chosen to play on past its end."""
        result = self.outcome()
        return result.over and result.headline != self.playing_on

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def allows(self, action: str, argument: str = "") -> bool:
        """Whether the screen offers an action; a view for one seat answers for its role."""
        return True

    def acts_for(self) -> frozenset[str] | None:
        """The combatants this view acts for (a player's seat: theirs); None: everyone."""
        return None

    def refusal(self, command: object) -> str | None:
        """Why this view may not give ``command`` now (rules.permissions), or None: the
        GM's may give any."""
        return None

    def execute(
        self,
        command: object,
        label: str = "",
        choices: Sequence[solo.Move] = (),
        viewer: Viewer = GM,
    ) -> Applied[Any] | None:
        """Run a command; raises ``Rejected`` with a message for the user. None: no change.

        ``choices`` are what the tracker chose inside the command for its solo sides
        (``rules.solo.fill``); they are logged before the command's own events. ``viewer``
        is who gives the command: what their role may not do is refused here, a player's
        roll over a result still waiting too.
        """
        before = self.state
        why = refusal(before, viewer, command)
        if why is not None:
            raise Rejected(why)
        events = decide(before, command, self.dice)
        if not events:
            return None
        # Asked here, of the real state: a seat's view may not hold what waits (a GM-only
        # combatant's roll), and its player's roll must not leave it behind unlogged.
        why = leaves_waiting(before, viewer, command, events)
        if why is not None:
            raise Rejected(why)
        events = [*solo.choices_events(before, list(choices)), *events]
        events += solo.respond(fold_onto(before, events), self.dice)
        # The label is what was typed (`:init Orla 1d20+5` with a control character in it):
        # inert as the command is, since the journal keeps it.
        record = self.history.commit(events, inert(label) or type(command).__name__, self.clock())
        self._publish("applied", record, before)
        return record

    def undo(self, viewer: Viewer = GM) -> Applied[Any]:
        if not may_undo(viewer):
            raise Rejected("Only the GM can undo")
        before = self.state
        record = self.history.undo()
        self._publish("undone", record, before)
        return record

    def redo(self, viewer: Viewer = GM) -> Applied[Any]:
        if not may_undo(viewer):
            raise Rejected("Only the GM can redo")
        before = self.state
        record = self.history.redo()
        self._publish("redone", record, before)
        return record

    def save(self) -> str | None:
        """Write a fresh snapshot and empty the journal; returns the error line, if any."""
        if self.check() is not None:
            return None  # a refused save: never written (the app says why as it ends)
        if self._journal is None or self._saved:
            return None
        try:
            self._journal.compact(self.history)
        except storage.SaveError as exc:
            self._needs_snapshot = True
            return str(exc)
        self._since_compaction = 0
        self._needs_snapshot = False
        self._saved = True
        return None

    def close(self) -> str | None:
        """Compact and let go of the files (on a clean exit)."""
        error = self.save()
        self.let_go()
        return error

    def let_go(self) -> None:
        """Let go of the files without saving: later changes are not written anywhere."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _record(self) -> str | None:
        """Make the newest record durable: one journal append, now and then a compaction."""
        if self.check() is not None or self._journal is None:
            return None
        self._saved = False
        if self._needs_snapshot:
            return self.save()
        try:
            self._journal.append(len(self.history.records) - 1, self.history.records[-1])
        except storage.SaveError as exc:
            self._needs_snapshot = True
            return str(exc)
        self._since_compaction += 1
        if self._since_compaction >= self.COMPACT_EVERY:
            return self.save()
        return None

    def _publish(
        self,
        kind: Literal["applied", "undone", "redone"],
        record: Applied[Any],
        before: AnyEncounter,
    ) -> None:
        # Saved before anyone is told, so nothing on screen is ahead of the disk.
        change = Change(kind, record, before, self.state, self._record())
        for subscriber in list(self._subscribers):
            subscriber(change)
