"""Turning the rules' styled spans into Rich Text. Text is never parsed as markup."""

from collections.abc import Mapping

from rich.style import Style
from rich.text import Text

from rules.logline import Line, LogEntry

# The semantic styles of log lines, as used where no theme is at hand. In the app the roll
# log colours them from the theme instead (tracker.tcss, `.roll-log--NAME`). Colours add
# emphasis only: every style here also has words or symbols in its text.
STYLES: dict[str, str] = {
    "name": "bold",
    "die": "",
    "noon": "bold yellow",
    "midnight": "bold magenta",
    "eclipse": "bold reverse yellow",
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


def line_text(line: Line, styles: Mapping[str, str | Style] = STYLES) -> Text:
    return Text.assemble(*((span.text, styles.get(span.style, "")) for span in line))


def entry_text(entry: LogEntry, styles: Mapping[str, str | Style] = STYLES) -> Text:
    return Text("\n").join(line_text(line, styles) for line in entry.lines)
