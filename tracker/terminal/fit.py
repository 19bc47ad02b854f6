"""Fitting text to a width without cutting what matters: 80x24 is a size the app is used at.

Three shapes of it: parts of a line (the header) wrap onto more lines; table columns give
way in order of priority, their cells abbreviated word by word; a row of keys (the footer)
keeps the whole entries that fit, the most important first. Pure functions of text and
widths, so the widgets that use them stay small and these are tested on their own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from rich.cells import cell_len
from rich.text import Text

ELLIPSIS = "…"
SEPARATOR = "  ·  "
# A word of symbols only (a bar like ▮▮▯▯), with the space that parts it from the rest.
GLYPH_WORD = re.compile(r"(?<!\S)[^\w\s]+(?:\s+|$)")
LETTERS = re.compile(r"[^\W\d_]+")
SHORTEST_WORD = 3  # letters a word is shortened to at the most, before its cell is cut
# A column's label is a word or two read at a glance: one shorter than this stays whole
# ("Rolls" is never "Rol.", which saves one cell and reads as nothing).
LABEL_WORD = 6


# --- parts of a line that wrap -----------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """A piece of a line of parts. When they need more than the lines allowed, the parts
    with the lowest ``keep`` are left out first; the rest keep their order."""

    text: Text
    keep: int = 0


def wrap_parts(
    parts: Sequence[Part], width: int, max_lines: int = 2, separator: str = SEPARATOR
) -> Text:
    """The parts joined by ``separator``, a new line wherever the next part would not fit.

    Parts are left out, least kept first, only while the rest need more than ``max_lines``,
    and more than the parts never left out (those kept most) need by themselves: when those
    take more lines (a long one wraps), leaving the others out could not save a line, only
    lose what they say. What is left is never cut (a part wider than the line wraps by
    itself).
    """
    shown = list(parts)
    most = max((part.keep for part in shown), default=0)
    floor = line_count([part for part in shown if part.keep == most], width, separator)
    while len(shown) > 1 and line_count(shown, width, separator) > max(max_lines, floor):
        lowest = min(part.keep for part in shown)
        if all(part.keep == lowest for part in shown):
            break
        drop = max(i for i, part in enumerate(shown) if part.keep == lowest)
        del shown[drop]
    return Text("\n").join(_lines(shown, width, separator))


def line_count(parts: Sequence[Part], width: int, separator: str = SEPARATOR) -> int:
    """The lines ``wrap_parts`` takes for these parts (a long part counts its own wraps)."""
    return sum(
        max(1, -(-text.cell_len // max(width, 1))) for text in _lines(parts, width, separator)
    )


def _lines(parts: Sequence[Part], width: int, separator: str) -> list[Text]:
    lines: list[Text] = []
    for part in parts:
        if not part.text:
            continue
        if lines and lines[-1].cell_len + cell_len(separator) + part.text.cell_len <= width:
            lines[-1] = Text.assemble(lines[-1], separator, part.text)
        else:
            lines.append(part.text.copy())
    return lines or [Text()]


# --- abbreviating a cell -------------------------------------------------------------------------


def abbreviate(
    text: Text, width: int, glyphs: bool = False, cut: bool = True, whole_under: int = 0
) -> Text:
    """``text`` in at most ``width`` cells, keeping its styles: as it is if it fits; else
    (``glyphs``) without its words of symbols only (a bar that repeats the number beside it);
    else with long words shortened (``Incapacitated`` to ``Incapac.``, down to three letters;
    a word of fewer than ``whole_under`` letters stays whole); else (``cut``) cut, with an
    ellipsis."""
    if text.cell_len <= width:
        return text
    if glyphs:
        text = without_glyphs(text)
        if text.cell_len <= width:
            return text
    longest = max((len(m.group()) for m in LETTERS.finditer(text.plain)), default=0)
    for letters in range(longest - 2, SHORTEST_WORD - 1, -1):
        shorter = _edit(
            text,
            [
                (m.start() + letters, m.end(), ".")
                for m in LETTERS.finditer(text.plain)
                if len(m.group()) > letters + 1 and len(m.group()) >= whole_under
            ],
        )
        if shorter.cell_len <= width:
            return shorter
        if letters == SHORTEST_WORD:
            text = shorter
    if not cut:
        return text
    short = text.copy()
    short.truncate(max(width, 1), overflow="ellipsis")
    return short


def without_glyphs(text: Text) -> Text:
    """``text`` without its words of symbols only, unless that would leave nothing."""
    dropped = _edit(text, [(m.start(), m.end(), "") for m in GLYPH_WORD.finditer(text.plain)])
    return dropped if dropped.plain.strip() else text


def _edit(text: Text, edits: Sequence[tuple[int, int, str]]) -> Text:
    """``text`` with each (start, end, replacement) applied; a replacement takes the style
    of the character it replaces."""
    if not edits:
        return text
    pieces: list[Text] = []
    at = 0
    for start, end, replacement in edits:
        pieces.append(text[at:start])
        if replacement:
            piece = text[start : start + 1]
            piece.plain = replacement
            pieces.append(piece)
        at = end
    pieces.append(text[at:])
    return Text("").join(pieces)


# --- columns that give way -----------------------------------------------------------------------


@dataclass
class Column:
    """A table column to fit. Columns give way by ``rank``: all those of the lowest rank
    first (the widest of them first), down to their ``floor``; then the next rank.
    ``glyphs``: words of symbols only may go from its cells (see ``abbreviate``). A column
    is cut (with an ellipsis) below ``limit`` only where abbreviating cannot reach it, and
    never below its label's shortest form."""

    label: Text
    cells: Sequence[Text]
    rank: int = 0
    limit: int = 8
    glyphs: bool = False
    _sizes: dict[int, int] = field(default_factory=dict, repr=False)

    @cached_property
    def plains(self) -> frozenset[str]:
        """Its cells' distinct texts: what its widths are measured on."""
        return frozenset(cell.plain for cell in self.cells)

    @cached_property
    def natural_cells(self) -> int:
        return max((cell_len(plain) for plain in self.plains), default=0)

    @cached_property
    def natural(self) -> int:
        return max(self.label.cell_len, self.natural_cells)

    @cached_property
    def shortest(self) -> int:
        """The narrowest it goes uncut: its label and cells as short as words go."""
        cells = (_fitted_width(p, 0, self.glyphs, cut=False) for p in self.plains)
        return max(_fitted_width(self.label.plain, 0, False, False, LABEL_WORD), *cells)

    @cached_property
    def whole(self) -> int:
        """The narrowest it shows every word of its cells whole (their bars may go)."""
        cells = (
            _fitted_width(p, 0, self.glyphs, cut=False, whole_under=1 << 16) for p in self.plains
        )
        return max(_fitted_width(self.label.plain, 0, False, False, LABEL_WORD), *cells)

    @cached_property
    def floor(self) -> int:
        """The narrowest it goes: cut to ``limit`` where words do not go short enough, but
        never its label, nor a column of numbers (a cut number would mislead)."""
        if not any(LETTERS.search(plain) for plain in self.plains):
            return self.shortest
        label = _fitted_width(self.label.plain, 0, False, False, LABEL_WORD)
        return min(self.natural, max(label, min(self.shortest, self.limit)))

    @cached_property
    def empty(self) -> bool:
        """Whether it has rows and nothing in them but blanks (no rows: the label says what
        is to come)."""
        return bool(self.cells) and not any(plain.strip() for plain in self.plains)

    def width_at(self, width: int) -> int:
        """The widest of its label and cells as ``fit_cell`` makes them for ``width``."""
        known = self._sizes.get(width)
        if known is None:
            glyphs = self.glyphs and width < self.natural_cells
            label = _fitted_width(self.label.plain, width, False, True, LABEL_WORD)
            known = max(label, *(_fitted_width(p, width, glyphs) for p in self.plains))
            self._sizes[width] = known
        return known

    def fit_label(self, width: int) -> Text:
        """Its label fitted to ``width``: only its long words shortened (``LABEL_WORD``)."""
        return abbreviate(self.label, width, whole_under=LABEL_WORD)

    def fit_cell(self, cell: Text, width: int) -> Text:
        """A cell of this column fitted to ``width``. Once the column gives way, no cell keeps
        its words of symbols, so the column reads the same on every row."""
        if self.glyphs and width < self.natural_cells:
            cell = without_glyphs(cell)
        return abbreviate(cell, width)


