"""Who gets to knock: connections that have not logged in yet, and table-password tries.

A connection is not a seat until it has logged in and opened its session. Until then it
waits in a small pool of its own, bounded in all and per address; when the pool (or its
address's share) is full, a newcomer always gets in, and a connection of its own address
(or, the pool being full, of the address holding most of it) makes room: the least
advanced (nothing sent, then only a banner, then logging in, then logged in without a
session), the oldest of those. A real client passes each stage in a moment,
so connections stalled at any stage cannot keep it out: they are the ones turned away.
Table-password tries are slowed per address, each wrong one doubling the wait before the
next is answered, and after ``lock_after`` wrong ones the address may not try again for
``lockout`` seconds.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar


class Knocking(Protocol):
    """A connection waiting to log in."""

    @property
    def address(self) -> str: ...

    def progress(self) -> int:
        """0: has sent nothing; 1: is speaking SSH; 2: is logging in; 3: logged in."""
        ...


K = TypeVar("K", bound=Knocking)


@dataclass
class Pending(Generic[K]):
    """The pool of connections that have not logged in."""

    size: int = 16
    per_address: int = 4
    clock: Callable[[], float] = time.monotonic
    waiting: dict[K, float] = field(default_factory=dict)  # -> since

    def admit(self, newcomer: K) -> K | None:
        """Let ``newcomer`` wait; who (if anyone) leaves to make room."""
        counts = Counter(k.address for k in self.waiting)
        crowd: list[K] = []
        if counts[newcomer.address] >= self.per_address:
            crowd = [k for k in self.waiting if k.address == newcomer.address]
        elif len(self.waiting) >= self.size:  # the address holding most of the pool gives way
            most = max(counts.values())
            crowd = [k for k in self.waiting if counts[k.address] == most]
        evicted = None
        if crowd:
            evicted = min(crowd, key=lambda k: (k.progress(), self.waiting[k]))
            del self.waiting[evicted]
        self.waiting[newcomer] = self.clock()
        return evicted

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


@dataclass
class TurnedAway:
    """Connections turned away at the door (evicted from the pool, refused a seat), told to
    the GM a few lines at a time: a crowd at the door must not flood the GM's notices."""

    every: float = 5.0  # seconds between two reports
    shown: int = 3  # addresses named in a report; the rest are counted
    clock: Callable[[], float] = time.monotonic
    counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (why, address) -> n
    told: float = float("-inf")

    def add(self, address: str, why: str) -> float:
        """Count one; in how many seconds the next report is due."""
        self.counts[why, address] = self.counts.get((why, address), 0) + 1
        return max(self.told + self.every - self.clock(), 0.0)

    def report(self) -> list[str]:
        """The lines to tell the GM now (then the counts start again)."""
        self.told = self.clock()
        ranked = sorted(self.counts.items(), key=lambda item: -item[1])
        self.counts.clear()
        lines = [
            f"Turned away {n} connection{'s' * (n > 1)} from {address}: {why}"
            for (why, address), n in ranked[: self.shown]
        ]
        if rest := ranked[self.shown :]:
            lines.append(f"Turned away {sum(n for _, n in rest)} more connections")
        return lines
