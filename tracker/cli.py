"""The ``tracker`` command. Headless subcommands never import Textual."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from rules.errors import Rejected
from rules.registry import known, names
from tracker import headless
from tracker.defaults import systems
from tracker.inert_output import inert_output
from tracker.serve import add_arguments as serve_arguments


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


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


def build_parser(only: str | None = None, command: str | None = None) -> Parser:
    """The whole parser, or with ``only`` (a system) and ``command`` (``roll`` or ``odds``)
    just what that headless command needs, so it loads nothing else."""

    def add_saves(to: argparse.ArgumentParser, default: object) -> None:
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

    # Given before or after the command: a command's own copy sets it only when given, so
    # `tracker --saves DIR open FILE` keeps DIR.
    saves = Parser(add_help=False)
    add_saves(saves, argparse.SUPPRESS)
    parser = Parser(
        prog="tracker",
        description="A keyboard-driven combat tracker. No command: the newest save, or the demo.",
    )
    add_saves(parser, None)
    parser.add_argument("--version", action=Version)
    parser.add_argument("--seed", type=int, help="seed the dice (for reproducible play)")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    new = sub.add_parser("new", parents=[saves], help="start a new encounter")
    # Listing the systems scans their folder: the parser of a headless command does without.
    new.add_argument("--system", required=True, choices=None if only else names())
    new.add_argument("--name", required=True)
    new.add_argument("--party", type=Path, metavar="SAVE", help="bring the party side of SAVE")
    new.add_argument(
        "--fresh",
        action="store_true",
        help="the party as the library has them (else their sheets reset to full)",
    )
    new.add_argument(
        "--add",
        action="append",
        default=[],
        metavar='"NAME xK"',
        help="K numbered copies of a library stat block (repeatable)",
    )

    open_ = sub.add_parser("open", parents=[saves], help="open a saved encounter")
    open_.add_argument("file", type=Path)

    replay = sub.add_parser("replay", parents=[saves], help="step through a saved fight")
    replay.add_argument("file", type=Path)

    export = sub.add_parser("export", help="a fight report, as Markdown or JSON")
    export.add_argument("file", type=Path)
    export.add_argument("--format", choices=["markdown", "json"], default="markdown")
    export.add_argument("-o", "--output", type=Path, metavar="OUT", help="write here, not stdout")
    export.add_argument("--gm", action="store_true", help="include GM-only combatants")
    export.add_argument(
        "--force", action="store_true", help="export a damaged save's readable part anyway"
    )

    library_arguments(
        sub.add_parser("library", parents=[saves], help="the library of stat blocks"), saves
    )

    serve_arguments(sub.add_parser("serve", parents=[saves], help="serve the encounter over SSH"))

    forecast_arguments(
        sub.add_parser("forecast", help="play the fight out many times by solo policy and report")
    )

    from tracker.headless import dice

    dice.add_arguments(sub.add_parser("dice", help="roll plain dice (2d6+3, 4d6kh3, 3d6!)"))

    roll = sub.add_parser("roll", help="roll once, headless, and print the breakdown")
    rolls = roll.add_subparsers(dest="system", required=True, parser_class=Parser)
    odds = sub.add_parser("odds", help="the exact chance of every result tier, before rolling")
    odds_systems = odds.add_subparsers(dest="system", required=True, parser_class=Parser)
    # Only the system and command asked for are loaded, so a headless command starts quickly.
    for name in [only] if only else systems():
        for asked, subparsers, help_ in (
            ("roll", rolls, f"a {name} roll"),
            ("odds", odds_systems, f"{name} odds"),
        ):
            module = headless.command_part(asked, name) if command in (None, asked) else None
            if module is not None:
                headless.add_arguments(asked, module, subparsers.add_parser(name, help=help_))
    return parser


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


def library_arguments(parser: argparse.ArgumentParser, folders: Parser) -> None:
    what = parser.add_subparsers(dest="library_command", required=True, parser_class=Parser)
    listed = what.add_parser(
        "list", parents=[folders], help="every stat block, bundled and your own"
    )
    listed.add_argument("--system", help="only this system's")
    listed.add_argument("--json", action="store_true", help="print them as JSON")
    add = what.add_parser(
        "add", parents=[folders], help="check a stat block file and keep it in the library"
    )
    add.add_argument("file", type=Path, metavar="FILE.toml")
    add.add_argument("--replace", action="store_true", help="replace one of the same name")
    export = what.add_parser(
        "export", parents=[folders], help="print a combatant of a save as a stat block"
    )
    export.add_argument("save", type=Path, metavar="SAVE")
    export.add_argument("name", metavar="NAME")


def forecast_arguments(parser: argparse.ArgumentParser) -> None:
    # The bounds live with the forecast; importing it here would load the rules for every
    # command, so they are repeated as numbers and a test checks they agree.
    parser.add_argument("file", type=Path)
    parser.add_argument(
        "--runs", type=bounded(1, 1_000_000), default=1000, metavar="N", help="fights (1000)"
    )
    parser.add_argument(
        "--seed", type=bounded(0, 2**63 - 1), metavar="S", help="seed (default: a fresh one)"
    )
    parser.add_argument(
        "--jobs", type=bounded(1, 64), metavar="J", help="processes (default: the CPUs, up to 8)"
    )
    parser.add_argument(
        "--rounds",
        type=bounded(1, 1000),
        default=50,
        metavar="R",
        help="a fight still going after R rounds has no winner (50)",
    )
    parser.add_argument("--json", action="store_true", help="print the forecast as JSON")


def is_system(word: str) -> bool:
    try:
        known(word)  # not ``in names()``: listing the systems' folder costs start-up time
    except Rejected:
        return False
    return True


def headless_asked_for(argv: Sequence[str]) -> tuple[str | None, str | None]:
    """The system and the command (``roll`` or ``odds``) in the arguments, if any."""
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
    if args.command in ("roll", "odds"):
        return headless.run(args)
    if args.command == "dice":
        from tracker.headless import dice

        return dice.run(args)
    if args.command == "forecast":
        from tracker.headless.forecast import Workers

        # Before the save is read, while this process holds the rules alone: the workers are
        # forked from it then, ready in milliseconds with nothing else loaded.
        args.workers = Workers(args.jobs)
    from tracker import defaults, launch, storage
    from tracker.library import LibraryError

    # The user's own folder unless --saves says otherwise (a checkout's `make run` does).
    args.user_saves = args.saves is None
    if args.user_saves:
        args.saves = defaults.saves_folder()

    try:
        if args.command == "export":
            return launch.run_export(args)
        if args.command == "library":
            return launch.run_library(args)
        if args.command == "forecast":
            return launch.run_forecast(args)
        if args.command == "replay":
            return launch.run_replay(args)
        if args.command == "serve":
            from tracker.serve.command import run_serve

            return run_serve(args)
        return launch.run_app(args)
    except (storage.SaveError, Rejected, LibraryError) as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # BrokenPipeError is main's; anything else the file system says
        if isinstance(exc, BrokenPipeError):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tracker: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
