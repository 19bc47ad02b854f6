"""Fatigue & Thresholds, the pure arithmetic: pools, penalties, stress dice, thresholds, aid.

Source: ``shared/rules-texts/003`` ("Resolving Actions"). The system module
(``rules.systems.fatigue.system``) turns these into commands, events and what the app shows. The
situation dice and threshold bands live in ``table`` (free of msgspec, for the exact
odds) and are re-exported here.
"""

from __future__ import annotations

import re
from typing import Literal

from msgspec import Struct

from rules.dice import DiceSource
from rules.errors import Rejected

from .table import DICE as DICE
from .table import FLOOR as FLOOR
from .table import LEVEL_NAMES as LEVEL_NAMES
from .table import SPACING as SPACING
from .table import TOP_LEVEL as TOP_LEVEL
from .table import DiceKind as DiceKind
from .table import band_label as band_label
from .table import cutoffs as cutoffs
from .table import defense_bands as defense_bands
from .table import defense_level as defense_level
from .table import fumbles as fumbles
from .table import spacing as spacing
from .table import stress_total as stress_total

PoolName = Literal["wind", "stamina", "wit", "focus", "sanity", "health"]
Attitude = Literal["ordinary", "relaxed", "relaxed-lod", "intense"]

POOLS: tuple[PoolName, ...] = ("wind", "stamina", "wit", "focus", "sanity", "health")
PHYSICAL: tuple[PoolName, ...] = ("wind", "stamina")
MENTAL: tuple[PoolName, ...] = ("wit", "focus", "sanity")
EFFORT_POOLS: tuple[PoolName, ...] = PHYSICAL + MENTAL
POOL_TITLES: dict[str, str] = {pool: pool.capitalize() for pool in POOLS}

ATTITUDES: tuple[tuple[Attitude, str], ...] = (
    ("ordinary", "Ordinary"),
    ("relaxed", "Relaxed (N/2, -10)"),
    ("relaxed-lod", "Relaxed, life or death (N/2, -20)"),
    ("intense", "Intense (+3N up front, +5)"),
)
ATTITUDE_MODIFIERS: dict[str, int] = {
    "ordinary": 0,
    "relaxed": -10,
    "relaxed-lod": -20,
    "intense": 5,
}

PENALTY_PER_EMPTY_POOL = 4  # "if your wind is completely empty, giving you a fatigue penalty of 4"
DEFENSE_NAMES = (
    "Ordinary defense",
    "Flailing defense",
    "Bad defense",
    "Terrible defense",
    "Catastrophic failure to defend",
)
AID_TARGET = 30
AID_MAX = 8


# --- pools and penalties -----------------------------------------------------------------------


# Wind and Wit, the short-term pools, stop at 0: the text has them "completely empty", never
# below (it names negative Stamina, Focus, Health and Sanity only), and an empty one's cost is
# its penalty of 4 and the narrowed thresholds. Every other pool stops at minus its maximum.
SHORT_TERM: tuple[PoolName, ...] = ("wind", "wit")
# By the GM's choice (issue 30, R3-14), what an empty short-term pool cannot pay comes out of
# the long-term pool behind it.
SPILLS_INTO: dict[PoolName, PoolName] = {"wind": "stamina", "wit": "focus"}


def pool_floor(pool: str, maximum: int) -> int:
    """The lowest a pool goes: 0 for Wind and Wit, minus its maximum for the others."""
    return 0 if pool in SHORT_TERM else -maximum


def pay(now: int, amount: int, floor: int) -> int:
    """The pool after paying ``amount``, stopping at ``floor`` (what is left unpaid is lost; a
    pool already below the floor, from an older save, stays where it is)."""
    return max(now - amount, min(now, floor))


