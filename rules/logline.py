"""Log lines as styled spans: the rules say what a line means, the app decides its colours."""

from msgspec import Struct


class Span(Struct, frozen=True):
    """A piece of text with a semantic style name (e.g. "name", "die", "noon", "success")."""

    text: str
    style: str = ""


Line = tuple[Span, ...]


class LogEntry(Struct, frozen=True):
    """One entry of the roll log.

    ``kind`` is "roll", "turn", "condition", "note", "roster" or "solo".
    """

    kind: str
    lines: tuple[Line, ...]

    @property
    def plain(self) -> str:
        return "\n".join("".join(span.text for span in line) for line in self.lines)


def spans(*parts: str | Span) -> Line:
    """Build a line, taking bare strings as unstyled spans."""
    return tuple(part if isinstance(part, Span) else Span(part) for part in parts)


def plural(count: int, word: str) -> str:
    """``1 failure``, ``2 failures``, ``3 successes``: a count and its noun, as a log line
    says it."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word}{'es' if word.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


def side_wins(side: str) -> str:
    """A side winning: ``party wins``, ``heroes win`` (a name ending in s read as a plural,
    as ``side_possessive`` reads it)."""
    return f"{side} win" if side.endswith(("s", "S")) else f"{side} wins"


def side_possessive(side: str) -> str:
    """A side's name as its owner: ``party's``, ``heroes'`` (a name ending in s takes the
    apostrophe alone, as a side is most often a plural: ``foes``, ``goblins``). Every line
    that gives a side something builds it here."""
    return f"{side}'" if side.endswith(("s", "S")) else f"{side}'s"
