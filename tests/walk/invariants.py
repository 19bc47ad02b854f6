"""What must hold after every step of a walk; each check returns what broke, or None.

The cheap ones run after every step; ``costly`` (the save reopened, the log folded, undone
and redone, a player's export) every few steps and at the end.
"""

from __future__ import annotations

from typing import Any

import msgspec
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button
from textual.worker import WorkerState

from rules.history import History
from tests.contract.support import states_in_effect
from tests.screen import app_error, screen_text
from tests.walk.world import HIDDEN_ID, HIDDEN_NAME, SECRET_DICE, SMALL, World
from tracker.serve.seats import SeatSession
from tracker.store import export, storage

SECRETS = (HIDDEN_NAME, HIDDEN_ID, SECRET_DICE)


def escaped(world: World) -> str | None:
    """Nothing escaped: no exception in the app, the seat still up, no worker in error."""
    app = world.app
    error = app_error(app)
    if error is not None:
        return f"the app raised {type(error).__name__}: {error}"
    if app.return_code not in (None, 0):
        return f"the app (the seat) ended with return code {app.return_code}"
    if app.return_code is not None or not app.is_running:
        return "the app stopped"
    for worker in app.workers:
        if worker.state == WorkerState.ERROR:
            return f"the worker {worker.name!r} failed: {worker.error!r}"
    if world.table is not None and not isinstance(app.session, SeatSession):
        return f"the seat plays another encounter than the table's: {app.session!r}"
    return None


def leaked(world: World) -> str | None:
    """A player or spectator sees nothing of the GM-only combatant on screen."""
    if world.sees_hidden:
        return None
    return _secret_in(screen_text(world.app), "screen")


def _secret_in(text: str, where: str) -> str | None:
    folded = text.casefold()
    for secret in SECRETS:
        at = folded.find(secret.casefold())
        if at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            line = text[start : end if end >= 0 else None]
            return f"the {where} shows the GM-only {secret!r}: {line.strip()!r}"
    return None


def off_screen(world: World, scrolled: bool = False) -> str | None:
    """At 80x24 the focused widget and the open dialog's buttons are wholly on screen (the
    focused one not just after the user scrolled it away: PgDn in a form)."""
    app = world.app
    if world.case.size != SMALL:
        return None
    screen = app.screen
    widgets: list[Widget] = [app.focused] if app.focused and not scrolled else []
    if isinstance(screen, ModalScreen):
        widgets += [button for button in screen.query(Button) if button.display]
    area = Region(0, 0, *app.size)
    for widget in widgets:
        try:
            placed = screen.find_widget(widget)
        except Exception:  # not in the screen's map: not drawn at all
            return f"{_named(widget)} on {type(screen).__name__} is not drawn"
        shown = placed.region.intersection(placed.clip).intersection(area)
        if shown != placed.region:
            return (
                f"{_named(widget)} on {type(screen).__name__} is cut off: at {placed.region}, "
                f"only {shown} on screen"
            )
    return None


def _named(widget: Widget) -> str:
    label = getattr(widget, "label", "")
    return (
        f"{type(widget).__name__}"
        + (f"#{widget.id}" if widget.id else "")
        + (f" {str(label)!r}" if label else "")
    )


def cheap(world: World, scrolled: bool = False) -> str | None:
    return escaped(world) or leaked(world) or off_screen(world, scrolled)


def saved(world: World) -> str | None:
    """The session's state is the save reopened from disk, and the fold of its log."""
    session = world.session
    assert session.path is not None
    disk = storage.load(session.path)
    if disk.notice:
        return f"reopening the save: {disk.notice}"
    if disk.history.state != session.state:
        return "the save reopened from disk differs: " + difference(
            disk.history.state, session.state
        )
    folded = History.from_records(list(session.history.records))
    if folded.state != session.state:
        return "the fold of the log differs: " + difference(folded.state, session.state)
    return None


def undone_and_redone(world: World) -> str | None:
    """Undo back to the start, then redo to the end, on a copy: the same states each way."""
    live = world.session.history
    expected = states_in_effect(live)
    copy = History.from_records(list(live.records))
    back = [copy.state]
    while copy.can_undo:
        copy.undo()
        back.append(copy.state)
    back.reverse()
    if back != expected:
        at = next(i for i, (a, b) in enumerate(zip(back, expected, strict=False)) if a != b)
        return f"undone to record {at} of {len(expected)}: " + difference(back[at], expected[at])
    for at, state in enumerate(expected[1:], start=1):
        copy.redo()
        if copy.state != state:
            return f"redone to record {at}: " + difference(copy.state, state)
    return None


def exported(world: World) -> str | None:
    """A player's export (``tracker export`` without ``--gm``) holds nothing of the hidden."""
    if world.sees_hidden:
        return None
    history = world.session.history
    for fmt in ("md", "json"):
        found = _secret_in(export.report_text(history, fmt, gm=False), f"player's {fmt} export")
        if found:
            return found
    return None


def costly(world: World) -> str | None:
    return saved(world) or undone_and_redone(world) or exported(world)


def difference(got: Any, wanted: Any) -> str:
    """The first fields where two states differ, briefly."""
    a, b = msgspec.to_builtins(got), msgspec.to_builtins(wanted)
    found: list[str] = []

    def walk(x: Any, y: Any, path: str) -> None:
        if len(found) >= 3 or x == y:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for key in sorted(set(x) | set(y), key=str):
                walk(x.get(key), y.get(key), f"{path}.{key}")
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for index, (p, q) in enumerate(zip(x, y, strict=True)):
                walk(p, q, f"{path}[{index}]")
        else:
            found.append(f"{path or 'state'}: {str(x)[:80]} != {str(y)[:80]}")

    walk(a, b, "")
    return "; ".join(found) or "(equal as data)"
