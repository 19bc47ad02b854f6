"""Defaults shared by the command line and the storage layer (kept light to import).

Where the tracker keeps its files when installed as a tool: the platform's user folders, as
``platformdirs`` names them (on Linux ``~/.local/share/combat-tracker/`` for saves and the
library, ``~/.config/combat-tracker/`` for settings and the SSH host key, each following
``$XDG_DATA_HOME`` / ``$XDG_CONFIG_HOME``). A checkout's ``make run`` passes
``--saves saves`` instead, so it opens the bundled demos (docs/guide/saves.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from platformdirs import PlatformDirs

APP = "combat-tracker"


def _dirs() -> PlatformDirs:
    from platformdirs import PlatformDirs  # only when asked: `tracker odds` never needs it

    return PlatformDirs(APP, appauthor=False)


def saves_folder() -> Path:
    """The saves folder when ``--saves`` is not given: in the user's data folder."""
    return _dirs().user_data_path / "saves"


def library_folder() -> Path:
    """The stat-block library when ``--library`` is not given: in the user's data folder."""
    return _dirs().user_data_path / "library"


def config_folder() -> Path:
    """The user's settings folder (settings, the SSH host key)."""
    return _dirs().user_config_path


def systems() -> tuple[str, ...]:
    """Every registered rule system's name as the tracker lists them (``tracker roll --help``,
    ``make demo``): the one whose package says it is listed first, then the others by name."""
    from rules.registry import listed_first, names  # only when asked: storage imports this

    return tuple(sorted(names(), key=lambda name: not listed_first(name)))


def first_demo() -> str:
    """The file stem of the demo a fresh start opens: the first listed system's ("" if none)."""
    from rules.registry import part

    for name in systems():
        demo = part(name, "demo")
        if demo is not None:
            return str(demo.STEM)
    return ""
