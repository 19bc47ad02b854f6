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
    from tracker import export

    history = storage.read(args.file)
    text = export.report_text(history, args.format, args.gm)
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
        path = storage.free_path(folder, args.name)
        return storage.Opened(history, path, f"New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return storage.open_save(args.file), []
    skipped: list[str] = []
    if getattr(args, "user_saves", False) and not storage.saves_by_recency(folder):
        from tracker.demos import write_demos

        write_demos(folder, keep=True)  # an installed tool's first start: a checkout's demos
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
    app = TrackerApp(session, saves=args.saves, notes=notes, settings_file=settings.settings_path())
    return _run(app)


def run_replay(args: argparse.Namespace) -> int:
    loaded = storage.load(args.file)
    from tracker.app import TrackerApp

    _, dice = dice_for(args.seed)
    notes = [loaded.notice] if loaded.notice else []
    app = TrackerApp(
        None,
        saves=args.saves,
        notes=notes,
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
        error = app.session.close() if app.session is not None else None
    if error:
        print(f"tracker: {error}", file=sys.stderr)
        return 1
    return 0
