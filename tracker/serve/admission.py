"""Who gets to knock: connections that have not logged in yet, and table-password tries.

A connection is not a seat until it has logged in. Until then it waits in a small pool of
its own, bounded in all and per address; when the pool is full, the connection that has
shown least sign of being an SSH client (nothing sent yet, then the oldest) makes room,
so bare connections held open cannot keep a real client out. Table-password tries are
slowed per address, each wrong one doubling the wait before the next is answered, and
after ``lock_after`` wrong ones the address may not try again for ``lockout`` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar


class Knocking(Protocol):
    """A connection waiting to log in."""

    @property
    def address(self) -> str: ...

    def progress(self) -> int:
        """0: has sent nothing; 1: is speaking SSH; 2: is logging in."""
        ...


K = TypeVar("K", bound=Knocking)


@dataclass
class Pending(Generic[K]):
    """The pool of connections that have not logged in."""

    size: int = 16
    per_address: int = 4
    clock: Callable[[], float] = time.monotonic
    waiting: dict[K, float] = field(default_factory=dict)  # -> since

    def admit(self, newcomer: K) -> tuple[bool, K | None]:
        """Whether ``newcomer`` may wait, and who (if anyone) leaves to make room."""
        same = [k for k in self.waiting if k.address == newcomer.address]
        crowd = same if len(same) >= self.per_address else None
        if crowd is None and len(self.waiting) >= self.size:
            crowd = list(self.waiting)
        evicted = None
        if crowd is not None:
            evicted = min(crowd, key=lambda k: (k.progress(), self.waiting[k]))
            if evicted.progress() > 0:  # all of them are real clients: the newcomer waits
                return False, None
            del self.waiting[evicted]
        self.waiting[newcomer] = self.clock()
        return True, evicted

    def leave(self, knocking: K) -> None:
        self.waiting.pop(knocking, None)


@dataclass
class Address:
    wrong: int = 0
    locked_until: float = 0.0


@dataclass
class PasswordTries:
    """Wrong table passwords by address: the wait before each answer, and the lockout."""

    delay: float = 0.5  # before the answer to the try after the first wrong one
    max_delay: float = 8.0
    lock_after: int = 8
    lockout: float = 300.0
    clock: Callable[[], float] = time.monotonic
    addresses: dict[str, Address] = field(default_factory=dict)

    def locked(self, address: str) -> float:
        """Seconds ``address`` is still locked out for (0: it may try)."""
        entry = self.addresses.get(address)
        if entry is None:
            return 0.0
        left = entry.locked_until - self.clock()
        if left <= 0 and entry.locked_until:
            del self.addresses[address]  # served its time: a clean slate
            return 0.0
        return max(left, 0.0)

    def wait(self, address: str) -> float:
        """A try from ``address`` begins: counted wrong until it proves right; how long
        to wait before answering it."""
        entry = self.addresses.setdefault(address, Address())
        entry.wrong += 1
        if entry.wrong >= self.lock_after:
            entry.locked_until = self.clock() + self.lockout
        return self._delay(entry.wrong - 1)

    def wait_after(self, address: str) -> float:
        """How long the next try from ``address`` will wait for its answer."""
        return self._delay(self.wrong(address))

    def _delay(self, wrong_before: int) -> float:
        return min(self.delay * 2 ** (wrong_before - 1), self.max_delay) if wrong_before else 0.0

    def right(self, address: str) -> None:
        self.addresses.pop(address, None)

    def wrong(self, address: str) -> int:
        entry = self.addresses.get(address)
        return entry.wrong if entry is not None else 0

    def locked_addresses(self) -> list[tuple[str, float]]:
        return [(a, left) for a in list(self.addresses) if (left := self.locked(a)) > 0]
