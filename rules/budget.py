"""The four bands of a fight's difficulty, and what a system's own encounter-building table
(an XP budget) says of a fight, for the difficulty line to set beside the forecast's.

Apart from ``rules.difficulty`` (which reads forecasts) so that ``rules.system``, whose optional
``xp_budget`` hook returns a ``Budget``, imports nothing of the forecast.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class Band(StrEnum):
    """From least to most dangerous (their order is the enum's)."""

    TRIVIAL = "trivial"
    EASY = "easy"
    HARD = "hard"
    DEADLY = "deadly"


class Budget(NamedTuple):
    """What a system's table says of a fight."""

    says: str  # the table's own word for the fight: "medium"
    band: Band  # that word in the forecast's bands, to compare the two
    lines: tuple[str, ...]  # the table's figures, one line each, as the GM reads them
