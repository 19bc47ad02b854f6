"""Beer Run's die notation, pip tiers and kept successes, free of msgspec.

The system (``rules.systems.beerrun.system``, ``dice``) and its exact odds
(``rules.systems.beerrun.odds``) both read these, so ``tracker odds beerrun`` starts without loading
the system's Structs. Source: ``shared/rules-texts/002`` (Beer Run), *Extra Dice* and *Compare
Rolls*.
"""

from __future__ import annotations

import re

from rules.errors import Rejected

MAX_DIE = 1000  # far beyond any die a table uses
MAX_POOL = 30
DIE_TEXT = re.compile(r"([0-9]*)\s*[dD]\s*([0-9]+)")


# --- notation --------------------------------------------------------------------------------


def parse_die(text: str, what: str = "A die") -> int:
    """``"d8"`` -> 8. Any size from d1 up."""
    match = DIE_TEXT.fullmatch(text.strip())
    if match is None or match.group(1):
        raise Rejected(f"{what} must be written like d8, not {text.strip()!r}")
    digits = match.group(2)
    size = int(digits) if len(digits) <= len(str(MAX_DIE)) else MAX_DIE + 1
    if not 1 <= size <= MAX_DIE:
        raise Rejected(f"{what} must be a d1 to a d{MAX_DIE}, not d{size}")
    return size


def parse_pool(text: str, what: str = "A pool") -> tuple[int, ...]:
    """``"d12,d8,2d6"`` -> (12, 8, 6, 6). Commas or spaces separate dice; or, as dice bots
    write it, ``+`` does (``d12+d8+2d6``, read by ``rules.notation``)."""
    if "+" in text:
        # Here, not above: the notation (16 modules, about a sixth of a `tracker odds
        # beerrun` process's CPU) is needed only by a pool written with `+`.
        from rules.notation import field

        sizes = [parse_die(f"d{size}", f"{what}'s die") for size in field.sizes(text, what)]
        if len(sizes) > MAX_POOL:
            raise Rejected(f"{what} can have at most {MAX_POOL} dice")
        return tuple(sizes)
    sizes = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        match = DIE_TEXT.fullmatch(part)
        if match is None:
            raise Rejected(f"{what} is a list of dice like d12,d8,2d6; {part!r} is not a die")
        digits = match.group(1) or "1"
        count = int(digits) if len(digits) <= 3 else MAX_POOL + 1
        if count == 0:
            raise Rejected(f"{what}: {part!r} rolls no dice; leave it out")
        size = parse_die(f"d{match.group(2)}", f"{what}'s die")
        sizes += [size] * count
        if len(sizes) > MAX_POOL:
            raise Rejected(f"{what} can have at most {MAX_POOL} dice")
    return tuple(sizes)


# --- comparing ---------------------------------------------------------------------------------

NO_DIE_SIZE = 1  # a shorter pool's missing die: a d1 showing 1

# The Consequences pane's tiers by the upper hand's kept successes: (label, low, high, effect).
# Once a roll says whom they strike, the system shows that one's dice instead.
PIP_BANDS: tuple[tuple[str, int, int | None, str], ...] = (
    ("ties", 0, 0, "nothing lands"),
    ("1", 1, 1, "1 pip off a die"),
    ("2", 2, 2, "2 pips off a die"),
    ("3", 3, 3, "3 pips off a die"),
    ("4", 4, 4, "4 pips off a die"),
    ("5+", 5, None, "5+ pips off a die"),
)


def kept_count(successes: int, upper: bool) -> int:
    """The upper hand keeps all; the other side its 1st, 3rd, 5th ... success."""
    return successes if upper else (successes + 1) // 2


# --- whose upper hand -----------------------------------------------------------------------

# A side's band of successes kept with the upper hand: (count label, low, high), the pip
# bands but ties; the last is open. A side keeps all of its successes with the upper hand
# (``kept_count``).
SIDE_BANDS: tuple[tuple[str, int, int | None], ...] = tuple(
    (label, low, high) for label, low, high, _ in PIP_BANDS if low
)


def reach(sizes: tuple[int, ...]) -> int:
    """The most successes a pool can score: its dice that can beat a 1 (a d1 never does)."""
    return sum(1 for size in sizes if size > NO_DIE_SIZE)


def side_bands(sizes: tuple[int, ...]) -> tuple[tuple[str, int, int | None], ...]:
    """The bands of ``SIDE_BANDS`` a pool of these dice can reach with the upper hand."""
    return tuple(band for band in SIDE_BANDS if band[1] <= reach(sizes))
