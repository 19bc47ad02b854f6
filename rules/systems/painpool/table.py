"""Pain Pool's pools, dice and outcome tiers, free of msgspec.

The system's modules and its exact odds (``odds``) both read these, so ``tracker odds
painpool`` starts without loading the system's Structs.
"""

from __future__ import annotations

from typing import Literal

PoolName = Literal["power", "precision", "possibility"]
POOLS: tuple[PoolName, ...] = ("power", "precision", "possibility")
BUILD_SIZES = (8, 6, 4)  # the hero's build gives one of each to the three attributes
PAIN_DIE = 6
MIN_PAIN_DICE = 3
KEPT_PAIN = 3

# Dominance ties: the larger die wins, then a hero pool beats Pain ("Dominance").
TIE_ORDER: dict[str, int] = {"power": 1, "precision": 1, "possibility": 1, "pain": 0}

# The outcome tiers by the difference (hero total minus pain total): Best, Good, Worst.
TIER_LABELS = ("Best", "Good", "Worst")
TIER_BOUNDS: tuple[tuple[int | None, int | None], ...] = ((1, None), (0, 0), (None, -1))
