"""Headless subcommands, one module per rule system. None of them imports Textual.

A module offers ``add_roll_arguments(parser)`` and ``run_roll(args) -> int`` for
``tracker roll <system>``; list it in ``ROLLERS``.
"""

from types import ModuleType

from tracker.headless import beerrun, fatigue, livehack, painpool

ROLLERS: dict[str, ModuleType] = {
    "livehack": livehack,
    "beerrun": beerrun,
    "fatigue": fatigue,
    "painpool": painpool,
}
