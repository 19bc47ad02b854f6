"""The ``tracker`` command. Headless subcommands never import Textual."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rules.errors import Rejected
from rules.systems import SYSTEMS
from tracker import storage
from tracker.headless import ROLLERS
from tracker.headless.seeds import dice_for

if TYPE_CHECKING:
    from tracker.app import TrackerApp


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line, with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> Parser:
    saves = Parser(add_help=False)
    saves.add_argument(
        "--saves",
        type=Path,
        default=storage.DEFAULT_SAVES,
        metavar="DIR",
        help="folder of saved encounters (default: ./saves)",
    )
    parser = Parser(
        prog="tracker",
        parents=[saves],
        description="A keyboard-driven combat tracker. No command: the newest save, or the demo.",
    )
    parser.add_argument("--seed", type=int, help="seed the dice (for reproducible play)")
    sub = parser.add_subparsers(dest="command", parser_class=Parser)

    new = sub.add_parser("new", parents=[saves], help="start a new encounter")
    new.add_argument("--system", required=True, choices=sorted(SYSTEMS))
    new.add_argument("--name", required=True)

    open_ = sub.add_parser("open", parents=[saves], help="open a saved encounter")
    open_.add_argument("file", type=Path)

    replay = sub.add_parser("replay", parents=[saves], help="step through a saved fight")
    replay.add_argument("file", type=Path)

    export = sub.add_parser("export", help="a fight report, as Markdown or JSON")
    export.add_argument("file", type=Path)
    export.add_argument("--format", choices=["markdown", "json"], default="markdown")
    export.add_argument("-o", "--output", type=Path, metavar="OUT", help="write here, not stdout")
    export.add_argument("--gm", action="store_true", help="include GM-only combatants")

    roll = sub.add_parser("roll", help="roll once, headless, and print the breakdown")
    systems = roll.add_subparsers(dest="system", required=True, parser_class=Parser)
    for name, module in ROLLERS.items():
        module.add_roll_arguments(systems.add_parser(name, help=f"a {SYSTEMS[name].title} roll"))
    odds = sub.add_parser("odds", help="the exact chance of every result tier, before rolling")
    odds_systems = odds.add_subparsers(dest="system", required=True, parser_class=Parser)
    for name, module in ROLLERS.items():
        if hasattr(module, "add_odds_arguments"):
            module.add_odds_arguments(
                odds_systems.add_parser(name, help=f"{SYSTEMS[name].title} odds")
            )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "roll":
            return ROLLERS[args.system].run_roll(args)
        if args.command == "odds":
            return ROLLERS[args.system].run_odds(args)
        if args.command == "export":
            return run_export(args)
        if args.command == "replay":
            return run_replay(args)
        return run_app(args)
    except (storage.SaveError, Rejected) as exc:
        print(f"tracker: {exc}", file=sys.stderr)
        return 2


def run_export(args: argparse.Namespace) -> int:
    import json

    from tracker import export

    history = storage.read(args.file)
    if args.format == "json":
        text = json.dumps(export.to_json(history, args.gm), indent=2) + "\n"
    else:
        text = export.to_markdown(history, args.gm)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if args.output.resolve() == args.file.resolve() or storage.is_save(args.output):
        raise storage.SaveError(args.output, "is a save; choose another file for the report")
    storage.write_text(args.output, text)
    print(f"Wrote {args.output}", file=sys.stderr)
    return 0


# --- the app -------------------------------------------------------------------------------------


def choose_encounter(args: argparse.Namespace) -> tuple[storage.Opened, list[str]]:
    """The encounter to start on, and the lines to tell the user about files passed over."""
    from rules.engine import new_encounter
    from rules.history import History

    folder: Path = args.saves
    if args.command == "new":
        history = History(new_encounter(args.name, args.system))
        path = storage.free_path(folder, args.name)
        return storage.Opened(history, path, f"New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return storage.open_save(args.file), []
    skipped: list[str] = []
    for path in storage.saves_by_recency(folder):
        try:
            return storage.open_save(path), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    for demo in storage.demos(folder):
        try:
            return storage.play_copy_of_demo(demo, folder), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    raise storage.SaveError(
        folder, "no saves and no demo here; try: tracker new --system livehack --name NAME"
    )


def run_app(args: argparse.Namespace) -> int:
    opened, skipped = choose_encounter(args)
    from tracker.app import TrackerApp  # Textual is loaded only for the app
    from tracker.session import EncounterSession

    _, dice = dice_for(args.seed)
    session, error = EncounterSession.resume(opened, dice)
    if args.command == "new":
        error = session.save()  # the new encounter's first snapshot
    if error:
        print(f"tracker: {error}", file=sys.stderr)
        return 2
    notes = [line for line in (opened.note, *skipped) if line]
    return _run(TrackerApp(session, saves=args.saves, notes=notes))


def run_replay(args: argparse.Namespace) -> int:
    loaded = storage.load(args.file)
    from tracker.app import TrackerApp

    _, dice = dice_for(args.seed)
    notes = [loaded.notice] if loaded.notice else []
    app = TrackerApp(None, saves=args.saves, notes=notes, replay=loaded.history, dice=dice)
    return _run(app)


def _run(app: TrackerApp) -> int:
    try:
        app.run()
    finally:
        # The app may have switched encounters (a branch); close whichever it ended on.
        error = app.session.close() if app.session is not None else None
    if error:
        print(f"tracker: {error}", file=sys.stderr)
        return 1
    return 0