def pool_penalty(current: int, maximum: int) -> int:
    """+1 per full quarter of the pool spent: an empty pool gives 4, a negative one more."""
    spent = maximum - current
    return max(0, (PENALTY_PER_EMPTY_POOL * spent) // max(maximum, 1))


def is_physical(pools: tuple[str, ...]) -> bool:
    """A task is physical when any of its effort comes from Wind or Stamina."""
    return any(pool in PHYSICAL for pool in pools)


# --- stress dice -------------------------------------------------------------------------------


def roll_stress(dice: DiceSource, kind: DiceKind) -> tuple[int, ...]:
    """Roll the dice of a situation; an open d20 showing 1 or 20 rolls one closed d20 more."""
    match kind:
        case "5d4":
            return tuple(dice.roll(4) for _ in range(5))
        case "2d10":
            return (dice.roll(10), dice.roll(10))
        case "1d20":
            return (dice.roll(20),)
        case "open-d20":
            first = dice.roll(20)
            return (first, dice.roll(20)) if first in (1, 20) else (first,)
    raise Rejected(f"unknown dice {kind!r}")


def dice_text(kind: DiceKind, faces: tuple[int, ...]) -> str:
    if kind == "open-d20" and len(faces) == 2:
        sign = "-" if faces[0] == 1 else "+"
        return f"open d20 [{faces[0]} {sign} {faces[1]}]"
    return f"{kind} [{', '.join(str(face) for face in faces)}]"


# --- effort ------------------------------------------------------------------------------------


class Cost(Struct, frozen=True):
    """An amount of one pool."""

    pool: PoolName
    amount: int


EFFORT_PART = re.compile(r"\s*([0-9]+)\s*([a-z]*)\s*")


def pool_named(word: str) -> PoolName:
    """A pool from its name or the start of it ("sta", "foc")."""
    found = [pool for pool in EFFORT_POOLS if word and pool.startswith(word)]
    if len(found) != 1:
        raise Rejected(f"{word!r} is not an effort pool (Wind, Stamina, Wit, Focus, Sanity)")
    return found[0]


def parse_effort(text: str, label: str) -> tuple[Cost, ...]:
    """Read "4 Wind + 2 Wit" (a bare number is Wind); "" or "0" is no effort."""
    costs: dict[PoolName, int] = {}
    for part in re.split(r"[+,]", text.strip().casefold()):
        if not part.strip():
            continue
        match = EFFORT_PART.fullmatch(part)
        if match is None:
            raise Rejected(f"{label}: write it like '5 Wind' or '4 Wind + 2 Wit', not {part!r}")
        amount = int(match.group(1))
        if amount > 10_000:
            raise Rejected(f"{label}: {amount} is more effort than any pool holds")
        pool = pool_named(match.group(2) or "wind")
        costs[pool] = costs.get(pool, 0) + amount
    return tuple(Cost(pool, amount) for pool, amount in costs.items() if amount)


def effort_text(costs: tuple[Cost, ...]) -> str:
    return " + ".join(f"{c.amount} {POOL_TITLES[c.pool]}" for c in costs) or "no effort"


def halved(costs: tuple[Cost, ...], up: bool = False) -> tuple[Cost, ...]:
    """A relaxed attitude halves N, to a minimum of 1, each pool's N rounded down (5 -> 2)
    or, by the GM's choice, up (5 -> 3)."""
    return tuple(Cost(c.pool, max(1, (c.amount + up) // 2)) for c in costs)


def scaled(costs: tuple[Cost, ...], factor: int) -> tuple[Cost, ...]:
    return tuple(Cost(c.pool, c.amount * factor) for c in costs)


def total_n(costs: tuple[Cost, ...]) -> int:
    return sum(c.amount for c in costs)


def merge(*groups: tuple[Cost, ...]) -> tuple[Cost, ...]:
    """Costs added pool by pool, in the order the pools first appear."""
    out: dict[PoolName, int] = {}
    for group in groups:
        for cost in group:
            out[cost.pool] = out.get(cost.pool, 0) + cost.amount
    return tuple(Cost(pool, amount) for pool, amount in out.items() if amount)


# --- thresholds (the spacing and bands are in table) -----------------------------------


def suckage_to_lift(loss: int, space: int) -> int:
    """Points that move a lost check across the next threshold up (to a win from Ordinary)."""
    level = defense_level(loss, space)
    if level is None:
        return 0
    if level == 0:
        return loss
    return loss - (level * space - 1)


def fumble_level(total: int, line: int, space: int) -> int | None:
    """An attacker who fails to beat the fumble line suffers a first consequence, one level
    worse for each further threshold missed; None when the line is beaten."""
    if not fumbles(total, line):
        return None
    missed = line - total
    return min(TOP_LEVEL, 1 + missed // space)


# --- aid ---------------------------------------------------------------------------------------


def aid_target(main: int) -> int:
    return max(AID_TARGET, main)


def aid_bonus(aid: int, main: int) -> int:
    """min(8, floor(10 (x - 0.2))) with x = aid / max(main, 30); under 20% gives 0, not less."""
    target = aid_target(main)
    # floor(10 * (aid / target - 0.2)) in whole numbers, free of float rounding at the steps.
    raw = (10 * aid - 2 * target) // target
    return max(0, min(AID_MAX, raw))
