"""A one-line choice: ←/→ (or space) cycle through the options, and letters typed jump to
the first option starting with them. No dropdown to open."""

from __future__ import annotations

from time import monotonic

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

# Seconds between typed letters after which they start a new search ("go" then, later, "o").
PAUSE = 1.0
MOST_TYPED = 40  # letters kept of a search: no option label is longer where it counts


class Choice(Widget, can_focus=True):
    BINDINGS = [
        Binding("right,space,l", "step(1)", "Next option", show=False, id="choice.next"),
        Binding("left,h", "step(-1)", "Previous option", show=False, id="choice.previous"),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, choice: Choice, value: str) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

    def __init__(
        self,
        options: tuple[tuple[str, str], ...],
        value: str = "",
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.options = options
        self.set_reactive(Choice.index, self._index_of(value))
        self.typed = ""  # the letters of the search under way
        self.typed_at = 0.0  # when its last letter came (time.monotonic)

    def reset(self, options: tuple[tuple[str, str], ...], value: str) -> None:
        """Offer other options (a dialog reused for a new question), ``value`` chosen."""
        self.options = options
        self.index = self._index_of(value)
        self.refresh()

    def _index_of(self, value: str) -> int:
        values = [v for v, _ in self.options]
        return values.index(value) if value in values else 0

    @property
    def value(self) -> str:
        return self.options[self.index][0] if self.options else ""

    def action_step(self, delta: int) -> None:
        if self.options:
            self.index = (self.index + delta) % len(self.options)

    def on_key(self, event: events.Key) -> None:
        """A letter or digit searches the options' labels by how they start; one no option
        starts with is left to the bindings (``l`` and ``h`` step, as before)."""
        character = event.character
        if character is None or not character.isalnum():
            return
        now = monotonic()
        fresh = now - self.typed_at > PAUSE
        self.typed_at = now
        typed = (character if fresh else self.typed + character)[:MOST_TYPED]
        found = self._starting_with(typed)
        if found is None and not fresh:  # no option goes on so: a new search from this letter
            typed, found = character, self._starting_with(character)
        self.typed = typed if found is not None else ""
        if found is None:
            return
        event.stop()
        event.prevent_default()
        self.index = found

    def _starting_with(self, typed: str) -> int | None:
        """The first option, from the top, whose label starts with ``typed`` (any case)."""
        wanted = typed.casefold()
        labels = (label.casefold() for _, label in self.options)
        return next((at for at, label in enumerate(labels) if label.startswith(wanted)), None)

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def render(self) -> Text:
        label = self.options[self.index][1] if self.options else "—"
        return Text.assemble(("◀ ", "dim"), label, (" ▶", "dim"))
