"""A widget's styled lines kept by what they show, so scrolling redraws only new lines.

Textual keeps a widget's finished lines (content framed by padding and border, then run
through the app's line filters) by their row. When a log scrolls by one line every row
shows another line, so each new entry had every visible line framed and filtered again,
on every seat of a served table. A content line's frame does not depend on its row, and
a virtual widget hands back the very same content Strip for the same line (its own cache,
and Strip's crop and style caches), so this cache keeps the finished line under the
content Strip it was made from: after a scroll only the lines not shown before are
framed, and their filtered forms (cached on each Strip by Textual) come along.

Anything that changes how lines are framed (size, colours, border, title, opacity, theme)
either clears Textual's cache (a full refresh, which clears this one too) or is in the
looks compared once a render, which clears it as well.

``StylesCache`` is Textual's private class: tracker.terminal.textual_internals checks that Textual's
code under this one is the code it was written for, and if not, a widget keeps Textual's
own cache (tests/app/test_scrolled_lines.py checks the lines drawn are the same).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textual.strip import Strip
from textual.widget import Widget

from tracker.terminal import textual_internals
from tracker.terminal.textual_internals import StylesCache

Framed = dict[int, tuple[Strip, Strip]]  # id(content strip) -> (content strip, framed line)


class ScrolledLinesCache(StylesCache):
    """Textual's StylesCache that also keeps framed content lines by their content."""

    def __init__(self) -> None:
        super().__init__()
        self._framed: Framed = {}
        self._looks: tuple[Any, ...] | None = None

    def clear(self) -> None:
        super().clear()
        self._framed.clear()

    def render(  # type: ignore[override]  # the same parameters; Textual's types are private
        self,
        styles: Any,
        size: Any,
        base_background: Any,
        background: Any,
        render_content_line: Callable[[int], Strip],
        filters: Sequence[Any],
        border_title: Any,
        border_subtitle: Any,
        content_size: Any = None,
        padding: Any = None,
        crop: Any = None,
        opacity: float = 1.0,
        **theme: Any,  # ansi_theme, native_ansi
    ) -> list[Strip]:
        # Everything but the content that goes into a framed line, compared once a render.
        looks = (
            size,
            base_background,
            background,
            tuple(filters),
            border_title,
            border_subtitle,
            content_size,
            padding,
            opacity,
            *sorted(theme.items()),
            styles.border,
            styles.outline,
            styles.tint,
            styles.text_opacity,
            styles.hatch if styles.has_rule("hatch") else None,
        )
        if looks != self._looks:
            self._looks = looks
            self._framed.clear()
        return super().render(
            styles, size, base_background, background, render_content_line, filters,
            border_title, border_subtitle, content_size=content_size, padding=padding,
            crop=crop, opacity=opacity, **theme,
        )  # fmt: skip

    def render_line(
        self,
        styles: Any,
        y: int,
        size: Any,
        content_size: Any,
        padding: Any,
        base_background: Any,
        background: Any,
        render_content_line: Callable[[int], Strip],
        *rest: Any,
    ) -> Strip:
        gutter = styles.gutter
        height = size.height
        content_y = y - gutter.top
        # Only the rows between the top and bottom gutters (and never the first or last row,
        # where an outline would be drawn) are content rows framed the same at any row.
        if not (0 < y < height - 1 and 0 <= content_y < content_size.height) or (
            y >= height - gutter.bottom
        ):
            return super().render_line(
                styles, y, size, content_size, padding, base_background, background,
                render_content_line, *rest,
            )  # fmt: skip
        content = render_content_line(content_y)
        known = self._framed.get(id(content))
        if known is not None and known[0] is content:
            return known[1]
        line = super().render_line(
            styles, y, size, content_size, padding, base_background, background,
            lambda _y: content, *rest,
        )  # fmt: skip
        framed = self._framed
        if len(framed) >= 2 * height + 8:  # a couple of screens' worth
            del framed[next(iter(framed))]
        framed[id(content)] = (content, line)
        return line


def check() -> bool:
    """Whether widgets will keep their framed lines this way (said on stderr if not); ask
    before an app runs, which takes stderr over."""
    return textual_internals.usable(textual_internals.SCROLLED_LINES)


def keep_scrolled_lines(widget: Widget) -> None:
    """Give ``widget`` (before it is first drawn) the cache of framed lines by content, or
    leave it Textual's if Textual is not the one this was written for."""
    textual_internals.keep_framing_cache(widget, ScrolledLinesCache)
