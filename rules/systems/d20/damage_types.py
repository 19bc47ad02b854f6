"""Generic d20's damage types as a table types them: the SRD 5.1's thirteen, a slip for one
of them refused with the one it is likely meant for ("slashng": did you mean slashing?), and
any other word a type of the table's own, which no resistance of the SRD's halves. No
msgspec: the damage reader and the sheet's fields call it as they read a typed type."""

from __future__ import annotations

from rules.errors import Rejected
from rules.spelling import letters_changed

# The SRD's *Damage Types*, as it spells them.
DAMAGE_TYPES = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
# A slip: at most 2 letters changed, added or dropped ("fyre", "slashng", "lightening"), and
# fewer than half the word's letters, so a short word of the table's own ("holy", "void",
# "ice") is not read as a slip for an SRD type two letters from it.
CHANGES = 2


def meant_type(kind: str) -> str:
    """The SRD damage type ``kind`` is likely a slip for ("" for an SRD type itself, or a
    word far from all of them: a type of the table's own)."""
    key = kind.casefold()
    if not key or key in DAMAGE_TYPES:
        return ""
    changes, found = min((letters_changed(key, name), name) for name in DAMAGE_TYPES)
    return found if changes <= CHANGES and 2 * changes < len(key) else ""


def check_type(kind: str) -> None:
    """Refuse a damage type that is a slip for an SRD type, in one line with the type meant."""
    meant = meant_type(kind)
    if meant:
        raise Rejected(
            f"no damage type {kind!r}: did you mean {meant}? (a word far from the SRD's 13 is"
            " a type of the table's own)"
        )


def type_note(kind: str) -> str:
    """One line on a damage type not the SRD's: a type of the table's own ("" otherwise)."""
    key = kind.casefold()
    if not key or key in DAMAGE_TYPES:
        return ""
    return f"{key} is no SRD damage type: a type of the table's own"
