"""The command line's output is inert: whatever a command prints, a name or note it quotes, a
file name in an error, an argument argparse echoes, passes through ``rules.text`` first.

The stream keeps line breaks (a report is a document); a line quoting a path or a name (an
error, "Wrote PATH") is made one line where it is printed, with ``rules.text.inert``."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, cast

from rules.text import inert_document


class InertStream:
    """A text stream that writes through ``inert_document``; everything else is the stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(inert_document(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


@contextmanager
def inert_output() -> Iterator[None]:
    """stdout and stderr made inert while the block runs (a decorator too)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = cast("TextIO", InertStream(out)), cast("TextIO", InertStream(err))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
