"""Generic d20's condition names as a table types them: the SRD 5.1's fifteen, a British
spelling read as the SRD's ("Paralysed" is paralyzed), and any other name a label of the
table's own that the rules leave alone, said so as it is added (with the SRD name it is
likely meant for). The name stays as typed on the combatant; only its reading changes."""

from __future__ import annotations

from rules.errors import Rejected
from rules.roles.conditions import Conditions
from rules.spelling import letters_changed
from rules.text import inert

from .table import CONDITIONS

# The spellings of a tracker that writes "Armour Class": the same condition. (Of the SRD's
# fifteen only paralyzed is spelt otherwise in British English.)
SPELLINGS = {"paralysed": "paralyzed"}
# How close a typed name must be to an SRD name to be asked "did you mean": at most 2 letters
# changed, added or dropped ("paralized", "unconcious"), or its start ("stun", "poison"), of
# a name of at least 4 letters; "hasted", "blessed" and "dazed" are not close.
CHANGES = 2
SHORTEST = 4
SHOWN = 40  # characters of a typed name repeated in a note
MAX_LIST = 400  # characters of a list of them: all fifteen, written out, are half of it


def srd_name(name: str) -> str:
    """The SRD condition ``name`` is, in the SRD's spelling ("" for a label of the table's
    own)."""
    key = " ".join(name.split()).casefold()
    key = SPELLINGS.get(key, key)
    return key if key in CONDITIONS else ""


def condition_note(name: str) -> str:
    """One line on a condition just added, when its name is not the SRD's own word: a
    British spelling read as the SRD condition, or a label with no rules effect (and the
    SRD name it is likely meant for). "" for an SRD name written as the SRD writes it."""
    found = srd_name(name)
    shown = " ".join(name.split())[:SHOWN]
    if not shown:  # nothing typed yet (the dialog asks as it is typed)
        return ""
    if found:
        return "" if shown.casefold() == found else f"{shown} is read as the SRD's {found}"
    key = shown.casefold()
    close = meant_for(key)
    guess = f" (did you mean {close}?)" if close else ""
    return f"{shown} is no SRD condition: a label with no rules effect{guess}"


def meant_for(key: str) -> str:
    """The SRD condition a name not its own is likely a slip for ("" when none is close)."""
    if len(key) < SHORTEST:
        return ""
    changes, found = min((letters_changed(key, name), name) for name in (*CONDITIONS, *SPELLINGS))
    if changes > CHANGES:
        found = next((name for name in CONDITIONS if name.startswith(key)), "")
    return SPELLINGS.get(found, found)


def parse_conditions(text: str, label: str) -> tuple[str, ...]:
    """SRD condition names, comma-separated, in any case (a British spelling read as the
    SRD's), as the SRD spells them; ``Rejected`` in one line for any other name (with the
    one it is likely meant for)."""
    if len(text) > MAX_LIST:
        raise Rejected(f"{label}: at most {MAX_LIST} characters")
    found: list[str] = []
    for typed in (" ".join(part.split()) for part in text.split(",")):
        if not typed:
            continue
        name = srd_name(typed)
        if not name:
            close = meant_for(typed[:SHOWN].casefold())
            guess = f": did you mean {close}?" if close else f" ({', '.join(CONDITIONS)})"
            raise Rejected(f"{label}: no SRD condition {inert(typed[:SHOWN])!r}{guess}")
        found.append(name)
    return tuple(dict.fromkeys(found))


class D20ConditionNames(Conditions):
    """Generic d20's condition names (``rules.roles.conditions``)."""

    condition_note = staticmethod(condition_note)  # a British spelling read as the SRD's

    def condition_names(self) -> tuple[str, ...]:
        return (*CONDITIONS, *SPELLINGS)  # "Paralysed" is no slip: it reads as paralyzed
