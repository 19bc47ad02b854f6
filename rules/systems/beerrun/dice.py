"""Beer Run's pure dice helpers: die notation, pool costs, and comparing two rolled pools.

Source: ``shared/rules-texts/002`` (Beer Run), *Extra Dice* and *Compare Rolls*.
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from rules.dice import DiceSource

from .table import DIE_TEXT as DIE_TEXT
from .table import MAX_DIE as MAX_DIE
from .table import MAX_POOL as MAX_POOL
from .table import NO_DIE_SIZE
from .table import kept_count as kept_count
from .table import parse_die as parse_die
from .table import parse_pool as parse_pool

Winner = Literal["top", "bottom", "tie"]


def pool_text(sizes: tuple[int, ...]) -> str:
    return ",".join(f"d{size}" for size in sizes)


# --- costs -----------------------------------------------------------------------------------


def extra_cost(extra: int) -> int:
    """The Intensity the extra dice cost: 1, 3, 6, 10, 15 ... for 1, 2, 3, 4, 5 ... dice."""
    return extra * (extra + 1) // 2


def pool_cost(extra: int) -> int:
    """1 Intensity for the base pool, plus the extra dice."""
    return 1 + extra_cost(extra)


MAX_REPLACED = 3  # "The GM may replace up to three dice in the pool"


def with_target_die(
    difficulty: tuple[int, ...], target: int, replace: int = MAX_REPLACED
) -> tuple[int, ...]:
    """A helping or situational difficulty: up to ``replace`` of its dice (the GM's choice,
    0-3) become the target die.

    An empty difficulty is ``replace`` target dice. The smallest dice smaller than the target
    are replaced (default d2s first), as replacing makes the roll harder.
    """
    if not difficulty:
        return (target,) * replace
    order = sorted(range(len(difficulty)), key=lambda i: difficulty[i])
    chosen = [i for i in order if difficulty[i] < target][:replace]
    return tuple(target if i in chosen else size for i, size in enumerate(difficulty))


def replaced_text(difficulty: tuple[int, ...], target: int, replace: int) -> str:
    """What ``with_target_die`` did, said (issue 39, F4-10): how many of the dice the GM asked
    for became the target die, and why the rest did not ("" when the GM asked for none)."""
    if not replace or not difficulty:
        return ""  # none asked, or a blank difficulty: that many target dice, as listed
    smaller = sum(1 for size in difficulty if size < target)
    done = min(replace, smaller)
    text = f"the d{target} replaces {done or 'none'} of the {replace} asked"
    if done == replace:
        return text
    larger = tuple(size for size in difficulty if size >= target)
    if not larger:
        return f"{text}: the pool has no more dice"
    are, them = ("is", "it") if len(larger) == 1 else ("are", "them")
    return (
        f"{text}: {pool_text(larger)} {are} no smaller, and replacing {them} would make it easier"
    )


# --- rolled pools and comparing them --------------------------------------------------------


class Die(Struct, frozen=True):
    """One rolled die; ``label`` says where it came from (an ability, "situation"...)."""

    size: int
    face: int
    label: str = ""


NO_DIE = Die(NO_DIE_SIZE, 1, "no die")  # a shorter pool's missing die: a d1 showing 1


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
