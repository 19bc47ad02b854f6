"""A one-line choice: ←/→ (or space) cycle through the options. No dropdown to open."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Choice(Widget, can_focus=True):
    BINDINGS = [
        Binding("right,space,l", "step(1)", "Next option", show=False),
        Binding("left,h", "step(-1)", "Previous option", show=False),
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

    def watch_index(self) -> None:
        self.post_message(self.Changed(self, self.value))

    def render(self) -> Text:
        label = self.options[self.index][1] if self.options else "—"
        return Text.assemble(("◀ ", "dim"), label, (" ▶", "dim"))
