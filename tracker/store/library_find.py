"""Finding stat blocks in the library: by a name fragment, a challenge rating or a range of
them (``1/4..3``), a creature type, where they come from (``own``, ``srd``, ``user``); and
the table ``tracker library list`` prints, with each system's own figures
(``RuleSystem.library_columns``: hit points, AC, a challenge rating...). No Textual here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.difficulty import FOE_SIDES
from rules.registry import get_system
from tracker.store.library import Entry, LibraryError
from tracker.store.storage import slug

MAX_ASKED = 60  # characters of a filter: a name fragment, a type, a range
_ONE = r"[0-9]{1,3}(?:/[0-9]{1,3})?"
OPEN = Fraction(10**6)  # a range's open top: above every rating
_RANGE = re.compile(rf"\s*(?P<low>{_ONE})?\s*(?P<dots>\.\.)?\s*(?P<high>{_ONE})?\s*")


@dataclass(frozen=True)
class Wanted:
    """What a listing keeps: each filter that is set (empty or None: any)."""

    name: str = ""
    challenge: tuple[Fraction, Fraction] | None = None
    creature_type: str = ""
    source: str = ""


def challenge_range(text: str) -> tuple[Fraction, Fraction]:
    """ "1/4..3" -> (1/4, 3); "2" -> (2, 2); "..1" and "5.." leave an end open."""
    found = _RANGE.fullmatch(text) if len(text) <= MAX_ASKED else None
    low, dots, high = found.group("low", "dots", "high") if found else (None, None, None)
    if not (low or high) or (low and high and not dots):
        raise LibraryError(
            f"--cr {text!r}: write a challenge rating (2, 1/4) or a range of them (1/4..3)"
        )
    try:
        bottom = Fraction(low) if low else Fraction(0)
        top = Fraction(high) if high else (OPEN if dots else bottom)
        if high and not low and not dots:  # never: a lone number is read as ``low``
            bottom = top
    except ZeroDivisionError:
        raise LibraryError(f"--cr {text!r}: a challenge rating of 1/0 is none") from None
    if bottom > top:
        raise LibraryError(f"--cr {text!r}: the range goes from the lower to the higher (1..5)")
    return bottom, top


def _bounded(text: str, what: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_ASKED:
        raise LibraryError(f"{what} is longer than {MAX_ASKED} characters")
    return text


def wanted(
    name: str = "", challenge: str = "", creature_type: str = "", source: str = ""
) -> Wanted:
    """The filters as typed, checked: a bad range is one line (``LibraryError``)."""
    return Wanted(
        name=_bounded(name, "the name").casefold(),
        challenge=challenge_range(challenge) if challenge else None,
        creature_type=_bounded(creature_type, "the type").casefold(),
        source=_bounded(source, "the source").casefold(),
    )


def matches(entry: Entry, want: Wanted) -> bool:
    if want.name and want.name not in entry.name.casefold():
        return False
    if want.creature_type and want.creature_type not in entry.creature_type.casefold():
        return False
    if want.source and entry.source.casefold() != want.source:
        return False
    if want.challenge is not None:
        rating = get_system(entry.system).challenge_rating(entry.sheet())
        low, high = want.challenge
        return rating is not None and low <= rating <= high
    return True


def filter_example(entries: Sequence[Entry]) -> str:
    """The filter's example, as this library can be asked: a foe's name, and its challenge
    rating and creature type where it has them (a system with neither offers neither),
    each finding a stat block here."""
    foes = _example_foes(entries)
    if not foes:
        return "filter: a name"
    named = foes[0]
    words = [f"{named.name.split()[0].casefold()} x3" if named.name.split() else "x3"]
    rating = get_system(named.system).challenge_rating(named.sheet())
    if rating is not None:
        words.append("cr:1/4..3" if Fraction(1, 4) <= rating <= 3 else f"cr:{rating}")
    if named.creature_type.split():
        words.append(f"type:{named.creature_type.split()[0].casefold()}")
    return "filter: " + ", ".join(words)


def foes_example(entries: Sequence[Entry]) -> str:
    """Foes as a new encounter's field takes them, from this library: ``goblin x3, wolf``."""
    foes = [slug(e.name) for e in _example_foes(entries)[:2]]
    return ", ".join([f"{foes[0]} x3", *foes[1:]]) if foes else "a name x3, another"


def _example_foes(entries: Sequence[Entry]) -> list[Entry]:
    """The stat blocks an example names: foes (else any), the Goblin first where there is
    one (the example every table knows)."""
    foes = [e for e in entries if e.side.casefold() in FOE_SIDES] or list(entries)
    return sorted(foes, key=lambda e: e.name.casefold() != "goblin")


def select(entries: Iterable[Entry], want: Wanted) -> list[Entry]:
    return [e for e in entries if matches(e, want)]


def check_source(entries: Sequence[Entry], want: Wanted) -> None:
    """A source nobody has is refused, naming those there are (a typo is not "no match")."""
    sources = sorted({e.source for e in entries} | {"own", "user"})
    if want.source and want.source not in sources:
        raise LibraryError(f"--source {want.source!r}: the sources are {', '.join(sources)}")


def columns(entry: Entry) -> tuple[tuple[str, str], ...]:
    """The entry's figures by its system (``RuleSystem.library_columns``)."""
    return get_system(entry.system).library_columns(entry.sheet())


def to_json(entry: Entry) -> dict[str, object]:
    return {**entry.to_json(), "columns": dict(columns(entry))}


def _where(entry: Entry) -> str:
    return str(entry.path) if entry.source == "user" and entry.path else entry.source


def _name(entry: Entry) -> str:
    """Its name, and its kind unless it is the system's first (a monster says nothing where
    monsters are the first kind, a hero says so)."""
    first = get_system(entry.system).sheet_kinds()[0][0]
    return entry.name + (f" ({entry.kind})" if entry.kind and entry.kind != first else "")


def listing(entries: Sequence[Entry]) -> str:
    """The stat blocks as a table a system, one line a stat block: its name, its system's
    figures, its creature type, and where it comes from (a user's file by its path)."""
    if not entries:
        return "No stat blocks."
    out: list[str] = []
    for system in dict.fromkeys(e.system for e in entries):
        mine = [e for e in entries if e.system == system]
        rows = [
            [_name(e), *(v for _, v in columns(e)), e.creature_type, e.side, _where(e)]
            for e in mine
        ]
        head = ["Name", *(h for h, _ in columns(mine[0])), "Type", "Side", "Source"]
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        if out:
            out.append("")
        out.append(get_system(system).title)
        for row in [head, *rows]:
            cells = [
                cell.rjust(width) if 0 < i < len(head) - 3 else cell.ljust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            out.append("  ".join(cells).rstrip())
    return "\n".join(out)
