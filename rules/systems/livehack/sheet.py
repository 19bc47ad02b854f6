"""The LiveHack character sheet: attributes, skills, bonds, items, negative traits, held bonuses;
and the sheet as a dialog (numbers, rated lists typed as text, a stat-block switch).

Source: ``shared/rules-texts/001`` (*Roll Components*, *Modifying Monster Stat Blocks*,
*Cumulative Offset Penalties*, *Effort*).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

from msgspec import Struct, structs

from rules.bounds import MODIFIER
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.roles.sheets import Sheets

Attribute = Literal["str", "int", "wis", "dex", "con", "cha"]
Trait = Literal["wounds", "fatigue", "grimness", "str", "int", "wis", "dex", "con", "cha"]

STAT_BLOCK_BASE = 10  # "ACs and DCs listed in the text must have ten subtracted from them"
EFFORT_PER_ROLL = 5
EFFORT_PER_COMBAT = 5

ATTRIBUTES: tuple[tuple[Attribute, str], ...] = (
    ("str", "Str"),
    ("int", "Int"),
    ("wis", "Wis"),
    ("dex", "Dex"),
    ("con", "Con"),
    ("cha", "Cha"),
)
# The sheet field holding each attribute's offset (Con keeps its historic name).
ATTRIBUTE_FIELDS: dict[str, str] = {
    "str": "strength",
    "int": "intelligence",
    "wis": "wisdom",
    "dex": "dexterity",
    "con": "con",
    "cha": "charisma",
}
TRAIT_CHOICES: tuple[tuple[Trait, str], ...] = (
    ("wounds", "Wounds"),
    ("fatigue", "Fatigue"),
    ("grimness", "Grimness"),
    *((key, f"{label} damage") for key, label in ATTRIBUTES),
)
TRAITS: tuple[tuple[str, str], ...] = TRAIT_CHOICES  # the same pairs, for look-ups by any str
TRAIT_FIELDS: dict[str, str] = {
    "wounds": "wounds",
    "fatigue": "fatigue",
    "grimness": "grimness",
    **{key: f"{key}_damage" for key, _ in ATTRIBUTES},
}


class Rating(Struct, frozen=True):
    """A named rating: a skill, a specialty ("Skill/specialty"), a bond or an item."""

    name: str
    value: int


class Held(Struct, frozen=True):
    """A positional bonus held over a target (*Rolling over Success Margins*), and what the
    position is (*Cancelling Opponent Positioning*: "Such positional conditions must be
    described"; "" in saves from before it was asked)."""

    target_id: str
    bonus: int
    description: str = ""

    @property
    def shown(self) -> str:
        return f"+{self.bonus} {self.description}" if self.description else f"+{self.bonus}"


class LiveHackSheet(Struct, frozen=True, kw_only=True, tag="livehack.sheet"):
    """A character or monster. Defenses are offsets unless ``stat_block`` (then as printed)."""

    attack: int = 0
    reflex: int = 0
    fortitude: int = 0
    will: int = 0
    con: int = 0
    armour: int = 0
    wounds: int = 0
    fatigue: int = 0
    grimness: int = 0
    strength: int = 0
    intelligence: int = 0
    wisdom: int = 0
    dexterity: int = 0
    charisma: int = 0
    str_damage: int = 0
    int_damage: int = 0
    wis_damage: int = 0
    dex_damage: int = 0
    con_damage: int = 0
    cha_damage: int = 0
    skills: tuple[Rating, ...] = ()
    specialties: tuple[Rating, ...] = ()
    bonds: tuple[Rating, ...] = ()
    items: tuple[Rating, ...] = ()
    effort_spent: int = 0
    stat_block: bool = False
    held: tuple[Held, ...] = ()

    def attribute(self, key: str) -> int:
        """The attribute's offset after its damage."""
        if key not in ATTRIBUTE_FIELDS:
            raise Rejected(f"unknown attribute {key!r}")
        offset: int = getattr(self, ATTRIBUTE_FIELDS[key]) - getattr(self, f"{key}_damage")
        return offset

    def defense(self, name: str) -> int:
        """A defense as an offset: a printed AC/DC has its base 10 taken off."""
        value: int = getattr(self, name)
        return value - STAT_BLOCK_BASE if self.stat_block else value

    def held_over(self, target_id: str | None) -> int:
        return sum(h.bonus for h in self.held if h.target_id == target_id)

    def position_over(self, target_id: str | None) -> str:
        """What the position held over the target is ("" for none, or none described)."""
        return next((h.description for h in self.held if h.target_id == target_id), "")

    @property
    def held_total(self) -> int:
        return sum(h.bonus for h in self.held)


def rested(sheet: LiveHackSheet) -> LiveHackSheet:
    """The sheet as a new fight begins: Wounds, Fatigue and attribute damage healed, effort
    and held positions back; Grimness stays (rulings.md, "A party carried over fresh")."""
    damage = {f"{key}_damage": 0 for key in ATTRIBUTE_FIELDS}
    return structs.replace(sheet, wounds=0, fatigue=0, effort_spent=0, held=(), **damage)


# --- ratings typed as text: "Spot 3, Hide 2" ------------------------------------------------

RATING = re.compile(r"\s*(?P<name>[^,]*?[^\s,0-9+-][^,]*?)\s+(?P<value>[+-]?[0-9]{1,4})\s*")


def parse_ratings(text: str, label: str) -> tuple[Rating, ...]:
    """Parse "Name 3, Other name -1"; a clear refusal names the field and the bad piece."""
    out: list[Rating] = []
    for piece in text.split(","):
        if not piece.strip():
            continue
        found = RATING.fullmatch(piece)
        if found is None:
            raise Rejected(f"{label}: write each as a name then a number, not {piece.strip()!r}")
        out.append(Rating(" ".join(found["name"].split()), int(found["value"])))
    return tuple(out)


def format_ratings(ratings: tuple[Rating, ...]) -> str:
    return ", ".join(f"{r.name} {r.value:+d}" for r in ratings)


def find_rating(ratings: tuple[Rating, ...], name: str, what: str) -> Rating:
    wanted = " ".join(name.split()).casefold()
    for rating in ratings:
        if rating.name.casefold() == wanted:
            return rating
    known = ", ".join(r.name for r in ratings) or "none"
    raise Rejected(f"no {what} named {name.strip()!r} (known: {known})")


def bond_with(sheet: LiveHackSheet, name: str) -> int:
    """The bond rating toward a named companion, 0 without one."""
    wanted = name.casefold()
    return next((b.value for b in sheet.bonds if b.name.casefold() == wanted), 0)


# --- Cumulative Offset Penalties ---------------------------------------------------------------


class OffsetEffect(Struct, frozen=True):
    """The -5 or -10 effect of a damaged attribute; ``check`` says the -5 roll it asks for,
    ``falls`` that reaching it knocks the character down (Prone)."""

    attribute: str
    level: int  # -5 or -10
    text: str
    check: str = ""
    stops_acting: bool = False
    falls: bool = False


OFFSET_TABLE: dict[str, tuple[OffsetEffect, OffsetEffect]] = {
    "str": (
        OffsetEffect("str", -5, "carrying capacity suffers"),
        OffsetEffect("str", -10, "falls prone, no physical action or movement", "", True, True),
    ),
    "int": (
        OffsetEffect("int", -5, "must roll Int vs DR 0 even for the simplest tasks", "Int"),
        OffsetEffect("int", -10, "catatonic and completely unresponsive", "", True),
    ),
    "wis": (
        OffsetEffect("wis", -5, "may only act after a Wis roll vs DR 0", "Wis"),
        # Not stopped: "will do whatever anyone tells them to do" is acting, on another's word.
        OffsetEffect("wis", -10, "makes no decisions, does whatever anyone says"),
    ),
    "dex": (
        OffsetEffect("dex", -5, "must roll Dex vs DR 0 for even simple physical tasks", "Dex"),
        OffsetEffect("dex", -10, "falls over paralyzed", "", True, True),
    ),
    "con": (
        OffsetEffect("con", -5, "must roll Con vs DR 0 to expend Fatigue", "Con"),
        OffsetEffect("con", -10, "may take no actions that expend Fatigue"),
    ),
    "cha": (
        OffsetEffect(
            "cha", -5, "must roll Cha vs DR 0 not to antagonize whoever they speak to", "Cha"
        ),
        OffsetEffect("cha", -10, "cannot communicate; any attempt provokes hostility"),
    ),
}


# Each attribute with the sheet field of its damage: asked of every foe at each attack.
DAMAGE_FIELDS = tuple((key, f"{key}_damage") for key, _ in ATTRIBUTES)


def offset_effects(sheet: LiveHackSheet) -> list[OffsetEffect]:
    """The effects in force, the worse one per attribute (only damage counts: "the damage
    subtracted from the attribute offsets")."""
    out = []
    for key, damage in DAMAGE_FIELDS:
        if not getattr(sheet, damage):
            continue
        value = sheet.attribute(key)
        minus_five, minus_ten = OFFSET_TABLE[key]
        if value <= -10:
            out.append(minus_ten)
        elif value <= -5:
            out.append(minus_five)
    return out


# --- the sheet as a dialog ------------------------------------------------------------------

NUMBERS: tuple[tuple[str, str], ...] = (
    ("attack", "Attack bonus"),
    ("reflex", "Reflex"),
    ("fortitude", "Fortitude"),
    ("will", "Will"),
    *((ATTRIBUTE_FIELDS[key], label) for key, label in ATTRIBUTES),
    ("armour", "Armour (Fort bonus)"),
    ("wounds", "Wounds"),
    ("fatigue", "Fatigue"),
    ("grimness", "Grimness"),
    *((f"{key}_damage", f"{label} damage") for key, label in ATTRIBUTES),
    ("effort_spent", "Effort spent this combat"),
)
LISTS: tuple[tuple[str, str, str], ...] = (
    ("skills", "Skills", "Spot 3, Hide 2"),
    ("specialties", "Specialties", "Spot/traps 2"),
    ("bonds", "Bonds", "Orla 2"),
    ("items", "Items", "Sword 2, Rope 1"),
)
STAT_BLOCK = (("no", "No: offsets"), ("yes", "Yes: as printed, 10 off"))
STAT_BLOCK_FIELD = Field(
    key="stat_block", label="Defenses as printed (AC/DC)", kind="choice", choices=STAT_BLOCK
)


def sheet_fields(sheet: LiveHackSheet) -> list[Field]:
    effects = "; ".join(
        f"{e.attribute.capitalize()} {e.level}: {e.text}" for e in offset_effects(sheet)
    )
    fields = [
        structs.replace(STAT_BLOCK_FIELD, default="yes" if sheet.stat_block else "no"),
        *(Field(key=key, label=label, default=str(getattr(sheet, key))) for key, label in NUMBERS),
        *(
            Field(
                key=key,
                label=label,
                kind="text",
                default=format_ratings(getattr(sheet, key)),
                help=example,
            )
            for key, label, example in LISTS
        ),
    ]
    if effects:
        fields.append(
            Field(key="effects", label="Offset effects (read only)", kind="text", default=effects)
        )
    return fields


def sheet_values(values: Mapping[str, str], sheet: LiveHackSheet) -> LiveHackSheet:
    changes: dict[str, object] = {
        # Every number of a LiveHack sheet is a modifier or a small count.
        key: int_value(values, key, label, getattr(sheet, key), MODIFIER)
        for key, label in NUMBERS
    }
    for key, label, _ in LISTS:
        if key in values:
            changes[key] = parse_ratings(values[key], label)
    if "stat_block" in values:
        changes["stat_block"] = choice_value(values, STAT_BLOCK_FIELD) == "yes"
    return structs.replace(sheet, **changes)


class LiveHackSheets(Sheets):
    """LiveHack's sheets part (``rules.roles.sheets``)."""

    new_sheet = staticmethod(LiveHackSheet)
    sheet_form = staticmethod(sheet_fields)
    sheet_from_form = staticmethod(sheet_values)
    fresh_sheet = staticmethod(rested)
