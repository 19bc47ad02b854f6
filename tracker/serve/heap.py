"""The served process's garbage collector, kept out of the seats' way.

Every seat is a whole Textual app: tens of thousands of long-lived objects. Python's full
collections walk all of them, so with 32 seats one takes a good part of a second, on the
one loop that draws every seat, and all seats wait. A moment after seats stop joining and
leaving, what is alive is frozen (``gc.freeze``) so that collections skip it; before that,
a full collection frees what the seats that left held, so nothing leaks for long.
"""

from __future__ import annotations

import asyncio
import gc

SETTLE_AFTER = 2.0  # seconds after the last seat joined or left


class Heap:
    def __init__(self, delay: float = SETTLE_AFTER) -> None:
        self.delay = delay
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    def changed(self) -> None:
        """A seat joined or left: settle once the table is quiet again."""
        if self._closed:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.delay, self.settle)

    def settle(self) -> None:
        self._timer = None
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def close(self) -> None:
        """The table closed: everything goes back to the collector."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.unfreeze()
