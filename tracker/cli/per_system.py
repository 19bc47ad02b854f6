"""The headless commands offered per system (``tracker roll SYSTEM``, ``tracker odds
SYSTEM``): one sub-command for each system whose package has the part."""

from __future__ import annotations

import argparse

from tracker import headless
from tracker.cli.parsing import Building, Parser
from tracker.store.defaults import systems


def add_systems(command: str, parser: argparse.ArgumentParser, building: Building) -> None:
    """A sub-command of ``command`` (``roll`` or ``odds``) for each system that offers it."""
    chosen = parser.add_subparsers(dest="system", required=True, parser_class=Parser)
    if building.command not in (None, command):
        return  # only the system and command asked for are loaded: a quick start
    for name in [building.only] if building.only else systems():
        module = headless.command_part(command, name)
        if module is not None:
            said = f"a {name} roll" if command == "roll" else f"{name} odds"
            help_ = getattr(module, "HELP", said)
            headless.add_arguments(
                command, module, chosen.add_parser(name, help=help_, description=help_)
            )
