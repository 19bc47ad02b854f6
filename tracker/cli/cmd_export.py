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
    return with_saves(args, report)


def report(args: argparse.Namespace) -> int:
    from tracker import export, storage

    loaded = storage.load(args.file)
    if loaded.problem and not args.force:
        raise storage.SaveError(
            args.file, f"{loaded.problem}; --force exports the records before it"
        )
    if loaded.notice:  # the damage, forced past; or another save's journal, not read
        print(f"tracker: {loaded.notice}", file=sys.stderr)
    text = export.report_text(loaded.history, args.format, args.gm)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    if args.output.resolve() == args.file.resolve() or storage.is_save(args.output):
        raise storage.SaveError(args.output, "is a save; choose another file for the report")
    storage.write_text(args.output, text)
    print(f"Wrote {args.output}", file=sys.stderr)
    return 0
