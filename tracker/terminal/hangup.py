"""A tracker whose terminal goes away saves and ends.

Closing a terminal (its window, an ssh link, a tmux server) hangs its tty up: the kernel
sends SIGHUP to the session's leader only (often a shell, which may not pass it on), and
from then on every read of the tty returns nothing at once. Textual's input thread reads
on in a loop that then never waits, so a tracker that missed the signal kept using a good
part of a core until it was ended by hand. Both are watched: SIGHUP, and the terminal
itself, asked now and then whether it is still one (a hung-up tty fails every request).

Both are answered on the app's loop, which saves and ends. A loop that is stuck cannot
answer: a terminal that stopped reading (a stalled link) fills the pty, then Textual's
output queue, and every frame then waits for room; when that terminal goes, Textual's
output thread dies on the error its write gets, and the loop waits for ever, holding the
save's lock. So a thread of its own watches too, and ends the process once the terminal has
been gone for ``GRACE`` seconds. Every change is in the save's journal as it is made, so
nothing is lost; only the journal is not folded into the snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from textual.app import App

CHECK_EVERY = 1.0  # seconds between asking whether the terminal is still there
GRACE = 5.0  # seconds the app has to save and end by itself once its terminal is gone
HUNG_UP = 129  # the exit status of a process SIGHUP ended (128 + 1), as shells report it


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
    threading.Thread(target=last_resort, args=(fd,), name="terminal-gone", daemon=True).start()


def last_resort(fd: int) -> None:
    """End the process once the terminal ``fd`` has been gone for ``GRACE`` seconds: a
    thread's watch, for an app whose loop is stuck and cannot save and end by itself (see
    above). The save's lock goes with the process."""
    gone_at: float | None = None
    while True:
        time.sleep(CHECK_EVERY)
        if os.isatty(fd):
            gone_at = None
        elif gone_at is None:
            gone_at = time.monotonic()
        elif time.monotonic() - gone_at >= GRACE:
            os._exit(HUNG_UP)
