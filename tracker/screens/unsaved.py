"""Leaving (quitting, or opening another encounter) with changes that could not be saved:
try again, save elsewhere, or leave anyway."""

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
        Binding("r", "answer('retry')", "Try again", id="unsaved.answer_retry"),
        Binding("e", "answer('elsewhere')", "Save elsewhere", id="unsaved.answer_elsewhere"),
        Binding("Q", "answer('quit')", "Quit anyway", id="unsaved.answer_quit"),
        Binding("escape", "answer(None)", "Back", id="unsaved.answer_none"),
    ]

    def __init__(self, error: str, leaving: str = "Quitting") -> None:
        super().__init__()
        self.error = error
        self.leaving = leaving  # what would lose them: "Quitting", "Opening another encounter"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Changes not saved", style="bold"))
            yield Static(Text(self.error))
            yield Label(Text(f"{self.leaving} now loses them.", style="bold"))
            anyway = "quit anyway" if self.leaving == "Quitting" else "leave them"
            yield Label(
                Text(f"r: try again   e: save elsewhere   Q: {anyway}   Esc: back", style="dim")
            )

    def action_answer(self, answer: Answer | None) -> None:
        self.dismiss(answer)
