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
    from tracker.app import TrackerApp


def run_export(args: argparse.Namespace) -> int:
    import json

    from tracker import export

    loaded = storage.load(args.file)
    if loaded.notice:
        if not args.force:
            raise storage.SaveError(
                args.file, f"{loaded.problem}; --force exports the records before it"
            )
        print(f"tracker: {loaded.notice}", file=sys.stderr)
    history = loaded.history
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


def run_forecast(args: argparse.Namespace) -> int:
    import json
    import secrets

    from tracker.headless import forecast

    history = storage.read(args.file)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    jobs = args.jobs or forecast.default_jobs()
    try:
        result = forecast.run_forecast(history.state, args.runs, seed, args.rounds, jobs)
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
    from rules.engine import new_encounter
    from rules.history import History

    folder: Path = args.saves
    if args.command == "new":
        history = History(new_encounter(args.name, args.system))
        return storage.create(folder, history, "New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return _told(storage.open_save(args.file)), []
    skipped: list[str] = []
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
    return 0
