"""Generic d20's damage of several types in one attack, as a sheet, a stat block or a dialog
writes it: ``1d8+3 slashing + 2d6 fire`` (a flame tongue), or the SRD's own wording,
``2d10+8 piercing plus 2d6 fire`` (a dragon's bite). Each part is dice and a type; each meets
the target's resistance, vulnerability or immunity on its own. No msgspec, no dice worked out
here (``table`` does that)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from rules.errors import Rejected

MAX_PARTS = 4  # damage types in one attack: a weapon and its enchantments, a bite and a breath
MAX_TYPE = 20  # characters of a damage type
MAX_TEXT = 400  # characters of a whole damage (each part's dice are bounded as notation)
PLUS = "plus"  # the SRD's word between parts
JOIN = " + "  # between parts, as the tracker writes them back
# A type glued to what follows it ("slashing+2d6") is a word of its own: no operation of the
# notation is three letters or more, so such a run outside a label ("[fire]") is a word.
_WORDS = re.compile(r"(\[[^\]]*\])|([^\W\d_]{3,})")
_JOIN_HELP = "join a damage's parts with + or plus, like 1d8+3 slashing + 2d6 fire"


class Part(NamedTuple):
    """One part of a damage: its dice (notation, as typed) and its type ("" for none)."""

    dice: str
    kind: str


def parts_of(damage: str, kind: str = "") -> tuple[Part, ...]:
    """The parts of a damage as a sheet or an event keeps it: ``damage`` the notation and
    ``kind`` its one type (every save before several types, and a damage of one type now), or
    ``damage`` the whole text and no ``kind`` (several types: ``1d8+3 slashing + 2d6 fire``)."""
    if kind:
        return (Part(damage, kind),)
    return read_parts(damage)


@lru_cache(maxsize=256)
def read_parts(text: str) -> tuple[Part, ...]:
    """``text`` as its parts, in order, those of one type put together (their dice added up:
    a type's resistance halves its whole damage once); ``Rejected`` in one line when a type
    has no dice before it, parts are not joined by ``+`` or ``plus``, or there are too many.
    The dice themselves are not checked here."""
    if len(text) > MAX_TEXT:
        raise Rejected(f"a damage is at most {MAX_TEXT} characters")
    words = _WORDS.sub(lambda m: m.group(1) or f" {m.group(2)} ", text).split()
    found: list[Part] = []
    dice: list[str] = []
    joined = True  # a part may begin here: at the start, or after + or plus
    for word in words:
        if word.casefold() == PLUS or (word == "+" and not dice):
            if dice:  # "1d8 plus 2d6 fire": an untyped part before it
                found.append(Part("".join(dice), ""))
                dice = []
            if not found:
                raise Rejected(f"damage starts with dice, not {word!r}")
            joined = True
            continue
        if word.isalpha():
            kind = word.casefold()
            if not dice:
                raise Rejected(f"damage type {kind!r} needs dice before it, like 2d6 {kind}")
            if len(kind) > MAX_TYPE:
                raise Rejected(f"a damage type is at most {MAX_TYPE} letters")
            found.append(Part("".join(dice), kind))
            dice, joined = [], False
            continue
        if not joined and not dice:  # straight after a type: "+2d6" is the next part
            if not word.startswith("+") or word == "+":
                raise Rejected(_JOIN_HELP)
            word = word[1:]
        joined = True
        dice.append(word)
    if dice:
        found.append(Part("".join(dice), ""))
    elif found and joined:
        raise Rejected(f"damage ends with {words[-1]!r}: a part needs dice after it")
    if not found:
        raise Rejected("damage needs dice, like 1d8+3 slashing")
    merged: dict[str, list[str]] = {}
    for part in found:
        merged.setdefault(part.kind, []).append(part.dice)
    if len(merged) > MAX_PARTS:
        raise Rejected(f"at most {MAX_PARTS} damage types in one attack")
    return tuple(Part("+".join(each), kind) for kind, each in merged.items())


def written(parts: tuple[Part, ...]) -> str:
    """Parts written back as one line that reads back as the same parts: ``1d8+3 slashing +
    2d6 fire``; after a part with no type, ``plus`` (a ``+`` there would add the dice up)."""
    out = ""
    for index, part in enumerate(parts):
        if index:
            out += JOIN if parts[index - 1].kind else f" {PLUS} "
        out += f"{part.dice} {part.kind}".rstrip()
    return out
