"""How far a typed word is from a name the rules know: its conditions, its damage types."""

from __future__ import annotations


def letters_changed(typed: str, name: str) -> int:
    """The letters to change, add or drop to make ``typed`` into ``name`` (Levenshtein's
    distance, one row at a time: the names are short and few)."""
    row = list(range(len(name) + 1))
    for i, letter in enumerate(typed, start=1):
        diagonal, row[0] = row[0], i
        for j, other in enumerate(name, start=1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (letter != other))
    return row[-1]
