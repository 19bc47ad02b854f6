"""Words on the line: names made typeable, combatants found by name or handle."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable

from rules.encounter import AnyCombatant, AnyEncounter
from rules.errors import Rejected
from rules.text import slug as slug  # the line's word for a name, here with its kin
from tracker.line_commands.did_you_mean import combatant_words, did_you_mean, no_combatant

MAX_SHOWN = 3  # names offered when a word fits several: enough to see which to type


def norm(word: str) -> str:
    return slug(word.replace("_", "-"))


def suggest(word: str, names: Iterable[str]) -> str:
    return did_you_mean(word, names)


def handles(state: AnyEncounter) -> list[tuple[str, AnyCombatant]]:
    """A word for each combatant: its slug, numbered in turn order when names repeat."""
    bases = [slug(c.name) or c.id for c in state.combatants]
    counts = Counter(bases)
    seen: Counter[str] = Counter()
    out = []
    for combatant, base in zip(state.combatants, bases, strict=True):
        seen[base] += 1
        out.append((base if counts[base] == 1 else f"{base}-{seen[base]}", combatant))
    return out


def find_combatant(state: AnyEncounter, word: str, loose: bool = True) -> AnyCombatant | None:
    """The combatant a word names, or None: its name in any case, its handle or its id, then
    (``loose``) a first word only it has (``orla`` for "Orla Vance"), then a prefix only it
    has (``orl``); a word that fits more than one is refused with "did you mean A or B?"."""
    wanted = word.casefold()
    named = [c for c in state.combatants if c.name.casefold() == wanted]
    if len(named) == 1:
        return named[0]
    by_handle = [c for h, c in handles(state) if h == wanted or h == slug(word)]
    if len(by_handle) == 1:
        return by_handle[0]
    if len(named) > 1:
        others = ", ".join(h for h, c in handles(state) if c in named)
        raise Rejected(f"{len(named)} combatants are called {word!r}: say {others}")
    found = state.find(word)
    if found is not None or not loose or not slug(word):
        return found
    return _loosely(state, word)


def _loosely(state: AnyEncounter, word: str) -> AnyCombatant | None:
    """A unique first word, else a unique prefix of a name or handle (see ``find_combatant``)."""
    wanted, key = word.casefold(), slug(word)
    pairs = handles(state)
    names = [c.name.casefold() for _, c in pairs]
    firsts = [i for i, name in enumerate(names) if (name.split() or [""])[0] == wanted]
    prefixed = [
        i for i, name in enumerate(names) if name.startswith(wanted) or pairs[i][0].startswith(key)
    ]
    for fits in (firsts, prefixed):
        if len(fits) == 1:
            return pairs[fits[0]][1]
        if fits:  # said as the suggestions are: a name, or a handle where names repeat
            shown = [f"'{combatant_words(state, pairs)[i]}'" for i in fits[:MAX_SHOWN]]
            if len(fits) > MAX_SHOWN:
                listed = ", ".join(shown) + " or another"
            else:
                listed = ", ".join(shown[:-1]) + f" or {shown[-1]}"
            raise Rejected(f"'{word}' fits {len(fits)} combatants: did you mean {listed}?")
    return None


def need_combatant(state: AnyEncounter, word: str) -> AnyCombatant:
    found = find_combatant(state, word)
    if found is None:
        raise no_combatant(word, combatant_words(state, handles(state)))
    return found


def find_combatant_quiet(state: AnyEncounter, word: str) -> AnyCombatant | None:
    try:
        return find_combatant(state, word)
    except Rejected:
        return None


def split_words(rest: str) -> list[str]:
    try:
        return shlex.split(rest)
    except ValueError as exc:  # an unclosed quote
        raise Rejected(f"cannot read the line: {exc}") from None


def quote(text: str) -> str:
    """A value as it can be typed: quoted when it holds a space."""
    return shlex.quote(text) if any(ch.isspace() for ch in text) else text


def own_pick(state: AnyEncounter, mine: frozenset[str] | None, selected: str | None) -> str | None:
    """The combatant a player's seat speaks for by default (a note, say): the selected one if
    it is theirs, else their first in the order; None for the GM (``mine`` None: everyone)."""
    if mine is None:
        return None
    if selected in mine:
        return selected
    return next((c.id for c in state.combatants if c.id in mine), None)
