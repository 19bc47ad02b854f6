"""The SRD's monsters, as structured data (``srd_shape.py``), made into Generic d20 library
stat blocks by the project's own code: names and numbers only, never the prose. Pure: data
in; the TOML text, what the sheet could not hold and what was mended out. ``make srd``
bundles the SRD 5.1's 334 in ``stat_blocks/srd/``; ``tracker library import`` keeps a GM's
download in their library. Readings: ``srd-conversion.md``, made from the same code."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules.conversion import Conversion, ConvertedBlock
from rules.errors import Rejected
from rules.text import inert

from .actions import actions_text
from .condition_names import srd_name
from .damage_types import DAMAGE_TYPES
from .sheet import MONSTER, D20Sheet, hp_odds, sheet_from_values
from .srd_actions import Notes, actions_of, legendary_of, reactions_of
from .srd_page import page
from .srd_shape import NOTICE, SCORE_OF, display_name, monsters_of
from .table import ABILITIES, MAX_LEGENDARY
from .traits import AT_ZERO, NUMBERED, PLAYED, REGENERATION, RELENTLESS

SET_NAME = "srd"
PAGE_NAME = "srd-conversion.md"
LEGENDARY_COUNT = 3  # a round's legendary actions, when the data has some: the SRD's every one
# "from nonmagical weapons" (or attacks), "... that aren't silvered", "(from stoneskin)"
SHRUGS_OFF = re.compile(r"takes ([0-9]{1,4}) damage or less")  # Relentless
DOWN_NOT_DEAD = "dies only if it starts its turn with 0 hit points"  # a troll's
REGAINS = re.compile(r"regains ([0-9]{1,4}) hit points")  # Regeneration, and what stops it
STOPPED = re.compile(r"takes ([a-z]+(?: or [a-z]+)?) damage")
NONMAGICAL = re.compile(r"from nonmagical (?:weapons|attacks)\b.*", re.IGNORECASE)
TYPES = re.compile(r"^\s*([a-z]+(?:\s*,\s*(?:and\s+)?[a-z]+)*)(?:\s+from\b.*)?$", re.IGNORECASE)


def conversion(data: object) -> Conversion | None:
    """Every monster ``data`` holds, converted (None: not the SRD's shape)."""
    monsters = monsters_of(data)
    if monsters is None:
        return None
    blocks = tuple(block(m) for m in monsters)
    return Conversion(
        blocks=blocks, set_name=SET_NAME, notice=NOTICE, page_name=PAGE_NAME, page=page(blocks)
    )


def modifier(score: int) -> int:
    return (score - 10) // 2


def challenge(rating: float) -> str:
    """0.25 as "1/4", 17 as "17"."""
    return str(Fraction(rating).limit_denominator(8))


def saves(monster: Mapping[str, Any]) -> str:
    """Its saving throws: a proficient one as the data gives it, the rest its modifier."""
    found = {a: modifier(int(monster[SCORE_OF[a]])) for a in ABILITIES}
    for item in monster.get("proficiencies", []):
        index = item.get("proficiency", {}) if isinstance(item, Mapping) else {}
        index = index.get("index", "") if isinstance(index, Mapping) else ""
        ability = str(index).removeprefix("saving-throw-")
        value = item.get("value") if isinstance(item, Mapping) else None
        if str(index).startswith("saving-throw-") and ability in found and isinstance(value, int):
            found[ability] = value
    return " ".join(f"{a.capitalize()} {found[a]:+d}" for a in ABILITIES)


def damage_types(listed: object, what: str, notes: Notes) -> str:
    """The damage types of a resistance list: one "from nonmagical weapons" as the sheet
    types it (``nonmagical slashing``), what else qualifies it noted (a silvered weapon is not
    told apart); another qualified one ("piercing from magic weapons wielded by good
    creatures") counts as its types, noted; one naming no damage type ("damage from spells")
    is noted."""
    kinds: list[str] = []
    for raw in listed if isinstance(listed, list) else []:
        text = str(raw)
        found = TYPES.match(text)
        words = re.split(r"[,\s]+", found.group(1).casefold()) if found else []
        named = [w for w in words if w in DAMAGE_TYPES]
        if not named:
            notes.left_out.append(f"{what}: {text[:80]}")
            continue
        folded = text.casefold()
        qualifier = text[folded.index(" from ") + 1 :] if " from " in folded else ""
        if NONMAGICAL.fullmatch(qualifier):
            named = [f"nonmagical {k}" for k in named]
            if qualifier.casefold().rstrip(")").endswith(("silvered", "adamantine", "stoneskin")):
                notes.left_out.append(
                    f"{what} {qualifier[:80]}: the sheet's count against any nonmagical weapon"
                )
        elif qualifier:
            notes.left_out.append(f"{what} only {qualifier[:80]}: the sheet's are from any")
        kinds += [k for k in named if k not in kinds]
    return ", ".join(kinds)


def hit_points(monster: Mapping[str, Any], notes: Notes) -> str:
    """The hit point dice, rolled as it joins; the number where the dice cannot be rolled."""
    roll = monster.get("hit_points_roll")
    if isinstance(roll, str) and roll.strip():
        try:
            hp_odds(roll)
        except Rejected as refused:
            notes.left_out.append(
                f"hit point dice {roll[:40]!r} ({refused.message}): its {monster['hit_points']}"
            )
        else:
            return "".join(roll.split())
    return str(monster["hit_points"])


def legendary_resistance(monster: Mapping[str, Any]) -> int:
    for ability in monster.get("special_abilities", []):
        name = str(ability.get("name", ""))
        if not name.casefold().startswith("legendary resistance"):
            continue
        usage = ability.get("usage")
        times = usage.get("times") if isinstance(usage, Mapping) else None
        said = re.search(r"\(([0-9])\s*/\s*day\)", name, re.IGNORECASE)
        if isinstance(times, int) and 1 <= times <= 9:
            return times
        return int(said.group(1)) if said else 0
    return 0


def block(monster: Mapping[str, Any]) -> ConvertedBlock:
    """One monster as a stat block: its TOML, what was left out and what was mended."""
    notes = Notes()
    name = display_name(monster)
    actions = actions_of(monster, notes)
    legendary = legendary_of(monster, actions, notes)
    reactions = reactions_of(monster, notes)
    sheet: dict[str, str] = {
        "hp": hit_points(monster, notes),
        "ac": str(monster["armor_class"][0]["value"]),
        "saves": saves(monster),
        "initiative": str(modifier(int(monster["dexterity"]))),
    }
    for key, listed, what in (
        ("resistances", "damage_resistances", "resistance"),
        ("vulnerabilities", "damage_vulnerabilities", "vulnerability"),
        ("immunities", "damage_immunities", "immunity"),
    ):
        kinds = damage_types(monster.get(listed, []), what, notes)
        if kinds:
            sheet[key] = kinds
    if legendary:
        sheet["legendary"] = str(min(LEGENDARY_COUNT, MAX_LEGENDARY))
    sheet["challenge"] = challenge(monster["challenge_rating"])
    lists = {"actions": actions, "legendary_actions": legendary, "reactions": reactions}
    if resistance := legendary_resistance(monster):
        sheet["legendary_resistance"] = str(resistance)
    if _magical(monster):
        sheet["magical"] = "yes"
    if immune := _condition_immunities(monster, notes):
        sheet["condition_immunities"] = immune
    if played := _traits(monster, notes):
        sheet["traits"] = ", ".join(played)
    _sheet(sheet, lists, notes)
    text = _toml(name, str(monster.get("type", "")), sheet, lists)
    facts = f"HP {sheet['hp']}, AC {sheet['ac']}, CR {sheet['challenge']}"
    return ConvertedBlock(
        name=name,
        text=text,
        facts=facts,
        left_out=tuple(dict.fromkeys(notes.left_out)),
        corrections=tuple(dict.fromkeys(notes.corrections)),
    )


def _magical(monster: Mapping[str, Any]) -> bool:
    """Whether a trait says its weapon attacks are magical (Magic Weapons, Angelic Weapons)."""
    return any(
        "weapon attacks are magical" in str(a.get("desc", ""))
        for a in monster.get("special_abilities", [])
        if isinstance(a, Mapping)
    )


def _traits(monster: Mapping[str, Any], notes: Notes) -> list[str]:
    """The traits the tracker plays (traits.py), returned; its other traits (Legendary
    Resistance aside) noted by name."""
    abilities = [a for a in monster.get("special_abilities", []) if isinstance(a, Mapping)]
    named = {
        str(a.get("name", "")): str(a.get("desc", ""))
        for a in abilities
        if not str(a.get("name", "")).casefold().startswith("legendary resistance")
        and str(a.get("name", "")) != "Magic Weapons"  # the sheet's Magical attacks
    }
    played = [_played(name, desc) for name, desc in named.items()]
    traits = [name for name, found in zip(named, played, strict=True) if not found]
    if traits:
        notes.left_out.append(
            "traits: " + ", ".join(" ".join(inert(t).split())[:60] for t in traits)
        )
    return [found for found in played if found]


def _played(name: str, desc: str) -> str:
    """A trait as the sheet's *Traits* write it ("" for one the tracker does not play):
    Relentless with the damage its words say it shrugs off, Regeneration with its hit points,
    the damage that stops it and a troll's ``at 0``."""
    if name not in PLAYED:
        return ""
    if name not in NUMBERED:
        return name
    said = (SHRUGS_OFF if name == RELENTLESS else REGAINS).search(desc)
    if said is None:
        return ""
    stops = STOPPED.search(desc) if name == REGENERATION else None
    kinds = stops.group(1).replace(" or ", " ") if stops else ""
    at_zero = " ".join(AT_ZERO) if name == REGENERATION and DOWN_NOT_DEAD in desc else ""
    return " ".join(w for w in (name, said.group(1), kinds, at_zero) if w)


def _condition_immunities(monster: Mapping[str, Any], notes: Notes) -> str:
    """The SRD conditions it is immune to, as the sheet types them; another name noted."""
    named = [
        str(c.get("index", c.get("name", ""))) if isinstance(c, Mapping) else str(c)
        for c in monster.get("condition_immunities", [])
    ]
    kept = [srd_name(n) for n in named if srd_name(n)]
    other = [n for n in named if not srd_name(n)]
    if other:
        notes.left_out.append("immune to the conditions " + inert(", ".join(other))[:200])
    return ", ".join(dict.fromkeys(kept))


def _sheet(fields: dict[str, str], lists: dict[str, Any], notes: Notes) -> D20Sheet:
    """The sheet the block makes, read by the system's own form as the library reads it;
    where the lists as a whole are refused (a composition naming what is not there), the
    lists are dropped to what reads, noted."""
    values = dict(fields) | {k: actions_text(v) for k, v in lists.items()}
    try:
        return sheet_from_values(values, D20Sheet(kind=MONSTER))
    except Rejected as refused:
        notes.left_out.append(f"its actions as a whole ({refused.message})")
        for key in lists:
            lists[key] = tuple(a for a in lists[key] if not a.makes)
        values = dict(fields) | {k: actions_text(v) for k, v in lists.items()}
        return sheet_from_values(values, D20Sheet(kind=MONSTER))


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _string(text: str) -> str:
    """A TOML basic string (the file is read by ``tomllib``): quotes and backslashes
    escaped, and every control character, so a GM's file cannot break a line."""
    escaped = "".join(
        _ESCAPES.get(c) or (f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c) for c in text
    )
    return f'"{escaped}"'


def _toml(name: str, kind: str, sheet: dict[str, str], lists: dict[str, Any]) -> str:
    notice = "\n".join(f"# {line}" for line in NOTICE.splitlines())
    lines = [
        "# A Generic d20 stat block for the combat tracker, converted from the SRD 5.1's data",
        notice,
        f"name = {_string(name)}",
        'system = "d20"',
        f'kind = "{MONSTER}"',
    ]
    creature = " ".join(inert(kind).split())[:40]
    if creature:
        lines.append(f"type = {_string(creature)}")
    lines += ['side = "foes"', "", "[sheet]"]
    lines += [f"{key} = {_string(value)}" for key, value in sheet.items() if key != "challenge"]
    for key, actions in lists.items():
        if len(actions) == 1:
            lines.append(f"{key} = {_string(actions_text(actions))}")
        elif actions:
            body = "\n".join(actions_text((a,)) for a in actions)
            # One action a line, as a GM types them: a literal string (no escapes read),
            # unless the text holds its closing marks (a name from a GM's file).
            mark = "'" * 3
            literal = mark not in body and inert(body.replace("\n", " ")) == body.replace("\n", " ")
            lines.append(
                f"{key} = {mark}\n{body}\n{mark}" if literal else f"{key} = {_string(body)}"
            )
    lines.append(f"challenge = {_string(sheet['challenge'])}")
    return "\n".join(lines) + "\n"
