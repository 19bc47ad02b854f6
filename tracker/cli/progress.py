"""A long command's progress on stderr, redrawn in place, when stderr is a terminal (a pipe
or a log reads nothing of it); cleared when the command ends, whether it finished or was
stopped."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from tracker.headless.forecast_pool import bar

CLEAR = "\r\x1b[K"  # back to the line's start, the line erased


@contextmanager
def on_terminal(what: str, stream: TextIO) -> Iterator[Callable[[int, int], None] | None]:
    """Told ``(done, total)``: "swings ████···· 45%" on ``stream`` if a terminal, redrawn when
    the percentage moves; None elsewhere."""
    if not stream.isatty():
        yield None
        return
    shown = -1

    def told(done: int, total: int) -> None:
        nonlocal shown
        share = done / total if total > 0 else 1.0
        percent = min(100, int(share * 100))
        if percent != shown:
            shown = percent
            stream.write(f"\r{what} {bar(share)} {percent:3d}%")
            stream.flush()

    try:
        yield told
    finally:
        if shown >= 0:
            stream.write(CLEAR)
            stream.flush()
