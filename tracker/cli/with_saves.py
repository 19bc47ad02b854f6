"""Running a subcommand that reads or writes files: the saves folder chosen, and whatever
goes wrong said in one line (exit 2), never a traceback."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable


def with_saves(
    args: argparse.Namespace, go: Callable[[argparse.Namespace], int], *, named: bool = False
) -> int:
    """``go(args)`` with ``args.saves`` set (and ``args.user_saves``: whether it is the
    user's own folder, not one given by ``--saves``); with ``named``, ``args.file`` may be a
    save's name in that folder (``storage.located``)."""
    from rules.errors import Rejected
    from rules.text import inert
    from tracker.store import defaults, storage

    # The user's own folder unless --saves says otherwise (a checkout's `make run` does).
    args.user_saves = args.saves is None
    if args.user_saves:
        args.saves = defaults.saves_folder()
    if named:
        args.file = storage.located(args.file, args.saves)

    try:
        return go(args)
    except (storage.SaveError, Rejected, _library_error()) as exc:
        print(inert(f"tracker: {exc}"), file=sys.stderr)
        return 2
    except OSError as exc:  # BrokenPipeError is main's; anything else the file system says
        if isinstance(exc, BrokenPipeError):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(inert(f"tracker: {where}{exc.strerror or exc}"), file=sys.stderr)
        return 2


class _NeverRaised(Exception):
    pass


def _library_error() -> type[Exception]:
    """The library's error, if the library was loaded (else it cannot have been raised):
    named only as an error goes by, so a start that reads no library does not load it."""
    library = sys.modules.get("tracker.store.library")
    return library.LibraryError if library is not None else _NeverRaised


def play(args: argparse.Namespace) -> int:
    """The app on the encounter the arguments choose (``new``, ``open``, or the newest)."""
    # No collection until the encounter is drawn (TrackerApp turns it back on): a start makes
    # objects by the hundred thousand (modules, styles, widgets), next to none of them
    # garbage, and the collector scanning them again and again was some 4% of its work.
    gc.disable()
    try:
        from tracker import launch

        return launch.run_app(args)
    finally:
        gc.enable()
