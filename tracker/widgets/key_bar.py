"""The footer's keys, never cut: those that fit the width, whole, the most important first.

Textual's Footer lays every shown binding out in a row and cuts the row at the screen's
edge (`c C▏` at 80 columns). This one shows only the entries that fit, in their order;
``first`` names the actions kept before the others (the help that lists them all, say).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.widget import Widget
from textual.widgets import Footer

from tracker.fit import keys_that_fit


class KeyBar(Footer):
    def __init__(self, first: Iterable[str] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.first = tuple(first)

    async def recompose(self) -> None:
        await super().recompose()
        self._fit()

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
