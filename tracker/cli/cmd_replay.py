"""``tracker replay FILE``: a saved fight stepped through, read-only."""

from __future__ import annotations

import argparse
from pathlib import Path

from tracker.cli.parsing import Building
from tracker.cli.with_saves import with_saves

HELP = "step through a saved fight"
FOLDERS = True


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    parser.add_argument("file", type=Path)


def run(args: argparse.Namespace) -> int:
    return with_saves(args, replay, named=True)


def replay(args: argparse.Namespace) -> int:
    from tracker import launch

    return launch.run_replay(args)
