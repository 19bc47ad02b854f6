"""Monsters in the shape of the SRD's structured data (the 5e-bits database, the public
D&D 5e API's ``/api/2014/monsters/<index>``): which data has that shape, and whether each
monster has the fields a stat block is made from. Read for facts only (names and numbers);
the prose (``desc``) is never copied. Nothing here reads a file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import MAX_NAME
from rules.errors import Rejected
from rules.text import inert

from .table import ABILITIES

# The SRD 5.1's licence (CC-BY-4.0) asks for this notice, word for word, wherever its
# material goes: each bundled stat block, the library's folder, the docs.
NOTICE = (
    'This work includes material taken from the System Reference Document 5.1 ("SRD 5.1") by\n'
    "Wizards of the Coast LLC and available at\n"
    "https://dnd.wizards.com/resources/systems-reference-document. The SRD 5.1 is licensed\n"
    "under the Creative Commons Attribution 4.0 International License available at\n"
    "https://creativecommons.org/licenses/by/4.0/legalcode."
)
MAX_MONSTERS = 1000  # in one file: the SRD has 334
MAX_LIST = 40  # actions, abilities or proficiencies of one monster (the SRD's most: 12)
SCORES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
SCORE_OF = dict(zip(ABILITIES, SCORES, strict=True))
# Fields only this shape has: data with one of them is taken for monsters, then checked.
MARKS = ("armor_class", "challenge_rating", "hit_points_roll")
LISTS = ("actions", "legendary_actions", "reactions", "special_abilities", "proficiencies")


def monsters_of(data: object) -> list[Mapping[str, Any]] | None:
    """The monsters ``data`` holds (one, or a list of them), each checked; None when it is
    not of this shape at all; ``Rejected`` in one line for a damaged one."""
    if isinstance(data, Mapping) and any(mark in data for mark in MARKS):
        items: list[object] = [data]
    elif (
        isinstance(data, list)
        and data
        and any(isinstance(i, Mapping) and any(m in i for m in MARKS) for i in data[:50])
    ):
        items = data
    else:
        return None
    if len(items) > MAX_MONSTERS:
        raise Rejected(f"more than {MAX_MONSTERS:,} monsters in one file ({len(items):,})")
    found = []
    for number, item in enumerate(items, 1):
        where = f"monster {number}" if len(items) > 1 else "the monster"
        found.append(checked(item, where))
    return found


def display_name(monster: Mapping[str, Any]) -> str:
    """A monster's name as the library keeps it: on one line, every unsafe character gone."""
    return " ".join(inert(str(monster.get("name", ""))).split())


def checked(item: object, where: str) -> Mapping[str, Any]:
    """``item`` when it holds what a stat block is made from, each field of its type and
    within bounds; else ``Rejected`` naming the monster and the field."""
    if not isinstance(item, Mapping):
        raise Rejected(f"{where}: not a monster (a JSON object with a name, armor_class ...)")
    name = item.get("name")
    if not isinstance(name, str) or not display_name(item):
        raise Rejected(f"{where}: no name")
    shown = display_name(item)
    if len(shown) > MAX_NAME:
        raise Rejected(f"{where}: a name has at most {MAX_NAME} characters, not {len(shown)}")
    where = f"{where} ({shown[:MAX_NAME]!r})"
    _number(item, "hit_points", where, 1, 10_000)
    _number(item, "challenge_rating", where, 0, 30, whole=False)
    for score in SCORES:
        _number(item, score, where, 1, 99)
    armour = item.get("armor_class")
    if not (
        isinstance(armour, list)
        and armour
        and isinstance(armour[0], Mapping)
        and _whole(armour[0].get("value"), 0, 99)
    ):
        raise Rejected(f'{where}: armor_class must be a list like [{{"value": 15}}]')
    if not isinstance(item.get("type", ""), str):
        raise Rejected(f"{where}: type must be text")
    for key in LISTS:
        value = item.get(key, [])
        if not isinstance(value, list) or len(value) > MAX_LIST:
            raise Rejected(f"{where}: {key} must be a list of at most {MAX_LIST}")
        for entry in value:
            if key != "proficiencies" and not (
                isinstance(entry, Mapping) and isinstance(entry.get("name"), str)
            ):
                raise Rejected(f"{where}: each of its {key} must be an object with a name")
    return item


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _number(
    item: Mapping[str, Any], key: str, where: str, low: int, high: int, *, whole: bool = True
) -> None:
    value = item.get(key)
    if value is None:
        raise Rejected(f"{where}: no {key}")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or (whole and not isinstance(value, int)) or not low <= value <= high:
        kind = "a whole number" if whole else "a number"
        raise Rejected(f"{where}: {key} must be {kind} from {low} to {high}")
