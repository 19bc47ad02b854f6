"""Words on the line: names made typeable, combatants found by name or handle."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Iterable

from rules.encounter import Combatant, Encounter
from rules.errors import Rejected
from tracker.did_you_mean import combatant_words, did_you_mean, no_combatant


def slug(text: str) -> str:
    """ "Goblin Sneak" -> "goblin-sneak": a name that needs no quotes on the line."""
    return re.sub(r"[^0-9a-z]+", "-", text.casefold()).strip("-")


def norm(word: str) -> str:
    return slug(word.replace("_", "-"))


def suggest(word: str, names: Iterable[str]) -> str:
    return did_you_mean(word, names)


def handles(state: Encounter) -> list[tuple[str, Combatant]]:
    """A word for each combatant: its slug, numbered in turn order when names repeat."""
    bases = [slug(c.name) or c.id for c in state.combatants]
    counts = Counter(bases)
    seen: Counter[str] = Counter()
    out = []
    for combatant, base in zip(state.combatants, bases, strict=True):
        seen[base] += 1
        out.append((base if counts[base] == 1 else f"{base}-{seen[base]}", combatant))
    return out


def find_combatant(state: Encounter, word: str) -> Combatant | None:
    """The combatant a word names (its name in any case, its handle, or its id), or None."""
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
    return state.find(word)


def need_combatant(state: Encounter, word: str) -> Combatant:
    found = find_combatant(state, word)
    if found is None:
        raise no_combatant(word, combatant_words(state, handles(state)))
    return found


def find_combatant_quiet(state: Encounter, word: str) -> Combatant | None:
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
