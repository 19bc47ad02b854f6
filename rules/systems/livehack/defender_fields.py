"""The defender's own fields of LiveHack's roll and joint dialogs (issue 39: F4-04, F4-08):
its specialty, bond and items offered from its sheet, its effort and extra modifier."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules.bounds import MODIFIER
from rules.forms import Field, int_value

from .sheet import EFFORT_PER_ROLL, LiveHackSheet, Rating, format_ratings

if TYPE_CHECKING:
    from .events import LiveHackCombatant


def text(key: str, label: str, help: str) -> Field:
    return Field(key=key, label=label, kind="text", help=help)


def defender_ratings(defender: LiveHackCombatant) -> list[Field]:
    """*Defenses*: the defense takes the place of the "appropriate skill" in *Roll Components*,
    the rest of the list stands: the defender's specialty, bond and items, offered from its
    sheet (F4-04; the help lists what the sheet has)."""
    sheet: LiveHackSheet = defender.sheet
    return [
        text(key, label, help=_on_sheet(defender.name, ratings))
        for key, label, ratings in (
            ("defender_specialty", "Defender specialty", sheet.specialties),
            ("defender_bond", "Defender bond", sheet.bonds),
            ("defender_items", "Defender items", sheet.items),
        )
    ]


def _on_sheet(name: str, ratings: tuple[Rating, ...]) -> str:
    if not ratings:
        return f"none on {name}'s sheet"
    return f"{name}: {format_ratings(ratings)}"


def defender_values(values: Mapping[str, str]) -> dict[str, str]:
    """The defender's specialty, bond and items as typed (trimmed)."""
    keys = ("defender_specialty", "defender_bond", "defender_items")
    return {key: values.get(key, "").strip() for key in keys}


def defender_effort(values: Mapping[str, str]) -> int:
    return int_value(values, "defender_effort", "Defender effort", low=0, limit=EFFORT_PER_ROLL)


def defender_extra(values: Mapping[str, str]) -> int:
    return int_value(values, "defender_extra", "Defender extra modifier", limit=MODIFIER)
