"""Where to save an encounter its own file would not take (a full disk, a read-only folder)."""

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

MAX_PATH = 4096  # PATH_MAX on Linux


class SaveElsewhereScreen(ModalScreen[Path | None]):
    """A path prompt: Enter saves there, Esc goes back. Dismisses with the path."""

    BINDINGS = [Binding("escape", "cancel", "Back", id="save_elsewhere.cancel")]

    def __init__(self, suggested: Path) -> None:
        super().__init__()
        self.suggested = suggested

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Save to (a new file):", style="bold"))
            yield Input(str(self.suggested), max_length=MAX_PATH, id="path")
            yield Label(Text("Enter: save there    Esc: back", style="dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text:
            self.dismiss(Path(text).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)
