"""Reading what the app shows, as plain text, for assertions."""

from typing import Any
from weakref import WeakKeyDictionary

from textual.app import App
from textual.strip import Strip

# The rows each app last showed outside a batch. While a batch runs (a widget rebuilt: the key
# bar's entries removed, then mounted again) the terminal is sent nothing and keeps the frame
# before it, but the compositor already holds the half-built one.
_SHOWN: "WeakKeyDictionary[App[Any], list[Strip]]" = WeakKeyDictionary()


def screen_strips(app: App[Any]) -> list[Strip]:
    """The active screen's rows with their styles, as the terminal draws them."""
    # The compositor and the batch count are private API, read by tests only (textual is
    # pinned in pyproject.toml).
    if app._batch_count and app in _SHOWN:
        return list(_SHOWN[app])
    strips = list(app.screen._compositor.render_strips())
    _SHOWN[app] = strips
    return list(strips)


def screen_text(app: App[Any]) -> str:
    """The active screen as the terminal shows it, one line per row; then each notification
    shown, its wrapped lines read as one (a toast is narrower than the message it says)."""
    strips = screen_strips(app)
    rows = [strip.text for strip in strips]
    return "\n".join([*rows, *_notices(app, strips)])


def _notices(app: App[Any], strips: list[Strip]) -> list[str]:
    """The text of each notification on screen, as one line: its rows within its region,
    without the toast's edge, joined."""
    from textual.widgets._toast import Toast  # the toast's class: read by tests only

    said = []
    for toast in app.screen.query(Toast):
        region = toast.region
        if not region or region.bottom > len(strips):
            continue
        rows = [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]
        words = " ".join(row.strip(" ▌▐█").strip() for row in rows).split()
        if words:
            said.append(" ".join(words))
    return said


def app_error(app: App[Any]) -> BaseException | None:
    """The exception that ended the app, if one did (private: read by tests only; ``run_test``
    raises it only once the test's ``async with`` ends)."""
    error: BaseException | None = app._exception
    return error
