"""Answers about the last few objects asked about, by the objects' identity.

The states of a fight share their parts: an event that changes no combatant leaves the next
state the very same tuple of combatants. A player's view of a fight (``rules.visibility``)
asks the same question of each state's parts, so it asks it once a part, not once a state.
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class ByIdentity(Generic[T]):
    """The answers for up to ``size`` objects (with what else each answer depends on),
    all forgotten at once when full: a worker thread may ask at the same time, and each
    step here (a look-up, a store, a clear) is whole under the interpreter's lock."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        # Each object is held with its answer, so its identity is never reused while kept.
        self._known: dict[tuple[int, Hashable], tuple[object, T]] = {}

    def get(self, of: object, also: Hashable, work: Callable[[], T]) -> T:
        """``work()``, remembered for ``of`` (by identity) and ``also`` (by equality)."""
        key = (id(of), also)
        known = self._known.get(key)
        if known is not None and known[0] is of:
            return known[1]
        answer = work()
        if len(self._known) >= self.size:
            self._known.clear()
        self._known[key] = (of, answer)
        return answer


class EachOf(Generic[T]):
    """A function over the items of a tuple, remembered for the last tuple given: the very
    same tuple again gives the very same answer, and the next one, which differs from it in
    an item or two (an event changes a combatant or two), has only those worked out again."""

    def __init__(self) -> None:
        # One value, replaced whole: a thread reads an old one or a new one, never half.
        self._last: tuple[tuple[object, ...], Hashable, tuple[T, ...]] | None = None

    def map(
        self, items: tuple[Any, ...], also: Hashable, work: Callable[[Any], T]
    ) -> tuple[T, ...]:
        """``tuple(work(item) for item in items)``; ``also``: what else ``work`` depends on."""
        last = self._last
        if last is None or len(last[0]) != len(items) or not (last[1] is also or last[1] == also):
            out = tuple(work(item) for item in items)
        elif last[0] is items:
            return last[2]
        else:
            changed = list(last[2])
            same = list(map(operator.is_, last[0], items))  # the unchanged, found in C
            at = 0
            with contextlib.suppress(ValueError):  # no more changed
                while True:
                    at = same.index(False, at)
                    changed[at] = work(items[at])
                    at += 1
            out = tuple(changed)
        self._last = (items, also, out)
        return out
