"""``tracker roll SYSTEM``: one roll, headless, in any system that offers it."""

from __future__ import annotations

import argparse

from tracker import headless
from tracker.cli.parsing import Building
from tracker.cli.per_system import add_systems

HELP = "roll once, headless, and print the breakdown"
FOLDERS = False


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    add_systems("roll", parser, building)


def run(args: argparse.Namespace) -> int:
    return headless.run(args)
