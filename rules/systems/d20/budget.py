"""Generic d20's XP budget (the ``xp_budget`` hook): what the 2014 and the 2024 encounter-
building tables say of a fight, set beside the forecast's difficulty.

The party's levels and the foes' challenge ratings are read from each sheet's ``challenge``
field ("Challenge or level"): a foe's "1/4", "1/2", "1" to "30" (a leading "CR" is fine), a
hero's level as its number ("fighter 3"; several classes are added: "fighter 3 / wizard 2" is
level 5). Whoever is out of the fight already, and a lair (its creature's XP is the lair's
too), is left out. The tables are the SRD's (5.1 and 5.2): the XP of a challenge rating; the
2014 thresholds a character (easy, medium, hard, deadly) summed over the party, against the
foes' XP times the group multiplier, which depends on how many foes there are and is one step
up for a party under three and one step down for six or more; the 2024 budget a character
(low, moderate, high) summed over the party, against the foes' XP as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.budget import Band, Budget

from .sheet import LAIR, D20Sheet
from .standing import out_word

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

XP_BY_CHALLENGE = {
    "0": 10,
    "1/8": 25,
    "1/4": 50,
    "1/2": 100,
    "1": 200,
    "2": 450,
    "3": 700,
    "4": 1_100,
    "5": 1_800,
    "6": 2_300,
    "7": 2_900,
    "8": 3_900,
    "9": 5_000,
    "10": 5_900,
    "11": 7_200,
    "12": 8_400,
    "13": 10_000,
    "14": 11_500,
    "15": 13_000,
    "16": 15_000,
    "17": 18_000,
    "18": 20_000,
    "19": 22_000,
    "20": 25_000,
    "21": 33_000,
    "22": 41_000,
    "23": 50_000,
    "24": 62_000,
    "25": 75_000,
    "26": 90_000,
    "27": 105_000,
    "28": 120_000,
    "29": 135_000,
    "30": 155_000,
}

# 2014: XP thresholds a character, by level (easy, medium, hard, deadly).
THRESHOLDS_2014 = (
    (25, 50, 75, 100),
    (50, 100, 150, 200),
    (75, 150, 225, 400),
    (125, 250, 375, 500),
    (250, 500, 750, 1_100),
    (300, 600, 900, 1_400),
    (350, 750, 1_100, 1_700),
    (450, 900, 1_400, 2_100),
    (550, 1_100, 1_600, 2_400),
    (600, 1_200, 1_900, 2_800),
    (800, 1_600, 2_400, 3_600),
    (1_000, 2_000, 3_000, 4_500),
    (1_100, 2_200, 3_400, 5_100),
    (1_250, 2_500, 3_800, 5_700),
    (1_400, 2_800, 4_300, 6_400),
    (1_600, 3_200, 4_800, 7_200),
    (2_000, 3_900, 5_900, 8_800),
    (2_100, 4_200, 6_300, 9_500),
    (2_400, 4_900, 7_300, 10_900),
    (2_800, 5_700, 8_500, 12_700),
)
WORDS_2014 = ("easy", "medium", "hard", "deadly")
# Below easy, and each threshold reached, in the forecast's bands: an "easy" fight of the
# table "might cost a few hit points, victory pretty much guaranteed" (trivial here); a
# "medium" one "one or two scary moments, no casualties" (easy here); hard and deadly alike.
BANDS_2014 = (Band.TRIVIAL, Band.TRIVIAL, Band.EASY, Band.HARD, Band.DEADLY)
# The group multiplier's steps; a count of foes picks one, a party under 3 or over 5 moves it.
MULTIPLIERS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
FOES_FOR_STEP = ((15, 6), (11, 5), (7, 4), (3, 3), (2, 2), (1, 1))

# 2024: XP budget a character, by level (low, moderate, high).
BUDGET_2024 = (
    (50, 75, 100),
    (100, 150, 200),
    (150, 225, 400),
    (250, 375, 500),
    (500, 750, 1_100),
    (600, 1_000, 1_400),
    (750, 1_300, 1_700),
    (1_000, 1_700, 2_100),
    (1_300, 2_000, 2_600),
    (1_600, 2_300, 3_100),
    (1_900, 2_900, 4_100),
    (2_200, 3_700, 4_700),
    (2_600, 4_200, 5_400),
    (2_900, 4_900, 6_200),
    (3_300, 5_400, 7_800),
    (3_800, 6_100, 9_800),
    (4_500, 7_200, 11_700),
    (5_000, 8_700, 14_200),
    (5_500, 10_700, 17_200),
    (6_400, 13_200, 22_000),
)
WORDS_2024 = ("low", "moderate", "high")

MAX_LEVEL = len(THRESHOLDS_2014)
CHALLENGE = re.compile(r"(?:cr\s*)?(\d{1,2}/\d{1,2}|\d{1,3})", re.IGNORECASE)
NUMBER = re.compile(r"\d{1,3}")


def challenge_xp(text: str) -> int | None:
    """The XP of a challenge rating as a stat block writes it ("1/4", "CR 5"); None if it is
    none the table has."""
    found = CHALLENGE.search(text)
    return XP_BY_CHALLENGE.get(found.group(1)) if found else None


def level(text: str) -> int | None:
    """A hero's level: the sum of the numbers in "fighter 3 / wizard 2"; None unless 1-20."""
    total = sum(int(n) for n in NUMBER.findall(text))
    return total if 1 <= total <= MAX_LEVEL else None


