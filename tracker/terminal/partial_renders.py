"""A partial screen update draws only the widgets, and the rows, that it shows.

For a partial update, Textual 8.2's compositor renders every widget whose clip (for most
widgets, the whole screen) overlaps the updated area, all of its visible rows, and then
keeps of each row only the pieces between cuts that no widget in front has filled and that
the update sends. So one new line in the roll log had the header, footer, combatants and
thresholds panes, the containers and the screen rendered again, on every seat of a served
table. ``render_chops`` renders a widget only if one of those pieces is still empty, and
only the update's rows of it. Columns are not narrowed (a widget's rows must start and end
on the compositor's cuts, and rows are independent of each other), so the bytes sent are
the same as Textual's (tests/app/test_partial_renders.py compares them).

A full update (the whole screen: a screen back from a dialog, or dimmed behind one) is
rendered the same way: a widget all of whose pieces the widgets in front have filled (the
screen, the containers) is not rendered at all, where Textual rendered every one and cut
each of its lines at every edge.

Installed once for the process by :func:`install` (tracker.app calls it), in place of a
private method of Textual's: tracker.terminal.textual_internals checks that Textual's code is the
code this was written for first, and leaves Textual's in place if not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from textual.geometry import Region
from textual.strip import Strip

from tracker.terminal import textual_internals

if TYPE_CHECKING:
    from tracker.terminal.textual_internals import Compositor


EMPTY = Strip([])  # a piece sent as a cursor move only


def render_chops(
    self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool]
) -> Sequence[Mapping[int, Strip]]:
    """The pieces of each row that an update covers (``self`` is the screen's compositor)."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    intersection = Region.intersection
    crop_left, crop_top, crop_right, crop_bottom = crop.x, crop.y, crop.right, crop.bottom
    # The pieces the update sends, by row, while no widget has filled them: those that
    # overlap it (none that ends at its left edge) and the one that starts at its right,
    # which Textual sends cropped to nothing (a cursor move, and no cells), so it may be any
    # strip. So a scrollbar's thumb does not render the log beside it, and once every piece
    # is filled the widgets behind (containers, the screen) are not even looked at.
    wanted: dict[int, set[int]] = {}
    for row in range(crop_top, crop_bottom):
        if is_rendered_line(row):
            row_cuts = cuts[row]
            pieces = pairwise(row_cuts)
            wanted[row] = {cut for cut, end in pieces if cut <= crop_right and end > crop_left}
    # Front to back: the first strip for a piece wins, as in Textual.
    for widget, (region, clip) in self.visible_widgets.items():
        if not any(wanted.values()):
            break
        x, y, width, height = intersection(region, clip)
        top, bottom = max(y, crop_top), min(y + height, crop_bottom)
        right = x + width
        if not width or top >= bottom or x > crop_right or right <= crop_left:
            continue
        rows = []
        for row in range(top, bottom):
            open_cuts = wanted.get(row)
            if not open_cuts:
                continue
            if x <= crop_right < right and crop_right in open_cuts:
                chops[row][crop_right] = EMPTY
                open_cuts.discard(crop_right)
            if any(x <= cut < right for cut in open_cuts):
                rows.append(row)
        if not rows:
            continue
        first, last = rows[0], rows[-1] + 1
        strips = widget.render_lines(Region(x - region.x, first - region.y, width, last - first))
        for row in rows:
            strip = strips[row - first]
            chops_line = chops[row]
            open_cuts = wanted[row]
            final_cuts = [cut for cut in cuts[row] if right >= cut >= x]
            cut_strips = strip.divide([cut - x for cut in final_cuts[1:]])
            get_chops_line = chops_line.get
            # One piece fewer than cuts: the last cut is the widget's right edge.
            for cut, piece in zip(final_cuts, cut_strips, strict=False):
                if get_chops_line(cut) is None:
                    chops_line[cut] = piece
                    open_cuts.discard(cut)
    return chops  # type: ignore[return-value]  # Textual types it as a list of dicts, loosely


def install() -> bool:
    """Make every screen's compositor render partial updates this way (idempotent), if
    Textual is the one this was written for. Returns whether it is installed."""
    return textual_internals.install_partial_renders(render_chops)
