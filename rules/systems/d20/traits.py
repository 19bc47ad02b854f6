"""The traits of a stat block the tracker plays, as a sheet names them (its *Traits* field):
Undead Fortitude (``fortitude.py``), Relentless and Relentless Endurance (``relentless.py``),
the traits that save with advantage against magic or a condition (Magic Resistance, Gnome
Cunning, Brave, Fey Ancestry, Dark Devotion: ``standing.save_mode``) and Blood Frenzy
(``standing.attack_mode``). A stat block's other traits are the GM's to play (the SRD
conversion lists them, monster by monster)."""

from __future__ import annotations

import re

from rules.errors import Rejected
from rules.spelling import letters_changed
from rules.text import inert

UNDEAD_FORTITUDE = "Undead Fortitude"
RELENTLESS = "Relentless"  # with the most damage it shrugs off: "Relentless 7"
RELENTLESS_ENDURANCE = "Relentless Endurance"
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
    MAGIC_RESISTANCE: "advantage on saving throws against spells and other magical effects",
    GNOME_CUNNING: "advantage on Int, Wis and Cha saving throws against magic",
    BRAVE: "advantage on saving throws against being frightened",
    FEY_ANCESTRY: "advantage on saving throws against being charmed",
    DARK_DEVOTION: "advantage on saving throws against being charmed or frightened",
    BLOOD_FRENZY: "advantage on melee attack rolls against a creature below its hit point maximum",
}
NUMBERED = (RELENTLESS,)  # written with a number after the name
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
_NUMBER = re.compile(r"(.*?)\s+([0-9]{1,5})")


def parse_traits(text: str) -> tuple[str, ...]:
    """The traits a form's text names, comma-separated, in any case (``Relentless 7`` with
    its number); ``Rejected`` in one line for a name the tracker does not play (with the one
    likely meant)."""
    found: dict[str, str] = {}
    for typed in (" ".join(part.split()) for part in text.split(",")):
        if not typed:
            continue
        numbered = _NUMBER.fullmatch(typed)
        word, number = (numbered.group(1), numbered.group(2)) if numbered else (typed, "")
        name = next((t for t in PLAYED if t.casefold() == word.casefold()), "")
        if not name:
            raise Rejected(_unknown(typed))
        if (name in NUMBERED) != bool(number):
            raise Rejected(
                f"Traits: {name} takes the most damage it shrugs off, like {name} 7"
                if name in NUMBERED
                else f"Traits: {name} takes no number"
            )
        if number and not 1 <= int(number) <= MAX_NUMBER:
            raise Rejected(f"Traits: {name}'s number is from 1 to {MAX_NUMBER:,}")
        found[name] = f"{name} {int(number)}" if number else name
    return tuple(found.values())


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
    for trait in traits:
        head, _, number = trait.rpartition(" ")
        if head == name and number.isdigit():
            return int(number)
    return None
