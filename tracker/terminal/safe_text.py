"""Text typed by one person never acts as terminal codes on anyone's screen.

Markup is never parsed in names or notes (the tracker renders them as rich Text), but a
Text keeps an escape character as it is. This line filter takes every unsafe character
(``rules.text``: controls, format characters such as bidi overrides) out of what is drawn,
whatever widget draws it, on the local terminal and on every seat, so a name like
``Orla\\x1b[2J`` shows as ``Orla[2J`` and cannot clear, retitle or link anyone's terminal.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from rules.text import UNSAFE


def _blank(found: re.Match[str]) -> str:
    # Most take no cell and simply go; the few Rich counts a cell wide (a soft hyphen) leave
    # a space, so the rest of the line stays where it was laid out.
    return " " * cell_len(found.group())


def drawn(text: str) -> str:
    """Text laid out in cells, with every unsafe character taken out."""
    return UNSAFE.sub(_blank, text)


class NoControlCodes(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        # Most lines hold no such character: handed back as they are, not rebuilt.
        if all(text.isprintable() or control is not None for text, _, control in segments):
            return segments
        return [
            Segment(drawn(text), style, control)
            if control is None and not text.isprintable()
            else Segment(text, style, control)
            for text, style, control in segments
        ]


NO_CONTROL_CODES = NoControlCodes()
