"""``tracker export FILE``: a fight report, as Markdown or JSON, on stdout or to a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tracker.cli.parsing import Building
from tracker.cli.with_saves import with_saves

HELP = "a fight report, as Markdown or JSON"
FOLDERS = False


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    parser.add_argument("file", type=Path)
    parser.add_argument("--format", choices=["markdown", "json"], default="markdown")
    parser.add_argument("-o", "--output", type=Path, metavar="OUT", help="write here, not stdout")
    parser.add_argument("--gm", action="store_true", help="include GM-only combatants")
    parser.add_argument(
        "--force", action="store_true", help="export a damaged save's readable part anyway"
    )


def run(args: argparse.Namespace) -> int:
    return with_saves(args, report, named=True)


def report(args: argparse.Namespace) -> int:
    from rules.text import inert
    from tracker import export, storage

    if args.output is not None:  # before the save is read: a report never lands on its files
        owned = storage.owned_by_a_save(args.output, (args.file,))
        if owned is not None:
            raise storage.SaveError(args.output, f"{owned}; choose another file for the report")
    loaded = storage.load(args.file)
    if loaded.problem and not args.force:
        raise storage.SaveError(
            args.file, f"{loaded.problem}; --force exports the records before it"
        )
    if loaded.notice:  # the damage, forced past; or another save's journal, not read
        print(inert(f"tracker: {loaded.notice}"), file=sys.stderr)
    try:
        text = export.report_text(loaded.history, args.format, args.gm)
    except Exception as exc:  # the log folded as it is read: the file is at fault, not the app
        raise storage.unreplayable(args.file, exc) from None
    if args.output is None:
        sys.stdout.write(text)
        return 0
    storage.write_text(args.output, text)
    print(inert(f"Wrote {args.output}"), file=sys.stderr)
    return 0
