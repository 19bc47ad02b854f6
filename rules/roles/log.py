"""The log part of the contract: an event's line, and the notifications it is worth."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from rules.encounter import AnyEncounter
from rules.events import ConditionAdded
from rules.logline import LogEntry


class _Noting(Protocol):  # what ``notices`` reads: this part's alerts, the conditions' note
    def alerts(self, state: AnyEncounter, event: Any) -> list[str]: ...

    def condition_note(self, name: str) -> str: ...


class Log(ABC):
    """The log's lines (``describe``, which every system writes) and notifications."""

    # The system's own styles of log lines (``Span.style``), besides the app's
    # (``tracker/terminal/render.py``): a Rich style, where a colour may be a theme's (``$warning``,
    # ``$secondary``...: the app colours it from its theme).
    log_styles: ClassVar[Mapping[str, str]] = {}

    @abstractmethod
    def describe(self, state: AnyEncounter, event: Any) -> LogEntry: ...

    def alerts(self, state: AnyEncounter, event: Any) -> list[str]:
        """Messages worth a notification for an event, e.g. an Eclipse."""
        return []

    def notices(self: _Noting, state: AnyEncounter, event: Any) -> list[str]:
        """Every notification for an event: the system's ``alerts``, and for a condition
        just added the ``condition_note`` on how its name is read. What the screen shows."""
        notes = self.alerts(state, event)
        if isinstance(event, ConditionAdded) and (
            note := self.condition_note(event.condition.name)
        ):
            notes.append(note)
        return notes
