"""Defaults shared by the command line and the storage layer (kept light to import)."""

import os
from pathlib import Path

DEFAULT_SAVES = Path("saves")
DATA_FOLDER = "combat-tracker"
FIRST_SYSTEM = "livehack"  # listed first, as in the README; its demo is what a fresh start opens


def systems() -> tuple[str, ...]:
    """Every registered rule system's name as the tracker lists them (``tracker roll --help``,
    ``make demo``): ``FIRST_SYSTEM``, then the others by name."""
    from rules.registry import names  # only when asked: storage imports this module too

    return tuple(sorted(names(), key=lambda name: name != FIRST_SYSTEM))


def library_folder() -> Path:
    """The user's library of stat blocks (``--library DIR`` chooses another):
    ``$XDG_DATA_HOME/combat-tracker/library``, ``~/.local/share/...`` when that is unset."""
    data = os.environ.get("XDG_DATA_HOME") or ""
    base = Path(data).expanduser() if os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / DATA_FOLDER / "library"
