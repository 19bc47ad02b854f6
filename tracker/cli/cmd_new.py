"""``tracker new``: a new encounter (a party brought along, foes from the library), played."""

from __future__ import annotations

import argparse
from pathlib import Path

from tracker.cli.parsing import Building
from tracker.cli.with_saves import play, with_saves

HELP = "start a new encounter"
FOLDERS = True


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    from rules.registry import names

    # Listing the systems scans their folder (pkgutil, which loads inspect): only the parser
    # that may read `tracker new` lists them; `tracker dice` and the others do without.
    listed = building.command in (None, "new") and building.only is None
    parser.add_argument("--system", required=True, choices=names() if listed else None)
    parser.add_argument("--name", required=True)
    parser.add_argument("--party", type=Path, metavar="SAVE", help="bring the party side of SAVE")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="the party as the library has them (else their sheets reset to full)",
    )
    parser.add_argument(
        "--add",
        action="append",
        default=[],
        metavar='"NAME xK"',
        help="K numbered copies of a library stat block (repeatable)",
    )


def run(args: argparse.Namespace) -> int:
    return with_saves(args, play)
