"""Generic d20's tables, shared by its odds, its headless commands and the system: the
abilities, what the SRD's conditions do to rolls, the tiers of each roll. No msgspec."""

from __future__ import annotations

Band = tuple[str, int | None, int | None, str]  # label, low, high, effect

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
ABILITY_NAMES = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}
MODES = ("normal", "advantage", "disadvantage")
MODE_OF = {"normal": 0, "advantage": 1, "disadvantage": -1}
MODE_WORD = {0: "", 1: "advantage", -1: "disadvantage"}
CRIT = 20  # a natural 20 is a critical hit (a sheet's range may start lower)
DEATH_SAVES = 3  # successes to stabilise, failures to die
DEATH_DC = 10
CONCENTRATION_DC = 10  # or half the damage taken, whichever is higher
MAX_LEGENDARY = 5

# The SRD 5.1's conditions (Appendix PH-A), and what the tracker applies of them to rolls.
CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)
# The bearer's attack rolls have disadvantage / advantage.
ATTACKS_AT_DISADVANTAGE = frozenset({"blinded", "frightened", "poisoned", "prone", "restrained"})
ATTACKS_AT_ADVANTAGE = frozenset({"invisible"})
# Attack rolls against the bearer have advantage / disadvantage.
ATTACKED_WITH_ADVANTAGE = frozenset(
    {"blinded", "paralyzed", "petrified", "restrained", "stunned", "unconscious"}
)
ATTACKED_WITH_DISADVANTAGE = frozenset({"invisible"})
# Prone: attacks against it within 5 feet have advantage, from farther disadvantage.
PRONE = "prone"
# A hit from within 5 feet on the bearer is a critical hit.
CRITICAL_WHEN_HIT = frozenset({"paralyzed", "unconscious"})
# The bearer automatically fails Strength and Dexterity saving throws.
FAILS_STR_DEX = frozenset({"paralyzed", "petrified", "stunned", "unconscious"})
# Restrained: disadvantage on Dexterity saving throws.
DEX_SAVES_AT_DISADVANTAGE = frozenset({"restrained"})
# The bearer can take no actions or reactions.
INCAPACITATING = frozenset({"incapacitated", "paralyzed", "petrified", "stunned", "unconscious"})

# The tiers of an attack, on the margin (total - AC); a critical is a natural roll, not a
# band of margins (``lands_in`` says so).
ATTACK_TIERS: tuple[Band, ...] = (
    ("miss", None, -1, "no damage"),
    ("hit", 0, None, "the damage"),
    ("critical", None, None, "the damage dice doubled"),
)
# A saving throw's tiers, on the margin (total - DC).
SAVE_TIERS: tuple[Band, ...] = (
    ("fail", None, -1, "the full effect"),
    ("save", 0, None, "half or none, as the effect says"),
)
# A death saving throw's tiers, on the natural d20.
DEATH_TIERS: tuple[Band, ...] = (
    ("two failures", None, 1, "a natural 1: two failures"),
    ("failure", 2, 9, "one failure"),
    ("success", 10, 19, "one success"),
    ("revived", 20, None, "a natural 20: back with 1 hit point"),
)
