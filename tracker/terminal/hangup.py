"""A tracker whose terminal goes away saves and ends.

Closing a terminal (its window, an ssh link, a tmux server) hangs its tty up: the kernel
sends SIGHUP to the session's leader only (often a shell, which may not pass it on), and
from then on every read of the tty returns nothing at once. Textual's input thread reads
on in a loop that then never waits, so a tracker that missed the signal kept using a good
part of a core until it was ended by hand. Both are watched: SIGHUP, and the terminal
itself, asked now and then whether it is still one (a hung-up tty fails every request).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from textual.app import App

CHECK_EVERY = 1.0  # seconds between asking whether the terminal is still there


NO_TERMINAL = (
    "the tracker's screen needs a terminal, and its input is not one (a pipe, a file or"
    " /dev/null); run it in a terminal, or use its commands for scripts (tracker --help)"
)


def stdin_fd() -> int:
    """The file descriptor of the process's stdin, or -1 if it has none."""
    stdin = sys.__stdin__
    try:
        return stdin.fileno() if stdin is not None else -1
    except (OSError, ValueError):  # closed, or not a real file
        return -1


def has_terminal() -> bool:
    """Whether stdin is a terminal. Without one, Textual's driver would draw the screen and
    then read the end of its input again and again, a core kept busy until killed."""
    fd = stdin_fd()
    return fd >= 0 and os.isatty(fd)


def watch(app: App[Any], gone: Callable[[], None]) -> None:
    """Call ``gone`` once ``app``'s terminal (its stdin) goes away or the process is hung up;
    call from the app's loop. Nothing is watched when stdin was never a terminal (an app
    meant for one does not start without it: ``has_terminal``)."""
    if not has_terminal():
        return
    fd = stdin_fd()
    # Where signals cannot be handled, the terminal is still asked.
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, gone)

    def check() -> None:
        if not os.isatty(fd):  # a hung-up tty answers the terminal request with an error
            gone()

    app.set_interval(CHECK_EVERY, check, name="terminal-gone")
