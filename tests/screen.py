"""Reading what the app shows, as plain text, for assertions."""

from typing import Any

from textual.app import App
from textual.strip import Strip


def screen_text(app: App[Any]) -> str:
    """The active screen as the terminal shows it, one line per row."""
    # The compositor is private API, read by tests only (textual is pinned in pyproject.toml).
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def screen_strips(app: App[Any]) -> list[Strip]:
    """The active screen's rows with their styles, as the terminal draws them."""
    return list(app.screen._compositor.render_strips())


def app_error(app: App[Any]) -> BaseException | None:
    """The exception that ended the app, if one did (private: read by tests only; ``run_test``
    raises it only once the test's ``async with`` ends)."""
    error: BaseException | None = app._exception
    return error
