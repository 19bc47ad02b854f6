"""Turning the rules' styled spans into Rich Text. Text is never parsed as markup."""

import re
from collections.abc import Callable, Mapping

from rich.style import Style
from rich.text import Text

from rules.logline import Line, LogEntry
from rules.registry import get_system

# The semantic styles of log lines, as used where no theme is at hand. In the app the roll
# log colours them from the theme instead (tracker.tcss, `.roll-log--NAME`). Colours add
# emphasis only: every style here also has words or symbols in its text.
STYLES: dict[str, str] = {
    "name": "bold",
    "die": "",
    "success": "bold green",
    "failure": "bold red",
    "total": "bold",
    "tier": "cyan",
    "muted": "dim",
    "round": "bold underline",
    "turn": "bold",
    "condition": "italic yellow",
    "note": "italic",
}


# A system's own styles (``RuleSystem.log_styles``) may name a theme's colour, ``$warning``; the
# app takes it from its theme, and these stand for it where no theme is at hand.
PLAIN_COLOURS: dict[str, str] = {
    "primary": "blue",
    "secondary": "magenta",
    "accent": "cyan",
    "warning": "yellow",
    "error": "red",
    "success": "green",
}
THEME_COLOUR = re.compile(r"\$([a-z][a-z-]*)")


def plain_colour(name: str) -> str:
    return PLAIN_COLOURS.get(name, "")


def system_styles(system: str, colour: Callable[[str], str] = plain_colour) -> dict[str, str]:
    """The system's own log styles, each theme colour named in one given by ``colour``."""
    own = get_system(system).log_styles
    return {name: THEME_COLOUR.sub(lambda m: colour(m.group(1)), s) for name, s in own.items()}


def styles_of(system: str) -> dict[str, str]:
    """Every style a system's log lines may name, where no theme is at hand."""
    return {**STYLES, **system_styles(system)}


def line_text(line: Line, styles: Mapping[str, str | Style] = STYLES) -> Text:
    return Text.assemble(*((span.text, styles.get(span.style, "")) for span in line))


def entry_text(entry: LogEntry, styles: Mapping[str, str | Style] = STYLES) -> Text:
    return Text("\n").join(line_text(line, styles) for line in entry.lines)
