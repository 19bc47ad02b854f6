"""The menu of the rule system's own actions (the ``s`` key)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from rules.system import Action
from tracker.widgets.more_sign import keep_more_sign, show_more_sign


class ActionMenuScreen(ModalScreen[str | None]):
    """Pick an action with ↑/↓ and Enter; Esc closes. Dismisses with the action's id."""

    BINDINGS = [Binding("escape", "dismiss_menu", "Close", id="action_menu.dismiss_menu")]

    def __init__(self, title: str, actions: list[Action]) -> None:
        super().__init__()
        self.title_text = title
        self.actions = actions

    def compose(self) -> ComposeResult:
        options = [
            Option(Text.assemble((a.title, "bold"), "  ", (a.description, "dim")), id=a.id)
            for a in self.actions
        ]
        with Vertical(id="dialog"):
            yield Label(Text(self.title_text, style="bold"))
            yield OptionList(*options, id="menu")

    def on_mount(self) -> None:
        keep_more_sign(self.query_one("#dialog"), self.query_one("#menu"))

    def on_resize(self) -> None:
        self.call_after_refresh(show_more_sign, self.query_one("#dialog"), self.query_one("#menu"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_dismiss_menu(self) -> None:
        self.dismiss(None)
