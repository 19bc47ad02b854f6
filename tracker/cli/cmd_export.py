"""``tracker export FILE``: a fight report, as Markdown or JSON, on stdout or to a file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules.errors import Rejected
from tracker.cli.parsing import Building, bounded
from tracker.cli.with_saves import with_saves

if TYPE_CHECKING:
    from rules.history import History

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
    parser.add_argument(
        "--swings",
        action="store_true",
        help="where the fight turned: the party's chance event by event, and the three rolls "
        "that swung it most",
    )
    parser.add_argument(
        "--runs",
        type=bounded(10, 10_000),
        default=60,
        metavar="N",
        help="--swings: fights a point before a roll (60; between rolls a quarter, around the "
        "likeliest swings 10/3 as many)",
    )
    parser.add_argument(
        "--seed", type=bounded(0, 2**63 - 1), metavar="S", help="--swings: seed (default: fresh)"
    )
    parser.add_argument(
        "--jobs", type=bounded(1, 64), metavar="J", help="--swings: processes (default: the CPUs)"
    )


class Refused(Rejected):
    """The swings' own refusal (no party, GM-only combatants, stopped): one line, the save
    not at fault; anything else raised while the log is read again is the file's."""


def run(args: argparse.Namespace) -> int:
    if args.swings:
        from tracker.headless.forecast_pool import Workers

        # Before the save is read, as ``tracker forecast`` does: forked workers.
        args.workers = Workers(args.jobs)
    return with_saves(args, report, named=True)


def report(args: argparse.Namespace) -> int:
    from rules.text import inert
    from tracker.store import export, storage

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
        if args.swings:
            text = swings_text(args, loaded.history)
        else:
            text = export.report_text(loaded.history, args.format, args.gm)
    except Refused:  # the swings' own refusal: one line, the save is not at fault
        raise
    except Exception as exc:  # the log folded as it is read: the file is at fault, not the app
        raise storage.unreplayable(args.file, exc) from None
    if args.output is None:
        sys.stdout.write(text)
        return 0
    storage.write_text(args.output, text)
    print(inert(f"Wrote {args.output}"), file=sys.stderr)
    return 0


def swings_text(args: argparse.Namespace, history: History) -> str:
    """The swings report; a fight with GM-only combatants only with ``--gm`` (its chances and
    rolls are the whole fight's)."""
    import json
    import secrets

    from rules.errors import Rejected
    from rules.replay import Timeline
    from rules.swings import FIRM, QUICK, swings
    from rules.text import inert_document, inert_value
    from rules.visibility import hidden_ids
    from tracker.cli.progress import on_terminal
    from tracker.headless import swings_runs as shown
    from tracker.store import export
    from tracker.store.prepare import party_side

    with args.workers as workers:
        if not args.gm and hidden_ids(history.effective_events(), history.state):
            raise Refused("the swings read the whole fight, GM-only combatants too: add --gm")
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        try:
            party = party_side(history.state)
        except Rejected as refused:
            raise Refused(refused.message) from None
        chances = shown.chances_over(party, seed, workers)
        many = shown.many_over(party, seed, workers)
        try:
            firm = args.runs * FIRM // QUICK
            with on_terminal("swings", sys.stderr) as told:
                found = swings(
                    Timeline(history), party, chances, told, quick=args.runs, firm=firm, many=many
                )
        except KeyboardInterrupt:
            raise Refused("swings stopped") from None
    if args.format == "json":
        return json.dumps(inert_value(shown.as_json(found, seed)), indent=2) + "\n"
    return inert_document(shown.as_markdown(found, history.state.name, seed, export.md))
