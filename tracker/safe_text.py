"""Text typed by one person never acts as terminal codes on anyone's screen.

Markup is never parsed in names or notes (the tracker renders them as rich Text), but a
Text keeps an escape character as it is. This line filter takes every unsafe character
(``rules.text``: controls, format characters such as bidi overrides) out of what is drawn,
whatever widget draws it, on the local terminal and on every seat, so a name like
``Orla\\x1b[2J`` shows as ``Orla[2J`` and cannot clear, retitle or link anyone's terminal.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from rules.text import without_unsafe


class NoControlCodes(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        # Most lines hold no such character: handed back as they are, not rebuilt.
        if all(text.isprintable() or control is not None for text, _, control in segments):
            return segments
        return [
            Segment(without_unsafe(text), style, control)
            if control is None and not text.isprintable()
            else Segment(text, style, control)
            for text, style, control in segments
        ]


NO_CONTROL_CODES = NoControlCodes()
