"""A notice that must be read, not missed: a damaged save, kept aside and repaired."""

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class NoticeScreen(ModalScreen[None]):
    """Stays until dismissed with Enter or Esc."""

    BINDINGS = [Binding("enter,escape", "dismiss_notice", "OK", id="notice.dismiss_notice")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield Static(Text(self.text))
            yield Label(Text("Enter / Esc: OK", style="dim"))

    def action_dismiss_notice(self) -> None:
        self.dismiss(None)
