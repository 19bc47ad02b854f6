"""What each operation does to a pool (the dice of ``4d6``, or the values of a set), as
avrae/d20 does it; rolling and the exact odds both run these, so they cannot disagree.

Where d20 rerolls ``rr`` until no die matches, a die here is drawn once among the faces that
do not match, which is the same chance and cannot run on; explosions stop after
``MAX_EXPLOSIONS`` extra dice from one die.
"""

from __future__ import annotations

from typing import Protocol

from rules.notation.tree import MAX_EXPLOSIONS, Dice, Op, Value


class Draw(Protocol):
    """Where new dice come from: a dice source when rolling, every branch for exact odds."""

    def die(self, dice: Dice) -> tuple[int, ...]:
        """A fresh die: its faces (more than one when ``!`` exploded it)."""
        ...

    def unlike(self, dice: Dice, op: Op) -> list[tuple[int, ...]]:
        """Rerolls until none of ``op``'s selectors matches: every one, the last that one."""
        ...


class Entry:
    """One die (or one value of a set): what it shows, whether it counts, what it showed
    before a reroll or a minimum, and how it came (exploded: it brought another die)."""

    __slots__ = ("chain", "depth", "exploded", "kept", "value", "was")

    def __init__(self, chain: tuple[int, ...], value: Value | None = None, depth: int = 0):
        self.chain = chain
        self.value: Value = sum(chain) if value is None else value
        self.kept = True
        self.was: list[Value] = []
        self.exploded = False
        self.depth = depth

    def change(self, value: Value, chain: tuple[int, ...] = ()) -> None:
        self.was.append(self.value)
        self.value, self.chain = value, chain


def select(entries: list[Entry], op: Op, limit: int | None = None) -> list[Entry]:
    """The kept entries ``op``'s selectors take, together (``kh1kl1``: the highest and the
    lowest), in d20's order: highest or lowest first, ties in the order rolled."""
    kept = [e for e in entries if e.kept]
    chosen: list[Entry] = []
    for selector in op.selectors:
        room = None if limit is None else limit - len(chosen)
        if room == 0:
            break
        if selector.kind == "h":
            batch = sorted(kept, key=lambda e: e.value, reverse=True)[: selector.number]
        elif selector.kind == "l":
            batch = sorted(kept, key=lambda e: e.value)[: selector.number]
        else:
            batch = [e for e in kept if selector.matches(e.value)]
        for entry in batch[:room]:
            if not any(entry is c for c in chosen):
                chosen.append(entry)
    return chosen


def apply(entries: list[Entry], ops: tuple[Op, ...], dice: Dice | None, draw: Draw) -> None:
    """Carry out ``ops`` in order (a counting ``c`` is read by ``value``, not here)."""
    for op in ops:
        match op.name:
            case "k":
                chosen = select(entries, op)
                for entry in entries:
                    if entry.kept and not any(entry is c for c in chosen):
                        entry.kept = False
            case "p":
                for entry in select(entries, op):
                    entry.kept = False
            case "rr" | "ro" if dice is not None:
                for entry in select(entries, op):
                    for chain in draw.unlike(dice, op) if op.name == "rr" else [draw.die(dice)]:
                        entry.change(sum(chain), chain)
            case "ra" if dice is not None:
                for entry in select(entries, op, limit=1):
                    entry.exploded = True
                    entries.append(Entry(draw.die(dice), depth=entry.depth + 1))
            case "e" if dice is not None:
                _explode(entries, op, dice, draw)
            case "mi" | "ma":
                bound = op.selectors[-1].number
                for entry in entries:
                    low = op.name == "mi" and entry.value < bound
                    if entry.kept and (low or (op.name == "ma" and entry.value > bound)):
                        entry.change(bound, entry.chain)


def _explode(entries: list[Entry], op: Op, dice: Dice, draw: Draw) -> None:
    done: list[Entry] = []
    while True:
        targets = [
            e
            for e in select(entries, op)
            if e.depth < MAX_EXPLOSIONS and not any(e is d for d in done)
        ]
        if not targets:
            return
        for entry in targets:
            entry.exploded = True
            done.append(entry)
            entries.append(Entry(draw.die(dice), depth=entry.depth + 1))


def value(entries: list[Entry], ops: tuple[Op, ...]) -> Value:
    """The pool's value: its kept entries added, or with a last ``c``, how many match."""
    if ops and ops[-1].name == "c":
        return len(select(entries, ops[-1]))
    return sum((e.value for e in entries if e.kept), 0)


def matched(entry: Entry, ops: tuple[Op, ...]) -> bool:
    """Whether a counting pool (last op ``c``) counts this entry."""
    return entry.kept and any(s.matches(entry.value) for s in ops[-1].selectors)
