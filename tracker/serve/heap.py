"""The served process's garbage collector, kept out of the seats' way.

Every seat is a whole Textual app: tens of thousands of long-lived objects. Python's full
collections walk all of them, so with 32 seats one takes a good part of a second, on the
one loop that draws every seat, and all seats wait. A moment after apps stop starting,
waking or ending, what is alive is frozen (``gc.freeze``) so that collections skip it.
When an app ended, its objects are frozen too: only then is everything unfrozen for one
full collection, which frees them (at 64 seats that pause is a few hundred ms, once per
burst of departures); a new or woken app costs only a collection of what is not frozen.
"""

from __future__ import annotations

import asyncio
import gc

SETTLE_AFTER = 2.0  # seconds after the last app started, woke or ended


class Heap:
    def __init__(self, delay: float = SETTLE_AFTER) -> None:
        self.delay = delay
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False
        self._reclaim = False  # an app ended: its frozen objects need a full collection

    @property
    def settled(self) -> bool:
        """Nothing is waiting to be settled."""
        return self._timer is None

    def changed(self, ended: bool = False) -> None:
        """An app started, woke or (``ended``) finished: settle once the table is quiet."""
        if self._closed:
            return
        self._reclaim = self._reclaim or ended
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(self.delay, self.settle)

    def settle(self) -> None:
        self._timer = None
        if self._reclaim:
            self._reclaim = False
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
