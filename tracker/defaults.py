"""Defaults shared by the command line and the storage layer (kept light to import)."""

from pathlib import Path

DEFAULT_SAVES = Path("saves")
FIRST_SYSTEM = "livehack"  # listed first, as in the README; its demo is what a fresh start opens


def systems() -> tuple[str, ...]:
    """Every registered rule system's name as the tracker lists them (``tracker roll --help``,
    ``make demo``): ``FIRST_SYSTEM``, then the others by name."""
    from rules.registry import names  # only when asked: storage imports this module too

    return tuple(sorted(names(), key=lambda name: name != FIRST_SYSTEM))
