"""Starting the app on an encounter (``tracker``, ``tracker new``, ``tracker open``) or on a
fight's replay (``tracker replay``).

Apart from ``tracker.cli`` so that the headless ``roll`` and ``odds`` commands load none of
this (saving and opening loads every rule system).
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules.text import inert
from tracker.headless.seeds import dice_for
from tracker.store import defaults, keymap, settings, storage
from tracker.terminal import hangup

if TYPE_CHECKING:
    from rules.history import History
    from tracker.app import TrackerApp


def library_of(args: argparse.Namespace) -> Path:
    from tracker.store.defaults import library_folder

    folder: Path | None = getattr(args, "library", None)
    return folder if folder is not None else library_folder()


# --- the app -------------------------------------------------------------------------------------


def choose_encounter(
    args: argparse.Namespace,
    passed_over: dict[Path, str] | None = None,
    check_later: bool = True,
) -> tuple[storage.Opened, list[str]]:
    """The encounter to start on, and the lines to tell the user about files passed over.
    ``passed_over``: saves opened before and then found not to fold (by path, the line
    saying why), not opened again. ``check_later``: a long save's whole log is folded after
    the app's first frame (``storage.open_save``), else as it opens."""
    folder: Path = args.saves
    if args.command == "new":
        return storage.create(folder, _new_history(args), "New encounter: {path}"), []
    if args.command == "open":
        if storage.is_demo(args.file):
            return storage.play_copy_of_demo(args.file, folder), []
        return _told(storage.open_save(args.file, check_later=check_later)), []
    skipped: list[str] = []
    if getattr(args, "user_saves", False) and not storage.saves_by_recency(folder):
        from tracker.demos import write_demos

        write_demos(folder, keep=True)  # an installed tool's first start: a checkout's demos
    # A save is checked as it opens, and skipped if it fails; a long one's whole log is
    # folded after its first frame, and one that fails then is skipped too (``run_app``).
    passed_over = passed_over or {}
    skipped += [f"Skipped {line}" for line in passed_over.values()]
    for path in storage.saves_by_recency(folder):
        if path in passed_over:
            continue
        try:
            return _told(storage.open_save(path, check_later=check_later)), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    for demo in storage.demos(folder):
        try:
            return storage.play_copy_of_demo(demo, folder), skipped
        except storage.SaveError as exc:
            skipped.append(f"Skipped {exc}")
    for line in skipped:  # no app opens to say them
        print(inert(f"tracker: {line}"), file=sys.stderr)
    raise storage.SaveError(
        folder,
        f"no saves and no demo here; try: tracker new --system {defaults.systems()[0]} --name NAME",
    )


def _told(opened: storage.Opened) -> storage.Opened:
    """A damaged save is said on stderr too: the app's dialog is gone once it quits."""
    if opened.repaired:
        print(inert(f"tracker: {opened.note}"), file=sys.stderr)
    return opened


def _new_history(args: argparse.Namespace) -> History:
    from tracker.store import library, prepare

    if args.fresh and args.party is None:
        raise library.LibraryError("--fresh is for a party: give --party SAVE too")
    # The library is read only for what it is asked for: a new empty fight reads none of it.
    asked = bool(args.add) or args.party is not None
    found = library.load(library_of(args)) if asked else library.Library()
    party_from = storage.read(args.party).state if args.party is not None else None
    return prepare.new_history(
        args.name,
        args.system,
        dice_for(None)[1],  # what a sheet rolls as it joins (hit points written as dice)
        library=found,
        party_from=party_from,
        fresh=args.fresh,
        foes=args.add,
    )


def run_app(args: argparse.Namespace) -> int:
    """The app on the encounter chosen. Started on the newest save (no file named), one
    whose log is found not to fold after its first frame is passed over as one refused as
    it opened is: the app starts again on the next, saying so."""
    passed_over: dict[Path, str] = {}
    while True:
        opened, skipped = choose_encounter(args, passed_over)
        newest = args.command not in ("new", "open")
        code, app = _run_on(args, opened, skipped, say_refused=not newest)
        session = app.session if app is not None else None
        if not (newest and session is not None and session.refused):
            return code
        passed_over[opened.path] = session.refused
        gc.disable()  # as the first start ran (tracker.cli.with_saves.play)


def _run_on(
    args: argparse.Namespace, opened: storage.Opened, skipped: list[str], say_refused: bool
) -> tuple[int, TrackerApp | None]:
    """The exit status of the app run on ``opened``, and the app (None: it did not start)."""
    from tracker.app import TrackerApp  # Textual is loaded only for the app
    from tracker.session import EncounterSession

    _, dice = dice_for(args.seed)
    session, error = EncounterSession.resume(opened, dice)
    if error:
        session.let_go()
        print(inert(f"tracker: {error}"), file=sys.stderr)
        return 2, None
    notes = [line for line in ("" if opened.repaired else opened.note, *skipped) if line]
    warnings = [opened.note] if opened.repaired else []
    app = TrackerApp(
        session,
        saves=args.saves,
        notes=notes,
        warnings=warnings,
        settings_file=settings.settings_path(),
        keymap_file=keymap.keymap_path(),
        library=library_of(args),
        difficulty=args.command == "new",
    )
    code = _run(app)
    if app.without_terminal and args.command == "new":  # a script's: say where it is kept
        kept = f"the new encounter is kept: tracker open {opened.path}"
        print(inert(f"tracker: {kept}"), file=sys.stderr)
    if say_refused and app.session is not None and app.session.refused:
        print(inert(f"tracker: {app.session.refused}"), file=sys.stderr)
    return code, app


def run_replay(args: argparse.Namespace) -> int:
    loaded = storage.load(args.file)
    if loaded.notice:
        print(inert(f"tracker: {loaded.notice}"), file=sys.stderr)
    timeline = storage.replayable(args.file, loaded.history)  # refused in a line if it cannot
    from tracker.app import TrackerApp

    _, dice = dice_for(args.seed)
    app = TrackerApp(
        None,
        saves=args.saves,
        warnings=[loaded.notice] if loaded.notice else [],
        replay=timeline,
        dice=dice,
        settings_file=settings.settings_path(),
        keymap_file=keymap.keymap_path(),
    )
    return _run(app)


def _run(app: TrackerApp) -> int:
    """The app run to its end: its exit status (a save found not to fold after its first
    frame is said by the caller, ``run_app``, or passed over)."""
    app.watch_terminal = True  # a terminal that goes away ends it, saved
    from tracker.terminal import textual_internals  # loaded with the app already

    app.builds_ahead = textual_internals.can_build_unseen()  # asked before the app runs
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
    if session is not None and session.refused:  # opened, then found not to fold (app.sound)
        return 2
    if error:
        print(inert(f"tracker: {error}"), file=sys.stderr)
        return 1
    if app.without_terminal:
        print(f"tracker: {hangup.NO_TERMINAL}", file=sys.stderr)
        return 2
    return app.return_code or 0  # Textual sets 1 when the app crashed
