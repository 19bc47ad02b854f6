"""Starting the tracker on an encounter, replaying one, and exporting reports.

Split from ``tracker.cli`` so that the headless ``roll`` and ``odds`` commands load none of
this (saving and opening loads every rule system).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tracker import settings, storage
from tracker.headless.seeds import dice_for

if TYPE_CHECKING:
    from rules.history import History
    from tracker.app import TrackerApp


def run_export(args: argparse.Namespace) -> int:
    from tracker import export

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


def library_of(args: argparse.Namespace) -> Path:
    from tracker.defaults import library_folder

    folder: Path | None = getattr(args, "library", None)
    return folder if folder is not None else library_folder()


def run_library(args: argparse.Namespace) -> int:
    import json

    from rules.registry import known
    from tracker import library
    from tracker.command_line import need_combatant

    folder = library_of(args)
    if args.library_command == "add":
        entry, path = library.add_file(folder, args.file, args.replace)
        print(f"Kept {entry.name} ({entry.system}) in {path}", file=sys.stderr)
        return 0
    if args.library_command == "export":
        state = storage.read(args.save).state
        combatant = need_combatant(state, args.name)
        # Its stat block, as a fight starts (unhurt, its number dropped), not its state now.
        kept = library.from_combatant(state.system, combatant, fresh=True)
        sys.stdout.write(library.to_toml(kept))
        return 0
    found = library.load(folder)
    for problem in found.problems:
        print(f"tracker: {problem}", file=sys.stderr)
    entries = found.of(known(args.system)) if args.system else found.entries
    if args.json:
        print(json.dumps([e.to_json() for e in entries], indent=2))
    else:
        print(library.listing(entries))
    return 0


def run_forecast(args: argparse.Namespace) -> int:
    import json
    import secrets

    from tracker.headless import forecast

    # The workers were started before the save is read (``tracker.cli``).
    workers: forecast.Workers = args.workers
    with workers:
        history = storage.read(args.file)
        seed = args.seed if args.seed is not None else secrets.randbits(32)
        try:
            result = forecast.run_forecast(history.state, args.runs, seed, args.rounds, workers)
        except KeyboardInterrupt:
            print("tracker: forecast stopped", file=sys.stderr)  # ctrl+c: no traceback
            return 130
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(forecast.as_text(result))
    return 0


# --- the app -------------------------------------------------------------------------------------


def choose_encounter(args: argparse.Namespace) -> tuple[storage.Opened, list[str]]:
    """The encounter to start on, and the lines to tell the user about files passed over."""
    folder: Path = args.saves
    if args.command == "new":
        return storage.create(folder, _new_history(args), "New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return _told(storage.open_save(args.file)), []
    skipped: list[str] = []
    if getattr(args, "user_saves", False) and not storage.saves_by_recency(folder):
        from tracker.demos import write_demos

        write_demos(folder, keep=True)  # an installed tool's first start: a checkout's demos
    for path in storage.saves_by_recency(folder):
        try:
            return _told(storage.open_save(path)), skipped
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


def _told(opened: storage.Opened) -> storage.Opened:
    """A damaged save is said on stderr too: the app's dialog is gone once it quits."""
    if opened.repaired:
        print(f"tracker: {opened.note}", file=sys.stderr)
    return opened


def _new_history(args: argparse.Namespace) -> History:
    from rules.dice import ANY_FACE
    from tracker import library, prepare

    if args.fresh and args.party is None:
        raise library.LibraryError("--fresh is for a party: give --party SAVE too")
    found = library.load(library_of(args))
    party_from = storage.read(args.party).state if args.party is not None else None
    return prepare.new_history(
        args.name,
        args.system,
        ANY_FACE,  # adding rolls no dice
        library=found,
        party_from=party_from,
        fresh=args.fresh,
        foes=args.add,
    )


def run_app(args: argparse.Namespace) -> int:
    opened, skipped = choose_encounter(args)
    from tracker.app import TrackerApp  # Textual is loaded only for the app
    from tracker.session import EncounterSession

    _, dice = dice_for(args.seed)
    session, error = EncounterSession.resume(opened, dice)
    if error:
        session.let_go()
        print(f"tracker: {error}", file=sys.stderr)
        return 2
    notes = [line for line in ("" if opened.repaired else opened.note, *skipped) if line]
    warnings = [opened.note] if opened.repaired else []
    app = TrackerApp(
        session,
        saves=args.saves,
        notes=notes,
        warnings=warnings,
        settings_file=settings.settings_path(),
        library=library_of(args),
    )
    return _run(app)


def run_replay(args: argparse.Namespace) -> int:
    loaded = storage.load(args.file)
    if loaded.notice:
        print(f"tracker: {loaded.notice}", file=sys.stderr)
    from tracker.app import TrackerApp

    _, dice = dice_for(args.seed)
    app = TrackerApp(
        None,
        saves=args.saves,
        warnings=[loaded.notice] if loaded.notice else [],
        replay=loaded.history,
        dice=dice,
        settings_file=settings.settings_path(),
    )
    return _run(app)


def _run(app: TrackerApp) -> int:
    try:
        app.run()
    finally:
        # The app may have switched encounters (a branch); close whichever it ended on.
        session = app.session
        error: str | None = None
        if session is not None and app.left_unsaved:
            session.let_go()  # the user chose to quit past a failed save (see the app)
            error = app.left_unsaved
        elif session is not None:
            error = session.close()
    if error:
        print(f"tracker: {error}", file=sys.stderr)
        return 1
    return app.return_code or 0  # Textual sets 1 when the app crashed
