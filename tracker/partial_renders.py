"""A partial screen update draws only the widgets, and the rows, that it updates.

Textual 8.2's ``Compositor._get_renders(crop)`` keeps every widget whose clip (for most
widgets, the whole screen) overlaps the updated area, and renders all of its visible
rows; the rows outside the update are then thrown away. So one new line in the roll log
had the header, footer, combatants and thresholds panes rendered again, on every seat of
a served table. This version keeps only the widgets whose visible part overlaps the
update, and renders only the update's rows of them. Columns are not narrowed: a widget's
rendered rows must start and end on the compositor's cuts, and rows are independent of
each other, so the bytes sent are the same as Textual's.

Installed once for the process by :func:`install` (tracker.app calls it). ``_get_renders``
is Textual's private method (textual is pinned >=8.2,<8.3); tests/test_partial_renders.py
fails if the code this replaces changes.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import Compositor
from textual.geometry import Region
from textual.strip import Strip

TEXTUALS_GET_RENDERS = Compositor._get_renders


def _get_renders(
    self: Compositor, crop: Region | None = None
) -> Iterable[tuple[Region, Region, list[Strip]]]:
    if not crop:
        yield from TEXTUALS_GET_RENDERS(self, crop)
        return
    intersection = Region.intersection
    top, bottom = crop.y, crop.bottom
    for widget, (region, clip) in self.visible_widgets.items():
        x, y, width, height = intersection(region, clip)
        if not (width and height and crop.overlaps(Region(x, y, width, height))):
            continue
        # The update's rows of the clip, across its whole width.
        clip_top = max(clip.y, top)
        clip = Region(clip.x, clip_top, clip.width, min(clip.bottom, bottom) - clip_top)
        new_x, new_y, new_width, new_height = intersection(region, clip)
        if new_width and new_height:
            yield (
                region,
                clip,
                widget.render_lines(
                    Region(new_x - region.x, new_y - region.y, new_width, new_height)
                ),
            )


def install() -> None:
    """Make every screen's compositor render partial updates this way (idempotent)."""
    Compositor._get_renders = _get_renders  # type: ignore[method-assign]
