"""What went wrong, in one line for the GM: the exception and the innermost line of ours.

A seat's app, a shared view or a callback on the table's loop may fail; the GM is told in
one line (``AttributeError: 'X' object has no attribute 'y' (tracker/quick_flow.py:154 in
roll_preset)``), never shown a traceback.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from rules.text import inert

# Our own code: where a failure is said to be is the innermost frame in these folders.
ROOT = Path(__file__).resolve().parent.parent.parent
OURS = tuple(str(ROOT / folder) + "/" for folder in ("tracker", "rules"))
LONGEST = 300  # characters of the exception's message kept


def where(error: BaseException) -> str:
    """The innermost frame of our code in ``error``'s traceback (``path:line in function``),
    or '' if none of it is ours."""
    frames = traceback.extract_tb(error.__traceback__)
    for frame in reversed(frames):
        path = str(Path(frame.filename).resolve()) if frame.filename else ""
        if path.startswith(OURS):
            return f"{Path(path).relative_to(ROOT)}:{frame.lineno} in {frame.name}"
    return ""


def one_line(error: BaseException) -> str:
    """``Type: message (where)``: the message made inert and cut short."""
    message = inert(str(error))
    if len(message) > LONGEST:
        message = message[: LONGEST - 1] + "…"
    said = f"{type(error).__name__}: {message}" if message else type(error).__name__
    place = where(error)
    return f"{said} ({place})" if place else said
