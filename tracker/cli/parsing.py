"""What every subcommand's parser shares: one-line errors, ``--version``, the folders'
options and bounded numbers. Light: it loads no rules and no Textual."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, NoReturn, Protocol


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        from rules.text import inert  # light: no msgspec, no Textual

        # One line whatever an argument it echoes holds (a line break in a file's name).
        self.exit(2, inert(f"{self.prog}: error: {message}{_meant(message)}") + "\n")


def _meant(message: str) -> str:
    """``; did you mean 'library'?`` after argparse's "invalid choice: 'librar' (choose from
    'new', ...)", when one choice is close; else ""."""
    found = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if found is None:
        return ""
    from tracker.line_commands.did_you_mean import (
        closest,  # only on this error: it loads the encounter
    )

    choices = re.findall(r"'([^']*)'", found.group(2))
    near = closest(found.group(1), choices)
    return f"; did you mean '{near[0]}'?" if near else ""


class Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("combat-tracker")
        except PackageNotFoundError:  # run from a folder, never installed
            found = "(not installed)"
        print(f"tracker {found}")
        parser.exit()


def add_folders(to: argparse.ArgumentParser, default: object) -> None:
    """``--saves`` and ``--library``."""
    to.add_argument(
        "--saves",
        type=Path,
        default=default,
        metavar="DIR",
        help="folder of saved encounters (default: saves in the user's data folder)",
    )
    to.add_argument(
        "--library",
        type=Path,
        default=None if default is not argparse.SUPPRESS else default,
        metavar="DIR",
        help="folder of your stat blocks (default: your data folder)",
    )


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not from {low:,} to {high:,}")
        return value

    return parse


class Building(NamedTuple):  # not a dataclass: importing those costs `tracker odds` 10 ms
    """What the parser is built for. ``folders``: a parent parser giving ``--saves`` and
    ``--library`` after a command's words too. ``only`` (a system) and ``command`` (``roll``
    or ``odds``; or another command, with no system): that command was asked for, so the
    parser loads no system's headless parts for the others."""

    folders: Parser
    only: str | None = None
    command: str | None = None


class Subcommand(Protocol):
    """A ``tracker`` subcommand: a module ``tracker/cli/cmd_<name>.py`` holding these."""

    HELP: str  # its line in ``tracker --help``
    FOLDERS: bool  # it takes ``--saves`` and ``--library`` after its own words too

    def add_arguments(self, parser: argparse.ArgumentParser, building: Building) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...
