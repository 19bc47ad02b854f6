"""The encounter session: the event bus between the views and the rules.

A view sends a command; the session asks the rules for the events, commits them to the
history, saves, and then tells every subscriber. Views never change the state themselves,
so any number of them (local panes, later remote seats) can share one session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rules.dice import DiceSource
from rules.encounter import Encounter
from rules.engine import decide
from rules.history import Applied, History
from rules.system import RuleSystem
from rules.systems import get_system
from tracker import storage


@dataclass(frozen=True)
class Change:
    """What happened to the encounter; ``record`` is the command's record (or the one undone)."""

    kind: Literal["applied", "undone", "redone"]
    record: Applied
    before: Encounter
    state: Encounter
    save_error: str | None = None


Subscriber = Callable[[Change], None]


class EncounterSession:
    def __init__(self, history: History, dice: DiceSource, path: Path | None = None) -> None:
        self.history = history
        self.dice = dice
        self.path = path
        self._subscribers: list[Subscriber] = []

    @property
    def state(self) -> Encounter:
        return self.history.state

    @property
    def system(self) -> RuleSystem:
        return get_system(self.state.system)

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def execute(self, command: object, label: str = "") -> Applied | None:
        """Run a command; raises ``Rejected`` with a message for the user. None: no change."""
        before = self.state
        events = decide(before, command, self.dice)
        if not events:
            return None
        record = self.history.commit(events, label or type(command).__name__)
        self._publish("applied", record, before)
        return record

    def undo(self) -> Applied:
        before = self.state
        record = self.history.undo()
        self._publish("undone", record, before)
        return record

    def redo(self) -> Applied:
        before = self.state
        record = self.history.redo()
        self._publish("redone", record, before)
        return record

    def save(self) -> str | None:
        """Write the encounter; returns the error line, if any. The history stays in memory."""
        if self.path is None:
            return None
        try:
            storage.write(self.path, self.history)
        except storage.SaveError as exc:
            return str(exc)
        return None

    def _publish(
        self, kind: Literal["applied", "undone", "redone"], record: Applied, before: Encounter
    ) -> None:
        # Saved before anyone is told, so nothing on screen is ahead of the disk.
        change = Change(kind, record, before, self.state, self.save())
        for subscriber in list(self._subscribers):
            subscriber(change)
