"""The ``tracker`` command. Each subcommand is one module, ``cmd_<name>.py`` in this package
(``parsing.Subcommand`` says what it holds), found by its name in ``COMMANDS``, as the
systems' ``roll_cli`` and ``odds_cli`` are found by theirs.

A subcommand's module loads only what its options need; its ``run`` loads the rest. So the
headless subcommands (``roll``, ``odds``, ``dice``) never import Textual, and ``odds`` and
``dice`` not even msgspec.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import cast

from rules.errors import Rejected
from rules.registry import known
from tracker.cli.parsing import Building, Parser, Subcommand, Version, add_folders
from tracker.cli.with_saves import play, with_saves
from tracker.terminal.inert_output import inert_output

# In the order ``tracker --help`` lists them.
COMMANDS = (
    "new",
    "open",
    "replay",
    "export",
    "library",
    "serve",
    "forecast",
    "tune",
    "dice",
    "roll",
    "odds",
)


def subcommand(name: str) -> Subcommand:
    return cast(Subcommand, import_module(f"tracker.cli.cmd_{name}"))


def build_parser(only: str | None = None, command: str | None = None) -> Parser:
    """The whole parser, or with ``only`` (a system) and ``command`` (``roll`` or ``odds``)
    just what that headless command needs, so it loads nothing else."""
    # Given before or after the command: a command's own copy sets it only when given, so
    # `tracker --saves DIR open FILE` keeps DIR.
    folders = Parser(add_help=False)
    add_folders(folders, argparse.SUPPRESS)
    parser = Parser(
        prog="tracker",
        description="A keyboard-driven combat tracker. No command: the newest save, or the demo.",
    )
    add_folders(parser, None)
    parser.add_argument("--version", action=Version)
    parser.add_argument("--seed", type=int, help="seed the dice (for reproducible play)")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)
    if command == NO_COMMAND:
        return parser  # the app on the newest save: no command's parser (nor what it loads)
    building = Building(folders, only, command)
    for name in COMMANDS:
        module = subcommand(name)
        parents = [folders] if module.FOLDERS else []
        module.add_arguments(sub.add_parser(name, parents=parents, help=module.HELP), building)
    return parser


def is_system(word: str) -> bool:
    try:
        known(word)  # not ``in names()``: listing the systems' folder costs start-up time
    except Rejected:
        return False
    return True


# What ``headless_asked_for`` says of arguments naming no command (nor asking for help):
# the parser is built without the subcommands, so a plain `tracker` starts without loading
# every command's modules (every system's headless parts among them: 150 modules).
NO_COMMAND = ""

# The top-level options that take a value, to find the command word after them.
_VALUED = ("--saves", "--library", "--seed")


def command_word(argv: Sequence[str]) -> str | None:
    """The subcommand's word: the first one after the top-level options and their values."""
    index = 0
    while index < len(argv) and argv[index].startswith("-"):
        index += 2 if argv[index] in _VALUED else 1
    return argv[index] if index < len(argv) else None


def headless_asked_for(argv: Sequence[str]) -> tuple[str | None, str | None]:
    """The system and the command (``roll`` or ``odds``) in the arguments, if any; or
    another command (``dice``, ``forecast``...), which needs no system's headless parts at
    all (so none is loaded: ``dice`` loads not even msgspec, and ``forecast`` forks its
    workers sooner)."""
    word = command_word(argv)
    if word is None and not any(arg in ("-h", "--help") for arg in argv):
        return None, NO_COMMAND
    if word in COMMANDS and word not in ("roll", "odds"):
        return None, word
    for index, word in enumerate(argv[:-1]):
        if word in ("roll", "odds"):
            return (argv[index + 1], word) if is_system(argv[index + 1]) else (None, None)
    return None, None


@inert_output()
def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`tracker odds ... | head`): nothing more to say, no traceback.
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:  # Ctrl+C before the app takes the keys: stop, no traceback
        print("tracker: interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(*headless_asked_for(words)).parse_args(words)
    if args.command is None:
        return with_saves(args, play)  # the newest save, or a demo
    return subcommand(args.command).run(args)
