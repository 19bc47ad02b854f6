"""The command line's history: the lines typed, kept in a small file beside the saves."""

from __future__ import annotations

import contextlib
from pathlib import Path

from tracker.store import files

KEEP = 500  # lines remembered; older ones drop off
FILE_NAME = ".command-history"
MAX_BYTES = 1024 * 1024  # KEEP lines of a long command each, and more


def history_path(save: Path | None) -> Path | None:
    """Where the history of the saves folder holding ``save`` lives (None: not kept)."""
    return save.parent / FILE_NAME if save is not None else None


def load(path: Path | None) -> list[str]:
    """The remembered lines, oldest first; a missing or unreadable file is an empty history."""
    if path is None:
        return []
    try:
        text = files.read_bytes(path, MAX_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.strip()][-KEEP:]


def remember(lines: list[str], line: str, path: Path | None) -> list[str]:
    """Add a line (not twice in a row) and write the history; a failed write is not fatal."""
    line = line.strip().replace("\n", " ")
    if not line or (lines and lines[-1] == line):
        return lines
    lines = [*lines, line][-KEEP:]
    if path is not None:
        # The history is a convenience: a failed write must never stop a command.
        with contextlib.suppress(OSError):
            files.write_atomically(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return lines