@lru_cache(maxsize=1 << 16)
def _fitted_width(
    plain: str, width: int, glyphs: bool, cut: bool = True, whole_under: int = 0
) -> int:
    """The cells a text of this plain string takes once fitted to ``width`` (``glyphs``:
    without its words of symbols). Remembered: a long fight's cells repeat, refit after
    refit."""
    if glyphs:
        plain = without_glyphs(Text(plain)).plain
    if cell_len(plain) <= width:
        return cell_len(plain)
    return abbreviate(Text(plain), width, cut=cut, whole_under=whole_under).cell_len


def fit_columns(
    columns: Sequence[Column], space: int, gap: int = 0, protect: float = math.inf
) -> list[int]:
    """Each column's width, their sum within ``space`` if the floors allow it (``gap``: the
    cells between two columns); 0 for a column left out.

    While the columns do not fit: an empty one (nothing but its label) is left out, the
    lowest rank first; then the columns' words are shortened, rank by rank; then they are
    cut, the widest first. Columns of rank ``protect`` and up come last, each rank shortened
    then cut on its own."""
    widths = [column.natural for column in columns]

    def total() -> int:
        shown = [w for w in widths if w]
        return sum(shown) + gap * len(shown)

    for i in sorted((i for i, c in enumerate(columns) if c.empty), key=lambda i: columns[i].rank):
        if total() <= space:
            break
        widths[i] = 0
    ranks = sorted({column.rank for column in columns})
    ordinary = [rank for rank in ranks if rank < protect]
    steps = [([rank], False) for rank in ordinary] + [(ordinary, True)]
    steps += [([rank], cut) for rank in ranks if rank >= protect for cut in (False, True)]
    for giving, cut in steps:
        if total() > space:
            _give_way(columns, widths, set(giving), cut, space, gap)
    return widths


