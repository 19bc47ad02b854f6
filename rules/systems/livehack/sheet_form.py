"""The LiveHack sheet as a dialog: numbers, rated lists typed as text, and a stat-block switch."""

from __future__ import annotations

from collections.abc import Mapping

from msgspec import structs

from rules.bounds import MODIFIER
from rules.forms import Field, choice_value, int_value

from .sheet import (
    ATTRIBUTE_FIELDS,
    ATTRIBUTES,
    LiveHackSheet,
    format_ratings,
    offset_effects,
    parse_ratings,
)

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
