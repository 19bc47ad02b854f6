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


NONMAGICAL = "nonmagical "  # a resistance "from nonmagical weapons": "nonmagical slashing"


def parse_types(text: str, label: str) -> tuple[str, ...]:
    """A sheet's resistances (vulnerabilities, immunities) as typed: damage types after
    commas or spaces; ``nonmagical`` before some (``nonmagical bludgeoning piercing``) makes
    each count only against a weapon attack that is not magical."""
    kinds: list[str] = []
    for item in text.split(","):
        words = item.lower().split()
        qualified = bool(words) and words[0] == NONMAGICAL.strip()
        if qualified and len(words) == 1:
            raise Rejected(f"{label}: nonmagical names the types it qualifies: nonmagical slashing")
        for kind in words[1:] if qualified else words:
            if not kind.isalpha() or len(kind) > 20:
                raise Rejected(f"{label}: damage types are single words, like fire, not {kind!r}")
            try:
                check_type(kind)  # "slashng" meant slashing: a resistance to it would halve nothing
            except Rejected as refused:
                raise Rejected(f"{label}: {refused.message}") from None
            kinds.append(NONMAGICAL + kind if qualified else kind)
    return tuple(dict.fromkeys(kinds))


def counted(kinds: tuple[str, ...], nonmagical: bool) -> tuple[str, ...]:
    """The types of ``kinds`` that count against a damage: those qualified ``nonmagical``
    only against a weapon attack that is not magical (``nonmagical``)."""
    if not any(k.startswith(NONMAGICAL) for k in kinds):
        return kinds
    return tuple(
        k.removeprefix(NONMAGICAL) for k in kinds if nonmagical or not k.startswith(NONMAGICAL)
    )


def plain_type(kind: str) -> str:
    """A listed type without its qualifier: ``nonmagical slashing`` is slashing."""
    return kind.removeprefix(NONMAGICAL)
