"""The served process's garbage collector, kept out of the seats' way.

Every seat is a whole Textual app: tens of thousands of long-lived objects. Python's full
collections walk all of them, so with 32 seats one takes a good part of a second, on the
one loop that draws every seat, and all seats wait. A moment after apps stop starting,
waking or ending, what is alive is frozen (``gc.freeze``) so that collections skip it.
When an app ended, its objects are frozen too: only then is everything unfrozen for one
full collection, which frees them (at 64 seats that pause is a few hundred ms, and seconds
on a loaded machine); a new or woken app costs only a collection of what is not frozen.
While the table is ``busy`` (seats typing), that pause waits for a quiet moment, unless
``RECLAIM_AFTER`` apps have ended since the last: memory stays bounded.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

SETTLE_AFTER = 2.0  # seconds after the last app started, woke or ended
RECLAIM_AFTER = 16  # apps ended (a few MB each) before they are freed, however busy the table


class Heap:
    def __init__(
        self, delay: float = SETTLE_AFTER, busy: Callable[[], bool] = lambda: False
    ) -> None:
        self.delay = delay
        self.busy = busy
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._ended = 0  # apps ended since the last full collection: their objects wait for it
        self.collections = 0

    @property
    def settled(self) -> bool:
        """Nothing is waiting to be settled."""
        return self._timer is None

    @property
    def unfreed(self) -> int:
        """Apps ended whose objects wait for a quiet moment to be freed."""
        return self._ended

    def changed(self, ended: bool = False) -> None:
        """An app started, woke or (``ended``) finished: settle once the table is quiet."""
        if self._closed:
            return
        self._ended += ended
        self._settle_later()

    def _settle_later(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.delay, self.settle)

    def settle(self) -> None:
        self._timer = None
        if self._ended and (self._ended >= RECLAIM_AFTER or not self.busy()):
            self._ended = 0
            gc.unfreeze()
        elif self._ended:
            self._settle_later()  # freed in a quiet moment: a busy table's seats wait on it
        gc.collect()
        gc.freeze()
        self.collections += 1

    def close(self) -> None:
        """The table closed: everything goes back to the collector."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.unfreeze()
