"""``tracker open FILE``: a saved encounter, played (a demo as a copy)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tracker.cli.parsing import Building
from tracker.cli.with_saves import play, with_saves

HELP = "open a saved encounter"
FOLDERS = True


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    parser.add_argument("file", type=Path)


def run(args: argparse.Namespace) -> int:
    return with_saves(args, play, named=True)