def multiplier(foes: int, party: int) -> float:
    """The 2014 group multiplier for ``foes`` monsters against a party of ``party``."""
    step = next((s for least, s in FOES_FOR_STEP if foes >= least), 1)
    if party < 3:
        step += 1
    elif party >= 6:
        step -= 1
    return MULTIPLIERS[step]


def thresholds_2014(levels: Sequence[int]) -> tuple[int, ...]:
    """The party's easy, medium, hard and deadly thresholds (a level-3 party of 4: 300, 600,
    900, 1,600)."""
    return tuple(sum(THRESHOLDS_2014[lv - 1][i] for lv in levels) for i in range(4))


def budget_2024(levels: Sequence[int]) -> tuple[int, ...]:
    """The party's low, moderate and high budgets."""
    return tuple(sum(BUDGET_2024[lv - 1][i] for lv in levels) for i in range(3))


def reached(total: float, edges: Sequence[int]) -> int:
    """How many of ``edges`` (rising) ``total`` reaches."""
    return sum(1 for edge in edges if total >= edge)


def _counted(state: D20Encounter, combatant: D20Combatant) -> bool:
    sheet: D20Sheet = combatant.sheet
    return sheet.kind != LAIR and not out_word(combatant)


def _n(value: float) -> str:
    return f"{value:,.0f}"


def xp_budget(state: D20Encounter, party: str) -> Budget | None:
    """The 2014 and 2024 tables' word for the fight; None without a hero's level or a foe's
    challenge rating to go on."""
    people = [c for c in state.combatants if _counted(state, c)]
    heroes = [c for c in people if c.side == party]
    foes = [c for c in people if c.side != party]
    levels = [lv for c in heroes if (lv := level(c.sheet.challenge)) is not None]
    xps = [xp for c in foes if (xp := challenge_xp(c.sheet.challenge)) is not None]
    if not levels or not xps:
        return None
    base = sum(xps)
    factor = multiplier(len(xps), len(levels))
    adjusted = base * factor
    edges = thresholds_2014(levels)
    step = reached(adjusted, edges)
    says = WORDS_2014[step - 1] if step else "under easy"
    shown = ", ".join(f"{w} {_n(e)}" for w, e in zip(WORDS_2014, edges, strict=True))
    old = f"XP 2014: {_n(adjusted)} ({_n(base)} x{factor:g}): {says} · {shown}"
    budget = budget_2024(levels)
    got = reached(base, budget)
    word = WORDS_2024[got - 1] if got else "under low"
    if base > budget[-1]:
        word = "over high"
    listed = ", ".join(f"{w} {_n(e)}" for w, e in zip(WORDS_2024, budget, strict=True))
    new = f"XP 2024: {_n(base)}: {word} · {listed}"
    lines = [old, new]
    left = len(heroes) - len(levels) + len(foes) - len(xps)
    if left:
        lines.append(f"({left} left out: no level or challenge rating in Challenge or level)")
    return Budget(says, BANDS_2014[step], tuple(lines))


def budget_hook(system: object, state: D20Encounter, party: str) -> Budget | None:
    """``RuleSystem.xp_budget`` for Generic d20 (its class takes it as a method)."""
    return xp_budget(state, party)
