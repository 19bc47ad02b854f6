"""An option that is one line, whatever its width: measured without being laid out.

Textual's ``OptionList`` asks every option its height (wrapping it at the list's width) as
the list is laid out, and a Rich ``Text`` prompt is first made into Textual ``Content``: for
the library's 350 stat blocks that was most of the ~185 ms CPU each ``a`` took to open
(docs/contributing/performance.md, "Library"). A ``OneLine`` answers its height (1) and width (its
cells) from the text as it is, and is made into ``Content`` and drawn only when its line is on the
screen; a line wider than the list ends in an ellipsis rather than wrapping. Built only on
Textual's public ``Visual`` protocol (``textual.visual``), no private code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from rich.text import Text
from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual


class _NoWrap:
    """The list's style rules, but one line: not wrapped, cut with an ellipsis."""

    def __init__(self, rules: RulesMap) -> None:
        self.rules = rules

    def get(self, rule: str, default: Any = None) -> Any:
        if rule == "text_wrap":
            return "nowrap"
        if rule == "text_overflow":
            return "ellipsis"
        return self.rules.get(rule, default)


class OneLine(Visual):
    """``text`` shown on one line of an ``OptionList``: its first line, cut to the width.
    ``text`` may be a function that makes it, called once the line is wanted (shown, or its
    words asked for): a list of hundreds makes only the lines in sight."""

    def __init__(self, text: Text | Callable[[], Text]) -> None:
        self._text = text
        self._content: Content | None = None

    @property
    def text(self) -> Text:
        if not isinstance(self._text, Text):
            self._text = self._text()
        return self._text

    def __str__(self) -> str:
        return self.text.plain  # what a Text prompt said: its words

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        if self._content is None:  # only once it is shown
            first = self.text.split(allow_blank=True)[0] if "\n" in self.text.plain else self.text
            self._content = Content.from_rich_text(first)
        # Content reads its rules by ``get`` alone (a widget's styles are no dict either).
        one = replace(options, rules=cast(RulesMap, _NoWrap(options.rules)))
        strips = self._content.render_strips(width, 1, style, one)
        return strips[:1] or [Strip.blank(width)]  # always the one line the list counted

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.text.cell_len

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1
