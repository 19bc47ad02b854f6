"""Fatigue & Thresholds: the situation dice and the threshold bands, free of msgspec.

The system (``rules.systems.fatigue.arithmetic`` and the modules it feeds) and its exact odds
(``rules.systems.fatigue.odds``) both read these, so ``tracker odds fatigue`` starts without loading
the system's Structs. Source: ``shared/rules-texts/003`` ("Resolving Actions").
"""

from __future__ import annotations

from typing import Literal

DiceKind = Literal["5d4", "2d10", "1d20", "open-d20"]

DICE: tuple[tuple[DiceKind, str], ...] = (
    ("5d4", "Routine 5d4"),
    ("2d10", "Experienced 2d10"),
    ("1d20", "New / pressure 1d20"),
    ("open-d20", "Extreme stress open d20"),
)

SPACING = 10
FLOOR = 3
LEVEL_NAMES = ("Ordinary", "Flailing", "Bad", "Terrible", "Catastrophic")
TOP_LEVEL = len(LEVEL_NAMES) - 1


def stress_total(kind: DiceKind, faces: tuple[int, ...]) -> int:
    """Open d20: 1 then x gives 1 - x, 20 then x gives 20 + x; other dice are summed."""
    if kind == "open-d20" and len(faces) == 2:
        return faces[0] - faces[1] if faces[0] == 1 else faces[0] + faces[1]
    return sum(faces)


# --- thresholds --------------------------------------------------------------------------------


def fumbles(total: int, line: int) -> bool:
    """Whether an attacker's total fails to beat its fumble line (*Fumble thresholds*)."""
    return total <= line


def spacing(penalty: int, floor: int) -> int:
    """Thresholds are 10 - fatigue penalty apart, never closer than the floor T."""
    return max(SPACING - penalty, floor)


def cutoffs(space: int) -> tuple[int, ...]:
    """Where each penalty starts, e.g. 0/6/12/18/24 for a spacing of 6."""
    return tuple(space * level for level in range(TOP_LEVEL + 1))


def defense_level(loss: int, space: int) -> int | None:
    """None when the defender wins (ties included); else 0 (Ordinary) up to 4 (Catastrophic)."""
    if loss <= 0:
        return None
    return min(TOP_LEVEL, loss // space)


def band_label(low: int, high: int | None) -> str:
    """ "12-17", "24+", or "none" for an empty band (with T = 1 an Ordinary loss cannot happen)."""
    if high is None:
        return f"{low}+"
    return f"{low}-{high}" if high >= low else "none"


WIN_BAND: tuple[str, int | None, int | None] = ("<=0", None, 0)  # the defender's win


def level_bands(space: int) -> tuple[tuple[str, int, int | None], ...]:
    """The bands of a defender's loss, Ordinary up to Catastrophic at this spacing, as (label,
    low, high) with inclusive bounds (None: open)."""
    bands: list[tuple[str, int, int | None]] = []
    for level, cut in enumerate(cutoffs(space)):
        high = cut + space - 1 if level < TOP_LEVEL else None
        low = max(cut, 1)
        bands.append((band_label(low, high), low, high))
    return tuple(bands)


def defense_bands(space: int) -> tuple[tuple[str, int | None, int | None], ...]:
    """Every band a check's margin falls in, as (label, low, high) with inclusive bounds (None:
    open): the defender's win (<=0), then Ordinary up to Catastrophic at this spacing."""
    return (WIN_BAND, *level_bands(space))
