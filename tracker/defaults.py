"""Defaults shared by the command line and the storage layer (kept light to import)."""

from pathlib import Path

DEFAULT_SAVES = Path("saves")
