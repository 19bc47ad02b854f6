"""The traits of a stat block the tracker plays, as a sheet names them (its *Traits* field):
Undead Fortitude (``fortitude.py``), Relentless and Relentless Endurance (``relentless.py``),
Regeneration (``regeneration.py``),
the traits that save with advantage against magic or a condition (Magic Resistance, Gnome
Cunning, Brave, Fey Ancestry, Dark Devotion: ``standing.save_mode``) and Blood Frenzy
(``standing.attack_mode``). A stat block's other traits are the GM's to play (the SRD
conversion lists them, monster by monster)."""

from __future__ import annotations

import re
from typing import NamedTuple

from rules.errors import Rejected
from rules.spelling import letters_changed
from rules.text import inert

from .damage_types import check_type

UNDEAD_FORTITUDE = "Undead Fortitude"
RELENTLESS = "Relentless"  # with the most damage it shrugs off: "Relentless 7"
RELENTLESS_ENDURANCE = "Relentless Endurance"
# Its hit points, then what stops it, then "at 0" for a troll's, which stands it up from 0
# hit points (it is down, not dead, there): "Regeneration 10 acid fire at 0"
REGENERATION = "Regeneration"
AT_ZERO = ("at", "0")
MAGIC_RESISTANCE = "Magic Resistance"
GNOME_CUNNING = "Gnome Cunning"
BRAVE = "Brave"
FEY_ANCESTRY = "Fey Ancestry"
DARK_DEVOTION = "Dark Devotion"
BLOOD_FRENZY = "Blood Frenzy"
# Each trait played, as the SRD names it, and what it does in a line (the form's help).
PLAYED = {
    UNDEAD_FORTITUDE: "dropped to 0 by damage neither radiant nor a critical: Con save DC 5 +"
    " the damage, made: 1 hit point",
    RELENTLESS: "dropped to 0 by at most that much damage: 1 hit point, once until a rest",
    RELENTLESS_ENDURANCE: "dropped to 0, not killed outright: 1 hit point, once until a rest",
    REGENERATION: "hit points back at the start of each of its turns; none after a damage of"
    " the types written after them; with 'at 0' (a troll's), down at 0, dying only at a"
    " turn's start without it",
    MAGIC_RESISTANCE: "advantage on saving throws against spells and other magical effects",
    GNOME_CUNNING: "advantage on Int, Wis and Cha saving throws against magic",
    BRAVE: "advantage on saving throws against being frightened",
    FEY_ANCESTRY: "advantage on saving throws against being charmed",
    DARK_DEVOTION: "advantage on saving throws against being charmed or frightened",
    BLOOD_FRENZY: "advantage on melee attack rolls against a creature below its hit point maximum",
}
NUMBERED = {  # written with a number after the name: what it is, for a refusal
    RELENTLESS: "the most damage it shrugs off, like Relentless 7",
    REGENERATION: "its hit points a turn, then what stops it, like Regeneration 10 acid fire"
    " (a troll's: Regeneration 10 acid fire at 0)",
}
TYPED = (REGENERATION,)  # and then damage types
# The saves each trait makes with advantage: against a magical effect (of these abilities),
# or against an effect that lays one of these conditions.
AGAINST_MAGIC = {
    MAGIC_RESISTANCE: ("str", "dex", "con", "int", "wis", "cha"),
    GNOME_CUNNING: ("int", "wis", "cha"),
}
AGAINST_CONDITIONS = {
    BRAVE: ("frightened",),
    FEY_ANCESTRY: ("charmed",),
    DARK_DEVOTION: ("charmed", "frightened"),
}
MAX_TRAITS = len(PLAYED)
MAX_NUMBER = 10_000
SHOWN = 40  # characters of a typed name repeated in a refusal
MAX_TEXT = 400  # characters of the field: every trait played, written out, is half of it
_NUMBER = re.compile(r"(.*?)\s+([0-9]+)((?:\s+\S+)*)")
_JOINING = {"or", "and"}  # "Regeneration 10 acid or fire": the words between the types


