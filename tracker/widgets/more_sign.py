"""A sign on a dialog's border that a list inside it scrolls, and which way there is more.

A scrollbar alone was missed (the LiveHack ``s`` menu hid its last three actions, the
Fatigue check its last fields): the sign says it in words, where the eye reads the frame.
"""

from __future__ import annotations

from textual.widget import Widget


def more_sign(scroller: Widget) -> str:
    """What of ``scroller`` is out of sight: "▼ more below", "▲ more above", both, or ""."""
    above = scroller.scroll_y > 0
    below = scroller.scroll_y < scroller.max_scroll_y
    if above and below:
        return "▲▼ more above and below"
    if below:
        return "▼ more below"
    return "▲ more above" if above else ""


def keep_more_sign(frame: Widget, scroller: Widget) -> None:
    """Keep ``frame``'s lower border saying what of ``scroller`` is out of sight, as it
    scrolls, grows or shrinks (a resized terminal is ``show_more_sign``'s, from the screen)."""

    def update(_value: object = None) -> None:
        show_more_sign(frame, scroller)

    frame.watch(scroller, "scroll_y", update, init=False)
    frame.watch(scroller, "virtual_size", update, init=False)
    frame.call_after_refresh(update)


def show_more_sign(frame: Widget, scroller: Widget) -> None:
    sign = more_sign(scroller)
    if frame.border_subtitle != sign:
        frame.border_subtitle = sign
