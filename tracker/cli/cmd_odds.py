"""``tracker odds SYSTEM``: the exact chance of every result tier, before rolling."""

from __future__ import annotations

import argparse

from tracker import headless
from tracker.cli.parsing import Building
from tracker.cli.per_system import add_systems

HELP = "the exact chance of every result tier, before rolling"
FOLDERS = False


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    add_systems("odds", parser, building)


def run(args: argparse.Namespace) -> int:
    return headless.run(args)
