"""Beer Run's pure dice helpers: die notation, pool costs, and comparing two rolled pools.

Source: ``shared/rules-texts/002`` (Beer Run), *Extra Dice* and *Compare Rolls*.
"""

from __future__ import annotations

import re
from typing import Literal

from msgspec import Struct

from rules.dice import DiceSource
from rules.errors import Rejected

Winner = Literal["top", "bottom", "tie"]

MAX_DIE = 1000  # far beyond any die a table uses
MAX_POOL = 30
DIE_TEXT = re.compile(r"([0-9]*)\s*[dD]\s*([0-9]+)")


# --- notation --------------------------------------------------------------------------------


def parse_die(text: str, what: str = "A die") -> int:
    """``"d8"`` -> 8. Any size from d1 up."""
    match = DIE_TEXT.fullmatch(text.strip())
    if match is None or match.group(1):
        raise Rejected(f"{what} must be written like d8, not {text.strip()!r}")
    size = int(match.group(2))
    if not 1 <= size <= MAX_DIE:
        raise Rejected(f"{what} must be a d1 to a d{MAX_DIE}, not d{size}")
    return size


def parse_pool(text: str, what: str = "A pool") -> tuple[int, ...]:
    """``"d12,d8,2d6"`` -> (12, 8, 6, 6). Commas or spaces separate dice."""
    sizes: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        match = DIE_TEXT.fullmatch(part)
        if match is None:
            raise Rejected(f"{what} is a list of dice like d12,d8,2d6; {part!r} is not a die")
        count = int(match.group(1) or 1)
        size = parse_die(f"d{match.group(2)}", f"{what}'s die")
        sizes += [size] * count
        if len(sizes) > MAX_POOL:
            raise Rejected(f"{what} can have at most {MAX_POOL} dice")
    return tuple(sizes)


def pool_text(sizes: tuple[int, ...]) -> str:
    return ",".join(f"d{size}" for size in sizes)


# --- costs -----------------------------------------------------------------------------------


def extra_cost(extra: int) -> int:
    """The Intensity the extra dice cost: 1, 3, 6, 10, 15 ... for 1, 2, 3, 4, 5 ... dice."""
    return extra * (extra + 1) // 2


def pool_cost(extra: int) -> int:
    """1 Intensity for the base pool, plus the extra dice."""
    return 1 + extra_cost(extra)


def with_target_die(difficulty: tuple[int, ...], target: int, replace: int = 3) -> tuple[int, ...]:
    """A helping or situational difficulty: up to ``replace`` of its dice become the target die.

    An empty difficulty is three target dice. The smallest dice smaller than the target are
    replaced (default d2s first), as replacing makes the roll harder.
    """
    if not difficulty:
        return (target,) * replace
    order = sorted(range(len(difficulty)), key=lambda i: difficulty[i])
    chosen = [i for i in order if difficulty[i] < target][:replace]
    return tuple(target if i in chosen else size for i, size in enumerate(difficulty))


# --- rolled pools and comparing them --------------------------------------------------------


class Die(Struct, frozen=True):
    """One rolled die; ``label`` says where it came from (an ability, "situation"...)."""

    size: int
    face: int
    label: str = ""


NO_DIE = Die(1, 1, "no die")  # a shorter pool's missing die: a d1 showing 1


def roll_dice(dice: DiceSource, sizes: tuple[tuple[str, int], ...]) -> tuple[Die, ...]:
    return tuple(Die(size, dice.roll(size), label) for label, size in sizes)


def high_to_low(dice: tuple[Die, ...]) -> tuple[Die, ...]:
    return tuple(sorted(dice, key=lambda d: (-d.face, -d.size)))


class Pair(Struct, frozen=True):
    top: Die
    bottom: Die

    @property
    def winner(self) -> Winner:
        if self.top.face == self.bottom.face:
            return "tie"
        return "top" if self.top.face > self.bottom.face else "bottom"


class Outcome(Struct, frozen=True, kw_only=True):
    """A comparison's result: the pairs, who has the upper hand, and the successes kept."""

    pairs: tuple[Pair, ...]
    upper: Winner  # "tie" when every pair tied
    top_successes: int
    bottom_successes: int
    top_kept: int
    bottom_kept: int
    kept_pairs: frozenset[int]  # indexes of pairs whose success is kept

    def kept(self, side: Winner) -> int:
        return self.top_kept if side == "top" else self.bottom_kept if side == "bottom" else 0

    def successes(self, side: Winner) -> int:
        if side == "top":
            return self.top_successes
        return self.bottom_successes if side == "bottom" else 0


def kept_count(successes: int, upper: bool) -> int:
    """The upper hand keeps all; the other side its 1st, 3rd, 5th ... success."""
    return successes if upper else (successes + 1) // 2


def compare(top: tuple[Die, ...], bottom: tuple[Die, ...]) -> Outcome:
    top, bottom = high_to_low(top), high_to_low(bottom)
    length = max(len(top), len(bottom))
    top = top + (NO_DIE,) * (length - len(top))
    bottom = bottom + (NO_DIE,) * (length - len(bottom))
    pairs = tuple(Pair(a, b) for a, b in zip(top, bottom, strict=True))
    upper: Winner = next((p.winner for p in pairs if p.winner != "tie"), "tie")
    kept: set[int] = set()
    counts = {"top": 0, "bottom": 0}
    for index, pair in enumerate(pairs):
        if pair.winner == "tie":
            continue
        counts[pair.winner] += 1
        # The other side keeps every other success, starting with its first.
        if pair.winner == upper or counts[pair.winner] % 2 == 1:
            kept.add(index)
    return Outcome(
        pairs=pairs,
        upper=upper,
        top_successes=counts["top"],
        bottom_successes=counts["bottom"],
        top_kept=kept_count(counts["top"], upper == "top"),
        bottom_kept=kept_count(counts["bottom"], upper == "bottom"),
        kept_pairs=frozenset(kept),
    )