def _give_way(
    columns: Sequence[Column], widths: list[int], ranks: set[int], cut: bool, space: int, gap: int
) -> None:
    """Narrow the columns of ``ranks`` (in ``widths``) as little as fits ``space``, and at
    most to their floors (``cut``) or their shortest uncut forms; the others stay."""
    floors = {
        i: min(widths[i], column.floor if cut else column.shortest)
        for i, column in enumerate(columns)
        if column.rank in ranks and widths[i]
    }
    if not floors:
        return
    fixed = sum(w + gap for i, w in enumerate(widths) if w and i not in floors)
    fixed += gap * len(floors)
    before = list(widths)

    def width(i: int, level: int) -> int:
        return min(before[i], columns[i].width_at(max(floors[i], level)))

    # The highest level (a cap on the width of every column giving way) that fits.
    low, high = 0, max(widths[i] for i in floors)
    while low < high:
        middle = (low + high + 1) // 2
        if fixed + sum(width(i, middle) for i in floors) <= space:
            low = middle
        else:
            high = middle - 1
    for i in floors:
        widths[i] = width(i, low)
    # What a whole level up would not fit may still widen some of them, the widest first.
    for i in sorted(floors, key=lambda i: -columns[i].natural):
        wider = width(i, low + 1)
        if fixed + sum(widths[j] for j in floors) - widths[i] + wider <= space:
            widths[i] = wider


# --- keys that fit -------------------------------------------------------------------------------


def keys_that_fit(
    widths: Sequence[int], space: int, first: Callable[[int], bool] = lambda _i: False
) -> set[int]:
    """Which entries to show, whole, in ``space``: those ``first`` picks, then the others in
    order, each one that still fits."""
    chosen: set[int] = set()
    used = 0
    order = sorted(range(len(widths)), key=lambda i: not first(i))
    for i in order:
        if used + widths[i] <= space:
            chosen.add(i)
            used += widths[i]
    return chosen
