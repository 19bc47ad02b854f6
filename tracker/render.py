"""Turning the rules' styled spans into Rich Text. Text is never parsed as markup."""

from rich.text import Text

from rules.logline import Line, LogEntry

# Colours add emphasis only: every style here also has words or symbols in its text.
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


def line_text(line: Line) -> Text:
    return Text.assemble(*((span.text, STYLES.get(span.style, "")) for span in line))


def entry_text(entry: LogEntry) -> Text:
    return Text("\n").join(line_text(line) for line in entry.lines)
