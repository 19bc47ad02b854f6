"""``tracker tune FILE --party-wins 80%``: foes added or removed, or their hit points scaled,
until the forecast gives the party that chance; each step shown, the save changed only with
``--apply`` (or a yes at the prompt), as one undoable change."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.cli.parsing import Building, bounded
from tracker.cli.with_saves import with_saves

if TYPE_CHECKING:
    from collections.abc import Callable

    from rules.tune import Kind, Step

HELP = "add or remove foes, or scale their hit points, to a chance for the party to win"
FOLDERS = True


def chance(text: str) -> float:
    """An argparse type: a chance as "80%" or "80" (0 to 100)."""
    word = text.strip().removesuffix("%")
    try:
        value = float(word)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a chance like 80%") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not from 0% to 100%")
    return value / 100


def add_arguments(parser: argparse.ArgumentParser, building: Building) -> None:
    parser.add_argument("file", type=Path)
    parser.add_argument(
        "--party-wins", type=chance, required=True, metavar="P%", help="the chance asked for"
    )
    parser.add_argument(
        "--within",
        type=bounded(1, 20),
        default=3,
        metavar="POINTS",
        help="stop this many points from it (3)",
    )
    parser.add_argument(
        "--from-library",
        metavar="CHALLENGE",
        help="add the library's stat blocks of this challenge, not the fight's own kinds",
    )
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--count-only", action="store_true", help="add and remove foes; never scale hit points"
    )
    only.add_argument(
        "--hp-only", action="store_true", help="scale the foes' hit points; never add or remove"
    )
    parser.add_argument(
        "--runs", type=bounded(10, 100_000), default=1000, metavar="N", help="fights a step (1000)"
    )
    parser.add_argument(
        "--seed", type=bounded(0, 2**63 - 1), metavar="S", help="seed (default: a fresh one)"
    )
    parser.add_argument(
        "--jobs", type=bounded(1, 64), metavar="J", help="processes (default: the CPUs, up to 8)"
    )
    parser.add_argument("--apply", action="store_true", help="write the change without asking")
    parser.add_argument("--json", action="store_true", help="print the steps as JSON")


def run(args: argparse.Namespace) -> int:
    from tracker.headless.forecast_pool import Workers

    # Before the save is read, as ``tracker forecast`` does: the workers forked from a process
    # holding the rules alone.
    args.workers = Workers(args.jobs)
    return with_saves(args, tune, named=True)


def tune(args: argparse.Namespace) -> int:
    import json
    import secrets

    from rules.odds import whole_percent
    from rules.text import inert
    from rules.tune import tune as search
    from tracker.headless import tune_runs as shown
    from tracker.store import storage
    from tracker.store.prepare import party_side

    workers = args.workers
    with workers:
        history = storage.read(args.file)
        state = history.state
        party = party_side(state)
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        kinds = None
        if args.from_library is not None:
            kinds = library_kinds(args, state.system)
        tolerance = args.within / 100
        estimate = shown.estimator(
            party, args.party_wins, seed, workers, runs=args.runs, tolerance=tolerance
        )
        if not args.json:
            print(
                inert(
                    f"Tuning {state.name}: the party ({party}) to win "
                    f"{whole_percent(args.party_wins)}, within {args.within} points "
                    f"(seed {seed})"
                ),
                flush=True,
            )
        try:
            tuning = search(
                state,
                party,
                args.party_wins,
                estimate,
                shown.scratch_dice(seed),
                kinds=kinds,
                tolerance=tolerance,
                scale_hp=not args.count_only,
                count=not args.hp_only,
                told=None if args.json else _printer(),
            )
        except KeyboardInterrupt:
            print("tracker: tune stopped; the save is as it was", file=sys.stderr)
            return 130
    if args.json:
        print(json.dumps(shown.as_json(tuning)))
    else:
        print(inert(tuning.line))  # the steps were printed as they were measured
    if tuning.command is None:
        return 0 if tuning.reached else 1
    if not (args.apply or _yes()):
        print("Not written: --apply writes it (one change, undone with u).")
        return 0 if tuning.reached else 1
    _write(args.file, tuning.command, f"tune: {tuning.line}")
    print(inert(f"Wrote {args.file} (one change: u in the app undoes it)"), file=sys.stderr)
    return 0


def _printer() -> Callable[[Step], None]:
    """Each step printed as it is measured: a tune takes seconds."""
    from rules.text import inert
    from tracker.headless.tune_runs import step_line

    count = 0

    def told(step: Step) -> None:
        nonlocal count
        count += 1
        print(inert(step_line(count, step)), flush=True)

    return told


def library_kinds(args: argparse.Namespace, system: str) -> list[Kind]:
    from rules.errors import Rejected
    from rules.tune import Kind
    from tracker.store import defaults, library

    folder = args.library if getattr(args, "library", None) else defaults.library_folder()
    found = library.load(folder).of(system)
    wanted = args.from_library.strip()
    kinds = [
        Kind(e.name, e.side, e.sheet(), e.hidden)
        for e in found
        if dict(e.fields).get("challenge", "").strip() == wanted and e.side != "party"
    ]
    if not kinds:
        raise Rejected(f"no stat block of challenge {wanted[:20]!r} in the library")
    return kinds


def _yes() -> bool:
    """Asked on a terminal only: piped, nothing is written without --apply."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        return input("Apply this change to the save? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _write(path: Path, command: object, label: str) -> None:
    from tracker.headless.seeds import dice_for
    from tracker.session import EncounterSession
    from tracker.store import storage

    opened = storage.open_save(path)
    session, error = EncounterSession.resume(opened, dice_for(None)[1])
    try:
        if error:
            raise storage.SaveError(path, error)
        session.execute(command, label[:200])
    except BaseException:
        session.let_go()
        raise
    error = session.close()
    if error:
        raise storage.SaveError(path, error)
