"""Reading what the app shows, as plain text, for assertions."""

from textual.app import App
from textual.strip import Strip


def screen_text(app: App[object]) -> str:
    """The active screen as the terminal shows it, one line per row."""
    # The compositor is private API, read by tests only (textual is pinned in pyproject.toml).
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)


def screen_strips(app: App[object]) -> list[Strip]:
    """The active screen's rows with their styles, as the terminal draws them."""
    return list(app.screen._compositor.render_strips())
