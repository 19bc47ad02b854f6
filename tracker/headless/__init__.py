"""Headless subcommands, one module per rule system. None of them imports Textual.

A module offers ``add_roll_arguments(parser)`` and ``run_roll(args) -> int`` for
``tracker roll <system>``, and may offer ``add_odds_arguments`` and ``run_odds`` for
``tracker odds <system>``; list it in ``ROLLERS``. Modules are imported only when asked for,
so a headless command loads one rule system, not all of them.
"""

from importlib import import_module
from types import ModuleType

ROLLERS: dict[str, str] = {
    "livehack": "tracker.headless.livehack",
    "beerrun": "tracker.headless.beerrun",
    "fatigue": "tracker.headless.fatigue",
    "painpool": "tracker.headless.painpool",
}


def roller(name: str) -> ModuleType:
    return import_module(ROLLERS[name])
