"""The last step of the two-key flow: what applying the roll's result would do, to confirm."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from rules.logline import Line
from tracker.terminal.render import STYLES, line_text


class ApplyResultScreen(ModalScreen[bool]):
    """Enter (or y) applies, Esc (or n) skips."""

    BINDINGS = [
        Binding("enter,y", "answer(True)", "Apply", id="apply_result.yes"),
        Binding("escape,n", "answer(False)", "Skip", id="apply_result.no"),
    ]

    def __init__(self, lines: list[Line], styles: Mapping[str, str] = STYLES) -> None:
        super().__init__()
        self.lines = lines
        self.log_styles = styles  # the system's too (``tracker.terminal.render.styles_of``)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Apply the result?", style="bold"))
            if self.lines:
                yield Static(
                    Text("\n").join(line_text(line, self.log_styles) for line in self.lines)
                )
            else:
                yield Static(Text("The consequence rolls dice of its own when applied."))
            yield Label(Text("Enter: apply    Esc: skip", style="dim"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
