"""The user's settings (for now, the theme), kept in a small JSON file in their config folder.

The file is ``settings.json`` in the user's config folder (``tracker.store.defaults``; on Linux
``~/.config/combat-tracker/``); ``TRACKER_SETTINGS`` names another file (tests use it). A file
that cannot be read gives one line to show and the defaults; it is replaced when a setting
next changes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tracker.store import files
from tracker.store.defaults import config_folder

ENV_FILE = "TRACKER_SETTINGS"
NAME = "settings.json"
MAX_BYTES = 64 * 1024  # a theme's name takes a line


@dataclass(frozen=True)
class Settings:
    theme: str | None = None  # a Textual theme's name; None: Textual's default


def settings_path() -> Path:
    """Where the settings live: TRACKER_SETTINGS, else the user's config folder."""
    override = os.environ.get(ENV_FILE)
    if override:
        return Path(override).expanduser()
    return config_folder() / NAME


def load(path: Path) -> tuple[Settings, str | None]:
    """The settings in ``path`` (defaults if there is no file), and a line if it was bad."""
    try:
        # Read through a link (a dotfiles manager may link it), but never written through one.
        raw = files.read_bytes(path.resolve(), MAX_BYTES).decode("utf-8")
    except FileNotFoundError:
        return Settings(), None
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(), _problem(path, getattr(exc, "strerror", None) or str(exc))
    import json  # only for a settings file: a first start reads none

    try:
        data = json.loads(raw)
    except json.JSONDecodeError:
        return Settings(), _problem(path, "is not valid JSON")
    if not isinstance(data, dict):
        return Settings(), _problem(path, "is not a settings object")
    theme = data.get("theme")
    if theme is not None and not isinstance(theme, str):
        return Settings(), _problem(path, "has a theme that is not a name")
    return Settings(theme=theme), None


def save(path: Path, settings: Settings) -> str | None:
    """Write the settings (atomically); returns the line to show if that failed."""
    import json

    text = json.dumps({"theme": settings.theme}, indent=2) + "\n"
    try:
        files.write_atomically(path, text.encode("utf-8"))
    except OSError as exc:
        return f"Settings not saved: {path}: {exc.strerror or exc}"
    return None


def _problem(path: Path, what: str) -> str:
    return (
        f"Settings file {path} {what}; using the defaults "
        "(it is rewritten when you next change a setting)"
    )
