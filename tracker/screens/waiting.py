"""The question asked before a roll or the end of a turn would leave a result unapplied."""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

Answer = Literal["apply", "discard"]


class WaitingScreen(ModalScreen[Answer | None]):
    """d (or Enter) applies what waits, x discards it (a line in the log), Esc goes back."""

    BINDINGS = [
        Binding("d,enter", "answer('apply')", "Apply", id="waiting.answer_apply"),
        Binding("x", "answer('discard')", "Discard", id="waiting.answer_discard"),
        Binding("escape", "back", "Back", id="waiting.back"),
    ]

    def __init__(self, waiting: str, doing: str, *, can_discard: bool = True) -> None:
        super().__init__()
        self.waiting = waiting
        self.doing = doing
        self.can_discard = can_discard

    def compose(self) -> ComposeResult:
        keys = "d / Enter: apply it    " + ("x: discard it    " if self.can_discard else "")
        with Vertical(id="dialog"):
            yield Label(Text("Not applied yet", style="bold"))
            yield Static(Text(self.waiting))
            yield Static(Text(f"Apply it before you {self.doing}?"))
            yield Label(Text(keys + "Esc: back", style="dim"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Discarding is the GM's call: a player's seat is offered apply and back only.
        return self.can_discard or parameters != ("discard",)

    def action_answer(self, answer: Answer) -> None:
        self.dismiss(answer)

    def action_back(self) -> None:
        self.dismiss(None)
