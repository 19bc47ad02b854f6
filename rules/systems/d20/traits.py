"""The traits of a stat block the tracker plays, as a sheet names them (its *Traits* field):
Undead Fortitude (``fortitude.py``), Magic Resistance (``standing.save_mode``) and Blood
Frenzy (``standing.attack_mode``). A stat
block's other traits are the GM's to play (the SRD conversion lists them, monster by
monster)."""

from __future__ import annotations

from rules.errors import Rejected
from rules.spelling import letters_changed
from rules.text import inert

UNDEAD_FORTITUDE = "Undead Fortitude"
MAGIC_RESISTANCE = "Magic Resistance"
BLOOD_FRENZY = "Blood Frenzy"
# Each trait played, as the SRD names it, and what it does in a line (the form's help).
PLAYED = {
    UNDEAD_FORTITUDE: "dropped to 0 by damage neither radiant nor a critical: Con save DC 5 +"
    " the damage, made: 1 hit point",
    MAGIC_RESISTANCE: "advantage on saving throws against spells and other magical effects",
    BLOOD_FRENZY: "advantage on melee attack rolls against a creature below its hit point maximum",
}
MAX_TRAITS = len(PLAYED)
SHOWN = 40  # characters of a typed name repeated in a refusal


def parse_traits(text: str) -> tuple[str, ...]:
    """The traits a form's text names, comma-separated, in any case; ``Rejected`` in one
    line for a name the tracker does not play (with the one likely meant)."""
    found: list[str] = []
    for typed in (" ".join(part.split()) for part in text.split(",")):
        if not typed:
            continue
        name = next((t for t in PLAYED if t.casefold() == typed.casefold()), "")
        if not name:
            raise Rejected(_unknown(typed))
        found.append(name)
    return tuple(dict.fromkeys(found))


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
