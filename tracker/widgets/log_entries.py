"""The roll log's entries, described when first asked for rather than as a fight opens.

A 20,000-event fight opened spent most of its first second describing entries nobody had
scrolled to, and then folding its events only to keep some of the states. Here an entry is
kept as its event and, where given, the state before it: the first state known in each
block of ``EVERY`` entries is kept, and an entry is described when it is first asked for,
from the state before it, folded forward from the nearest kept one (the states met on the
way kept too). A fight's history gives the states it knows without folding
(``History.in_effect_sparse``). Entries asked for in order (a screen drawn top to bottom)
fold one event each. A log whose states do not fold one into the next (a player's view,
``HistoryView.in_effect_folds``) keeps every state: a served table hands every seat the
same ones, so they are held once.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from rich.cells import cell_len

from rules.encounter import AnyEncounter, Event
from rules.engine import apply, describe
from rules.logline import LogEntry

EVERY = 64  # events between the states kept: an entry described folds at most this many
MARK = "▶ "  # before the replay's current entry


class LogEntries(Sequence[str]):
    """Each entry's plain text, oldest first (for the log's tests, its copying and its
    seats), its ``LogEntry`` and the cell widths of its lines: each worked out once, when
    first asked for."""

    def __init__(self) -> None:
        self._every = EVERY  # a state kept before every this many events (1: each)
        self._events: list[Event] = []
        # Per block of ``_every`` entries, the state before the first entry it is known
        # for, and that entry's index (apart, in an array: no object an entry for the
        # garbage collector to walk, where a seat's log keeps every state).
        self._kept: list[AnyEncounter | None] = []
        self._kept_at = array("q")
        # Events given the very state the one before them was given: they were not applied
        # to it (a fight's first event, which the state it was given already holds).
        self._unapplied: set[int] = set()
        self._last_before: AnyEncounter | None = None
        self._logged: list[LogEntry | None] = []
        self._plain: list[str | None] = []
        self._widths: list[tuple[int, ...] | None] = []
        self._cursor: tuple[int, AnyEncounter] | None = None  # the last state folded to
        self.marked: int | None = None  # the replay's current entry, drawn with ``MARK``

    def mark(self, index: int | None) -> None:
        """Show ``index`` as the replay's current entry (None: no entry)."""
        for at in (self.marked, index):
            if at is not None and at < len(self):
                self._plain[at] = self._widths[at] = None
        self.marked = index

    def add(self, event: Event, before: AnyEncounter | None, entry: LogEntry | None = None) -> None:
        """An entry for ``event``, applied to ``before`` (None: the state after the entry
        before it, folded when needed); described now if ``entry`` is given, else when
        first asked for."""
        index = len(self._events)
        if before is not None and index and before is self._last_before:
            self._unapplied.add(index - 1)
        if index % self._every == 0:
            self._kept.append(before)
            self._kept_at.append(index)
        elif before is not None and self._kept[-1] is None:
            self._kept[-1] = before
            self._kept_at[-1] = index
        self._last_before = before
        self._events.append(event)
        self._logged.append(entry)
        self._plain.append(None)
        self._widths.append(None)

    def clear(self, folds: bool = True) -> None:
        """No entries; ``folds``: the states of those to come fold one into the next."""
        self.truncate(0)
        self._every = EVERY if folds else 1

    def truncate(self, keep: int) -> None:
        """Only the oldest ``keep`` entries stay."""
        del self._events[keep:], self._logged[keep:], self._plain[keep:], self._widths[keep:]
        blocks = -(-keep // self._every)
        del self._kept[blocks:], self._kept_at[blocks:]
        if blocks and self._kept_at[-1] >= keep:
            self._kept[-1] = None
        self._unapplied = {index for index in self._unapplied if index < keep - 1}
        # The state the last entry kept was given, where it is known without folding (a
        # log of a seat's view cannot fold): what ``add`` compares the next one's with.
        known = blocks and self._kept_at[-1] == keep - 1
        self._last_before = self._kept[-1] if known else None
        self._cursor = None
        if self.marked is not None and self.marked >= keep:
            self.marked = None

    def described(self, index: int) -> bool:
        return self._logged[index] is not None

    def described_indices(self) -> list[int]:
        """The entries described so far, oldest first."""
        return [index for index, entry in enumerate(self._logged) if entry is not None]

    def entry(self, index: int) -> LogEntry:
        entry = self._logged[index]
        if entry is None:
            entry = self._logged[index] = describe(self._before(index), self._events[index])
        return entry

    def widths(self, index: int, describe: bool = False) -> tuple[int, ...] | None:
        """The cell width of each of the entry's lines, or None while it is not described
        (unless ``describe``: then it is)."""
        widths = self._widths[index]
        if widths is None and (describe or self._logged[index] is not None):
            widths = self._widths[index] = tuple(cell_len(line) for line in self[index].split("\n"))
        return widths

    def _before(self, index: int) -> AnyEncounter:
        """The state ``index``'s event was applied to: folded from the nearest state kept
        (or the last one folded to, when that is nearer), keeping the state before each
        block it passes where none was known that early in the block."""
        every, kept, kept_at = self._every, self._kept, self._kept_at
        block = index // every
        while (known := kept[block]) is None or kept_at[block] > index:
            block -= 1  # the first entry's state is always given: block 0 ends this
        start, state = kept_at[block], known
        if self._cursor is not None and start <= self._cursor[0] <= index:
            start, state = self._cursor
        for at in range(start, index):
            if at not in self._unapplied:
                state = apply(state, self._events[at])
            if (at + 1) % every == 0:
                ahead = (at + 1) // every
                if kept[ahead] is None or kept_at[ahead] > at + 1:
                    kept[ahead], kept_at[ahead] = state, at + 1
        self._cursor = (index, state)
        return state

    # --- the plain texts, as a sequence --------------------------------------------------------

    def __len__(self) -> int:
        return len(self._events)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[at] for at in range(*index.indices(len(self)))]
        at = range(len(self))[index]  # an index from the end, or IndexError
        plain = self._plain[at]
        if plain is None:
            plain = self.entry(at).plain
            if at == self.marked and not plain.startswith(MARK):  # a turn's has its own ▶
                plain = MARK + plain
            self._plain[at] = plain
        return plain

    def __iter__(self) -> Iterator[str]:
        return (self[at] for at in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LogEntries | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # changes as entries are added

    def __repr__(self) -> str:
        return f"LogEntries({len(self)} entries)"
