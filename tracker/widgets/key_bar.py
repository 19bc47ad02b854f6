"""The footer's keys, never cut: those that fit the width, whole, the most important first.

Textual's Footer lays every shown binding out in a row and cuts the row at the screen's
edge (`c C▏` at 80 columns). This one shows only the entries that fit, in their order;
``first`` names the actions kept before the others (the help that lists them all, say).

Textual's Footer builds its entries again whenever the screen's bindings may have changed
(a dialog opened or closed, the focus moved): a whole row of widgets mounted and styled.
On a served table every seat's help opened and closed paid for that; the row is built
again here only when what it would show has changed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from textual.widget import Widget
from textual.widgets import Footer

from tracker.terminal.fit import keys_that_fit
from tracker.terminal.textual_internals import footer_bindings_ready


class KeyBar(Footer):
    def __init__(self, first: Iterable[str] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.first = tuple(first)
        self._shown: Hashable = None  # what the entries were built from (``_showing``)

    async def recompose(self) -> None:
        showing = self._showing()
        if showing == self._shown and self.children:
            return  # the same entries: nothing to build again
        self._shown = showing
        async with self.batch():  # the row reaches the terminal fitted, never cut first
            await super().recompose()
            self._fit()

    def _showing(self) -> Hashable:
        """Everything Footer's entries are made from."""
        if not footer_bindings_ready(self) or not self.is_attached:
            return None
        app = self.app
        palette = app.COMMAND_PALETTE_BINDING
        bindings = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             enabled, tooltip, binding.tooltip, binding.group)
            for key, (_, binding, enabled, tooltip) in self.screen.active_bindings.items()
            if binding.show or key == palette
        )  # fmt: skip
        return (bindings, self.compact, self.show_command_palette, app.ENABLE_COMMAND_PALETTE)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        entries = [child for child in self.children if not child.has_class("-command-palette")]
        palette = sum(
            _width(child) for child in self.children if child.has_class("-command-palette")
        )
        widths = [_width(child) for child in entries]
        chosen = keys_that_fit(
            widths,
            self.size.width - palette,
            lambda i: getattr(entries[i], "action", "") in self.first,
        )
        for index, child in enumerate(entries):
            child.display = index in chosen


def _width(child: Widget) -> int:
    """The cells an entry takes: its text and its margins (and a border, the palette's)."""
    rendered = child.render()
    text = getattr(rendered, "cell_len", 0)
    styles = child.styles
    return int(text) + styles.margin.width + styles.padding.width + styles.border.spacing.width