def parse_traits(text: str) -> tuple[str, ...]:
    """The traits a form's text names, comma-separated, in any case (``Relentless 7`` with
    its number); ``Rejected`` in one line for a name the tracker does not play (with the one
    likely meant)."""
    if len(text) > MAX_TEXT:
        raise Rejected(f"Traits: at most {MAX_TEXT} characters")
    found: dict[str, str] = {}
    for typed in (" ".join(part.split()) for part in text.split(",")):
        if not typed:
            continue
        numbered = _NUMBER.fullmatch(typed)
        word, number, after = numbered.groups() if numbered else (typed, "", "")
        name = next((t for t in PLAYED if t.casefold() == word.casefold()), "")
        if not name:
            raise Rejected(_unknown(typed))
        kinds = _types(name, after)
        if (name in NUMBERED) != bool(number):
            raise Rejected(
                f"Traits: {name} takes {NUMBERED[name]}"
                if name in NUMBERED
                else f"Traits: {name} takes no number"
            )
        if number and not (len(number) <= len(str(MAX_NUMBER)) and 1 <= int(number) <= MAX_NUMBER):
            raise Rejected(f"Traits: {name}'s number is from 1 to {MAX_NUMBER:,}")
        found[name] = " ".join((name, str(int(number)), *kinds)) if number else name
    return tuple(found.values())


def _types(name: str, words: str) -> tuple[str, ...]:
    """The damage types written after a trait's number (those that stop Regeneration), and
    Regeneration's ``at 0`` last."""
    kinds = [w.casefold() for w in words.split() if w.casefold() not in _JOINING]
    at_zero = name == REGENERATION and _without_at_zero(kinds)
    if kinds and name not in TYPED:
        raise Rejected(f"Traits: {name} takes a number alone, like {name} 7")
    for kind in kinds:
        try:
            check_type(kind)
        except Rejected as refused:
            raise Rejected(f"Traits: {name}: {refused.message}") from None
    return (*dict.fromkeys(kinds), *(AT_ZERO if at_zero else ()))


def _without_at_zero(words: list[str]) -> bool:
    """Whether ``words`` say ``at 0`` (taken out of them)."""
    for i in range(len(words) - 1):
        if (words[i], words[i + 1]) == AT_ZERO:
            del words[i : i + 2]
            return True
    return False


def _unknown(typed: str) -> str:
    shown = inert(typed[:SHOWN])
    key = typed[:SHOWN].casefold()
    close = min(PLAYED, key=lambda t: letters_changed(key, t.casefold()))
    if letters_changed(key, close.casefold()) <= 2:
        return f"Traits: no trait {shown!r}: did you mean {close}?"
    return (
        f"Traits: the tracker does not play {shown!r} (it plays {', '.join(PLAYED)});"
        " the GM plays the others"
    )


def traits_text(traits: tuple[str, ...]) -> str:
    return ", ".join(traits)


def number_of(traits: tuple[str, ...], name: str) -> int | None:
    """The number a numbered trait ``name`` is written with (None: the sheet lacks it)."""
    found = written(traits, name)
    return found[0] if found is not None else None


class Regenerating(NamedTuple):
    """A sheet's Regeneration: its hit points a turn, the damage types that stop it, and
    whether it stands the creature up from 0 hit points (a troll's)."""

    amount: int
    stops: tuple[str, ...]
    at_zero: bool


def regeneration_of(traits: tuple[str, ...]) -> Regenerating | None:
    found = written(traits, REGENERATION)
    if found is None:
        return None
    amount, words = found
    at_zero = words[-2:] == AT_ZERO
    return Regenerating(amount, words[:-2] if at_zero else words, at_zero)


def down_not_dead(traits: tuple[str, ...]) -> bool:
    """Whether a monster at 0 hit points is down, not dead: a troll's Regeneration."""
    found = regeneration_of(traits) if traits else None
    return found is not None and found.at_zero


def written(traits: tuple[str, ...], name: str) -> tuple[int, tuple[str, ...]] | None:
    """A numbered trait ``name`` as written: its number and the words after it (None: the
    sheet lacks it)."""
    for trait in traits:
        words = trait[len(name) :].split() if trait.startswith(name + " ") else []
        if words and words[0].isdigit():
            return int(words[0]), tuple(words[1:])
    return None
