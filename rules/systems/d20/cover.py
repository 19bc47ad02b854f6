"""Cover as the SRD 5.1 has it (*Combat*, Cover): half cover gives +2 to AC and Dexterity
saving throws, three-quarters cover +5. Total cover (no targeting) is left to the table."""

from __future__ import annotations

HALF, THREE_QUARTERS = 2, 5
COVERS = (
    ("none", "No cover"),
    ("half", "Half cover (+2 AC, Dex saves)"),
    ("three-quarters", "Three-quarters cover (+5)"),
)
BONUS = {"none": 0, "half": HALF, "three-quarters": THREE_QUARTERS}
WORD = {HALF: "half cover", THREE_QUARTERS: "three-quarters cover"}


def cover_bonus(cover: int) -> int:
    """A command's cover read as one of the SRD's bonuses (anything else: none)."""
    return cover if cover in WORD else 0


def save_cover(cover: int, ability: str) -> int:
    """What cover adds to a saving throw: only a Dexterity save gains it."""
    return cover_bonus(cover) if ability == "dex" else 0
