"""What a mistyped word on the `:` line was meant to be, said as "did you mean ...?".

A word that names nobody is never read as some other field when it is close to a
combatant's name: ``attack orlaa goblin-2`` is ``no combatant 'orlaa': did you mean
'Orla'?``, not a skill named "orlaa". The same for a condition on someone, and for the names
on a sheet (skills, weapons, boons): close to one of them but not it, the word is refused
with the one it is closest to.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable

from rules.encounter import AnyCombatant, AnyEncounter
from rules.errors import Rejected

CUTOFF = 0.6  # difflib's ratio: "orlaa" is 0.89 to "orla", "zzz" nothing at all


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "-", text.casefold()).strip("-")


def closest(word: str, options: Iterable[str]) -> tuple[str, float] | None:
    """The option ``word`` is closest to (as the option is spelled), and how close, if any
    is close enough to be what was meant."""
    spelled = {_key(option): option for option in options if _key(option)}
    wanted = _key(word)
    found = difflib.get_close_matches(wanted, list(spelled), n=1, cutoff=CUTOFF)
    if not found:
        return None
    return spelled[found[0]], difflib.SequenceMatcher(None, wanted, found[0]).ratio()


def nearest(word: str, options: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` options ``word`` may have meant, nearest first: those with it as a word or
    a prefix of one ("goblin" in "Bog Goblin"), then those spelled close to it."""
    spelled = {_key(option): option for option in options if _key(option)}
    wanted = _key(word)
    if not wanted:
        return []
    inside = [k for k in spelled if any(p.startswith(wanted) for p in k.split("-"))]
    close = difflib.get_close_matches(wanted, list(spelled), n=n, cutoff=CUTOFF)
    # A long name is far from a short word as a whole: its words are compared too.
    parts = [k for k in spelled if difflib.get_close_matches(wanted, k.split("-"), cutoff=0.75)]
    found = list(dict.fromkeys([*inside, *close, *parts]))
    return [spelled[k] for k in found[:n]]


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """ ": did you mean 'X'?" after a refusal, or "" when nothing is close."""
    found = closest(word, options)
    return f": did you mean '{found[0]}'?" if found else ""


def combatant_words(state: AnyEncounter, handles: Iterable[tuple[str, AnyCombatant]]) -> list[str]:
    """What to suggest for each combatant: its name where only it has it, else its handle."""
    names = Counter(c.name.casefold() for c in state.combatants)
    return [c.name if names[c.name.casefold()] == 1 else handle for handle, c in handles]


def sheet_names(combatant: AnyCombatant) -> list[str]:
    """The names on a combatant's sheet (skills, weapons, boons...): any named part."""
    sheet = combatant.sheet
    out: list[str] = []
    for key in getattr(sheet, "__struct_fields__", ()):
        value = getattr(sheet, key)
        if isinstance(value, tuple):
            out += [p.name for p in value if isinstance(getattr(p, "name", None), str)]
    return out


def no_combatant(word: str, suggestions: Iterable[str]) -> Rejected:
    return Rejected(f"no combatant '{word}'{did_you_mean(word, suggestions)}")


def meant_a_combatant(word: str, people: Iterable[str], others: Iterable[str]) -> bool:
    """``word`` names nobody, but is at least as close to one of ``people`` as to any of
    ``others`` (the words it could also be: a sheet's names, a field's choices; a bond named
    for a companion is a person still)."""
    people = list(people)
    person = closest(word, people)
    if person is None:
        return False
    other = closest(word, set(others) - set(people))
    return other is None or person[1] >= other[1]


def check_sheet_word(word: str, owners: Iterable[AnyCombatant]) -> None:
    """Refuse ``word`` when it is close to a name on one of the ``owners``' sheets but is none
    of them (a word far from all of them is left to the rules, which say what they know)."""
    owners = list(owners)
    names = [name for owner in owners for name in sheet_names(owner)]
    if any(_key(word) == _key(name) for name in names):
        return
    for owner in owners:
        found = closest(word, sheet_names(owner))
        if found is not None:
            raise Rejected(f"{owner.name} has no '{word}': did you mean '{found[0]}'?")
