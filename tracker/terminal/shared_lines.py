"""A scrollbar is drawn once for every app in the process that shows it the same.

A served table runs one app per seat on one loop, and a new entry in the roll log has every
seat that draws itself (one that has typed a key) draw the log's scrollbar again, then
again as its thumb catches up: each time through Rich, the thumb's cells and their colours
worked out anew, about as much work as the log's new line. Seats at the same size, in the
same theme and colours, show the very same scrollbar. So its rendered lines are kept by
everything they are made from (the bar's size, the part asked for, the log's extent and
where it is scrolled to, the bar's colours as the CSS gives them now, hover or grab
included, the colours the terminal shows and the app's line filters), and handed to every
scrollbar that asks with the same. Lines held by several apps are never changed (Textual
makes a new strip for any change), and apps with other colours never share them: a strip
keeps what it was last turned into for a terminal (``Strip.render``).

Installed once for the process by :func:`install` (tracker.app calls it), in place of
Textual's ``ScrollBar.render_lines``: tracker.terminal.textual_internals checks first that Textual's
code under it is the code this was written for, and leaves Textual's in place if not.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING

from tracker.terminal import textual_internals

if TYPE_CHECKING:
    from textual.geometry import Region
    from textual.scrollbar import ScrollBar
    from textual.strip import Strip

KEPT = 64  # looks kept for the process: a few sizes and themes, each thumb's few places


class Kept:
    """The lines of the latest ``size`` looks, the least lately used dropped first."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._lines: OrderedDict[Hashable, list[Strip]] = OrderedDict()
        self.hits = 0  # lines handed on rather than drawn (for tests)

    def get(self, key: Hashable) -> list[Strip] | None:
        lines = self._lines.get(key)
        if lines is not None:
            self._lines.move_to_end(key)
            self.hits += 1
        return lines

    def keep(self, key: Hashable, lines: list[Strip]) -> None:
        self._lines[key] = lines
        if len(self._lines) > self.size:
            self._lines.popitem(last=False)

    def clear(self) -> None:
        self._lines.clear()


KEPT_BARS = Kept()


def look(bar: ScrollBar, crop: Region) -> Hashable:
    """Everything ``bar``'s lines in ``crop`` are made from (see the module's doc): bars with
    equal looks draw equal lines."""
    parent = bar.parent
    assert parent is not None  # a scrollbar belongs to its scrolling widget
    styles = parent.styles
    # The colours ScrollBar.render picks, before the background is blended in.
    if bar.grabbed:
        colours = (styles.scrollbar_background_active, styles.scrollbar_color_active)
    elif bar.mouse_over:
        colours = (styles.scrollbar_background_hover, styles.scrollbar_color_hover)
    else:
        colours = (styles.scrollbar_background, styles.scrollbar_color)
    app = bar.app
    filters = tuple((type(f), f.enabled) for f in app.get_line_filters())
    return (
        crop,
        bar.region.size,
        bar.vertical,
        bar.thickness,
        bar.window_virtual_size,
        bar.window_size,
        bar.position,
        colours,
        bar.screen.styles.scrollbar_color.a == 0,  # drawn without a thumb
        parent.background_colors,
        bar.background_colors,
        bar.rich_style,
        bar.opacity,
        app.console.color_system,
        app.theme,
        app.ansi_color,
        app.native_ansi_color,
        id(app.ansi_theme),  # a module's constant: the same for every app
        filters,
    )


def render_lines(bar: ScrollBar, crop: Region) -> list[Strip]:
    """``bar``'s lines in ``crop``: kept ones if a bar with the same look drew them."""
    key = look(bar, crop)
    lines = KEPT_BARS.get(key)
    if lines is None:
        lines = textual_internals.textuals_scrollbar_lines(bar, crop)
        KEPT_BARS.keep(key, lines)
    return lines


def install() -> bool:
    """Draw every scrollbar this way (idempotent), if Textual is the one this was written
    for. Returns whether it is installed."""
    return textual_internals.install_shared_scrollbars(render_lines)
