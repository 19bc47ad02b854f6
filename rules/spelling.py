"""How far a typed word is from a name the rules know (a condition, a damage type): a slip
for one, said as "did you mean ...?" where the word is read. Pure, no table of names here."""

from __future__ import annotations

from collections.abc import Iterable

SLIP = 2  # letters changed, added or dropped in a slip ("paralized"); "dazed" is no "deafened"
SHORTEST = 4  # letters a word needs before it is read as a slip at all


def slip_for(word: str, names: Iterable[str]) -> str:
    """The name ``word`` is a slip for ("" when none): at most ``SLIP`` letters off, else
    the only name it starts ("stun"), for a word of at least ``SHORTEST`` letters."""
    wanted = word.casefold()
    names = [n for n in names if n]
    # A word longer than every name by more than a slip is none of them (and a flood of
    # letters costs nothing to turn down).
    if not names or not SHORTEST <= len(wanted) <= max(map(len, names)) + SLIP:
        return ""
    changes, found = min((letters_changed(wanted, n.casefold()), n) for n in names)
    if changes <= SLIP:
        return found
    starting = [n for n in names if n.casefold().startswith(wanted)]
    return starting[0] if len(starting) == 1 else ""


def letters_changed(typed: str, name: str) -> int:
    """The letters to change, add or drop to make ``typed`` into ``name`` (Levenshtein's
    distance, one row at a time: the names are short and few)."""
    row = list(range(len(name) + 1))
    for i, letter in enumerate(typed, start=1):
        diagonal, row[0] = row[0], i
        for j, other in enumerate(name, start=1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (letter != other))
    return row[-1]
