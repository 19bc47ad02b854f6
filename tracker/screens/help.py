"""The help screen: every key of the screen beneath, with what it does."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from tracker.widgets.more_sign import keep_more_sign


def key_label(keys: str) -> str:
    names = {"question_mark": "?", "delete": "Del", "escape": "Esc", "colon": ":"}
    names |= {"plus": "+", "minus": "-"}
    return " / ".join(names.get(k, k) for k in keys.split(","))


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help")]

    def __init__(
        self,
        bindings: Iterable[BindingType],
        intro: str,
        offered: Callable[[Binding], bool] = lambda binding: True,
    ) -> None:
        """``offered`` keeps the keys this seat may use: a player is not shown the GM's."""
        super().__init__()
        # No bare tuples here; the bindings are read here, in the dialog's code.
        self.bindings = [b for b in bindings if isinstance(b, Binding) and offered(b)]
        self.intro = intro

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for binding in self.bindings:
            table.add_row(key_label(binding.key), binding.description)
        table.add_row("ctrl+p", "Command palette: every action by name")
        with Vertical(id="dialog"):
            yield Label(Text("Keys", style="bold"))
            yield Label(Text(self.intro, style="dim"))
            with VerticalScroll(id="help-keys"):
                yield Static(table)
            yield Label(Text("Esc or ? closes this help", style="dim"))

    def on_mount(self) -> None:
        keep_more_sign(self.query_one("#dialog"), self.query_one("#help-keys"))
