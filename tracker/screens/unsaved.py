"""Quitting with changes that could not be saved: try again, save elsewhere, or quit anyway."""

from typing import Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

Answer = Literal["retry", "elsewhere", "quit"]


class UnsavedScreen(ModalScreen[Answer | None]):
    """Dismisses with the choice, or None (Esc) to go back to the encounter."""

    BINDINGS = [
        Binding("r", "answer('retry')", "Try again"),
        Binding("e", "answer('elsewhere')", "Save elsewhere"),
        Binding("Q", "answer('quit')", "Quit anyway"),
        Binding("escape", "answer(None)", "Back"),
    ]

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Changes not saved", style="bold"))
            yield Static(Text(self.error))
            yield Label(Text("Quitting now loses them.", style="bold"))
            yield Label(
                Text("r: try again   e: save elsewhere   Q: quit anyway   Esc: back", style="dim")
            )

    def action_answer(self, answer: Answer | None) -> None:
        self.dismiss(answer)
