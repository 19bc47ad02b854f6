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
    """The active screen as the terminal shows it, one line per row."""
    return "\n".join(strip.text for strip in screen_strips(app))


def app_error(app: App[Any]) -> BaseException | None:
    """The exception that ended the app, if one did (private: read by tests only; ``run_test``
    raises it only once the test's ``async with`` ends)."""
    error: BaseException | None = app._exception
    return error
