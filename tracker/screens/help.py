"""The help screen: every key of the screen beneath, with what it does.

``show_help`` opens it. An app keeps the last help it showed and opens that again while
the keys it lists are the same: a new one costs its widgets, their styles and a layout,
which on a served table every seat pressing ``?`` paid again and again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from tracker.store.keymap import user_key
from tracker.widgets.more_sign import keep_more_sign

CLOSE = Binding("escape,question_mark,q", "dismiss", "Close help", id="help.dismiss")
KEPT_AS = "help"  # the name an app keeps its last help under (``App.install_screen``)


def key_label(keys: str) -> str:
    names = {"question_mark": "?", "delete": "Del", "escape": "Esc", "colon": ":"}
    names |= {"plus": "+", "minus": "-"}
    return " / ".join(names.get(k, k) for k in keys.split(","))


class HelpScreen(ModalScreen[None]):
    BINDINGS = [CLOSE]

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
            closing = "Esc or ?"
            if CLOSE.id in user_keys(self.app):  # the user's own keys: those are said
                closing = shown_key(self.app, CLOSE)
            yield Label(Text(f"{closing} closes this help", style="dim"))

    def on_mount(self) -> None:
        keep_more_sign(self.query_one("#dialog"), self.query_one("#help-keys"))

    def on_screen_resume(self) -> None:
        self.query_one("#help-keys").scroll_home(animate=False)  # opened again: from the top


def user_keys(app: App[object]) -> Mapping[str, str]:
    """The user's keymap of ``app`` (``tracker.store.keymap``; none in a bare app)."""
    keys: Mapping[str, str] = getattr(app, "user_keys", {})
    return keys


def shown_key(app: App[object], binding: Binding) -> str:
    """``binding``'s keys as the user has them, as they read on screen."""
    return key_label(user_key(user_keys(app), binding))


def show_help(
    app: App[object],
    bindings: Iterable[BindingType],
    intro: str,
    offered: Callable[[Binding], bool] = lambda binding: True,
    also: Iterable[Binding] = (),
) -> None:
    """Open the help for ``bindings`` (those ``offered``), then ``also`` (the app's own
    keys the seat may use): the app's last help if it lists the same keys, else a new one,
    kept in its place."""
    keys = user_keys(app)
    shown = [
        replace(b, key=user_key(keys, b)) for b in bindings if isinstance(b, Binding) and offered(b)
    ]
    shown += [replace(b, key=user_key(keys, b)) for b in also]
    kept = app.get_screen(KEPT_AS) if app.is_screen_installed(KEPT_AS) else None
    if kept in app.screen_stack:
        return  # open already
    if not isinstance(kept, HelpScreen) or kept.bindings != shown or kept.intro != intro:
        if kept is not None:
            app.uninstall_screen(KEPT_AS)
            kept.remove()
        kept = HelpScreen(shown, intro)
        app.install_screen(kept, KEPT_AS)
    app.push_screen(kept)
