"""The roll log: every event in effect, newest at the bottom, rolls with their full dice."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.widgets import RichLog

from rules.encounter import Encounter, Event
from rules.engine import describe
from tracker.render import entry_text


class RollLog(RichLog):
    """Entries wrap to the pane; a change of width wraps them again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id, wrap=True, markup=False, highlight=False, auto_scroll=True, min_width=20
        )
        self.entries: list[str] = []  # plain text of each entry, for tests
        self._texts: list[Text] = []
        self._width = 0

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._width and self._texts:
            self._width = width
            super().clear()
            for text in self._texts:
                self.write(text, scroll_end=True)

    def show(self, events: Iterable[tuple[Event, Encounter]], mark_last: bool = False) -> None:
        """Replace the log with these (event, state before it) pairs.

        ``mark_last`` highlights the newest entry, as the replay's current event.
        """
        self.clear()
        self.entries.clear()
        self._texts.clear()
        pairs = list(events)
        self.append(pairs[:-1] if mark_last else pairs)
        if mark_last and pairs:
            event, before = pairs[-1]
            entry = describe(before, event)
            text = Text("▶ ", style="bold") + entry_text(entry)
            text.stylize("reverse")
            self.entries.append("▶ " + entry.plain)
            self._texts.append(text)
            self.write(text, scroll_end=True)

    def append(self, events: Iterable[tuple[Event, Encounter]]) -> None:
        for event, before in events:
            entry = describe(before, event)
            text = entry_text(entry)
            self.entries.append(entry.plain)
            self._texts.append(text)
            self.write(text, scroll_end=True)
