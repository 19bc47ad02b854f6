"""Headless subcommands, one module per rule system. None of them imports Textual.

A module offers ``add_roll_arguments(parser)`` and ``run_roll(args) -> int`` for
``tracker roll <system>``; list it in ``ROLLERS``. ``tracker odds <system>`` has its own
module (``add_odds_arguments`` and ``run_odds``), listed in ``ODDS``: it loads only the
system's msgspec-free tables and its exact-odds engine, so it starts quickly. Modules are
imported only when asked for, so a headless command loads one rule system, not all of them.
"""

from importlib import import_module
from types import ModuleType

ROLLERS: dict[str, str] = {
    "livehack": "tracker.headless.livehack",
    "beerrun": "tracker.headless.beerrun",
    "fatigue": "tracker.headless.fatigue",
    "painpool": "tracker.headless.painpool",
}
ODDS: dict[str, str] = {
    "livehack": "tracker.headless.livehack_odds",
    "beerrun": "tracker.headless.beerrun_odds",
    "fatigue": "tracker.headless.fatigue_odds",
    "painpool": "tracker.headless.painpool_odds",
}


def roller(name: str) -> ModuleType:
    return import_module(ROLLERS[name])


def odds_module(name: str) -> ModuleType:
    return import_module(ODDS[name])
