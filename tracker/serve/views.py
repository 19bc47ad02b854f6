"""Shared views: the seats that only watch the same thing are drawn one frame for all.

Every seat is a whole Textual app, and one loop draws them all, one after another. But a
seat that has typed nothing shows exactly what every other such seat shows, if it has the
same view: the same role and combatants, terminal size, colours and theme. So one app per
distinct view draws, and its frames go to every seat watching it. Each seat's own app keeps
up with the encounter, muted (it lays out but sends nothing), and takes over its terminal
with a whole frame at the seat's first key, click or paste: no delay, and from then on the
seat is drawn on its own. A watching seat whose window is resized draws itself while the
size settles, then goes back to the view of its new size.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import msgspec
from rich.console import Console

from rules.visibility import Viewer
from tracker.serve import failure
from tracker.serve.driver import Channel
from tracker.serve.heap import Heap
from tracker.serve.seats import Seat, Table
from tracker.terminal import textual_internals

if TYPE_CHECKING:
    from tracker.serve.seat_app import TableApp

RESIZE_SETTLE = 1.0  # seconds a resized seat draws itself before it watches a view again


class ViewKey(NamedTuple):
    """What a watching seat's screen depends on: seats with equal keys see the same."""

    viewer: Viewer  # without the player's name, which nothing on the screen shows
    size: tuple[int, int]
    colours: str
    theme: str


def view_key(table: Table, seat: Seat, app: TableApp, size: tuple[int, int]) -> ViewKey:
    viewer = msgspec.structs.replace(table.viewer(seat), name="")
    colours = app.console.color_system or "standard"
    return ViewKey(viewer, size, colours, app.theme)


class Fanout:
    """A channel that writes to every seat watching a view (the driver's ``Channel``)."""

    def __init__(self) -> None:
        self.channels: list[Channel] = []

    def write(self, data: str) -> None:
        for channel in self.channels:
            if not channel.is_closing():
                channel.write(data)

    def is_closing(self) -> bool:
        return False


class View:
    """One app drawing one view, on every channel in ``fanout``."""

    def __init__(self, key: ViewKey, app: TableApp, fanout: Fanout) -> None:
        self.key = key
        self.app = app
        self.fanout = fanout
        self.task: asyncio.Task[None] | None = None


class Views:
    """The table's shared views, made when a seat needs one and ended when none watches."""

    def __init__(
        self,
        table: Table,
        saves: Path,
        *,
        heap: Heap,
        ended: Callable[[list[Channel]], None] = lambda channels: None,
        failed: Callable[[str], None] | None = None,
        starting: Callable[[TableApp], None] = lambda app: None,
    ) -> None:
        """``heap`` is told when a view's app starts and ends; ``ended``: a view's app
        stopped, and these channels (maybe none) were still watching it: they must be
        drawn some other way; ``failed``: a view's app failed, in one line for the GM (by
        default a notice of the table's); ``starting``: a view's app was made, and runs."""
        self.table = table
        self.saves = saves
        self.views: dict[ViewKey, View] = {}
        self._heap = heap
        self._ended = ended
        self._failed = failed or table.notice
        self._starting = starting

    def watch(self, key: ViewKey, channel: Channel) -> View:
        """Draw ``key``'s view on ``channel`` too: a whole frame now, then every change."""
        view = self.views.get(key)
        if view is None:
            view = self.views[key] = self._start(key)
        view.fanout.channels.append(channel)
        if view.app.is_running:
            # The newcomer's terminal needs all of it (drawn in the view's app's context:
            # see TableApp.mute).
            view.app.call_later(view.app.refresh)
        return view

    def leave(self, view: View, channel: Channel) -> None:
        with contextlib.suppress(ValueError):
            view.fanout.channels.remove(channel)
        if not view.fanout.channels and self.views.get(view.key) is view:
            del self.views[view.key]
            view.app.exit()

    def close(self) -> None:
        for view in list(self.views.values()):
            view.fanout.channels.clear()
            view.app.exit()
        self.views.clear()

    def __iter__(self) -> Iterator[View]:
        return iter(list(self.views.values()))

    def _start(self, key: ViewKey) -> View:
        from tracker.serve.seat_app import TableApp

        seat = Seat(0, key.viewer.role, "", view=key.viewer)  # never joins the table's seats
        app = TableApp(self.table, seat, saves=self.saves)
        # Textual prints a failed app's traceback on stderr: the GM's screen. Not a view's.
        app.error_console = Console(file=io.StringIO(), markup=False)
        textual_internals.use_colours(app.console, key.colours)
        if app.theme != key.theme:
            app.theme = key.theme
        fanout = Fanout()
        app.draw_on(fanout, modes=False)
        view = View(key, app, fanout)
        view.task = asyncio.create_task(self._run(view))
        self._starting(app)
        self._heap.changed()
        return view

    async def _run(self, view: View) -> None:
        error: BaseException | None = None
        try:
            await view.app.run_async(size=view.key.size)
        except Exception as exc:  # a view's failure: its seats draw themselves, nothing else
            error = exc
        finally:
            if self.views.get(view.key) is view:
                del self.views[view.key]
            left, view.fanout.channels = view.fanout.channels, []
            self._heap.changed(ended=True)
            self._ended(left)
        error = textual_internals.first_error(view.app) or error
        if error is not None:
            role, (width, height) = view.key.viewer.role, view.key.size
            self._failed(
                f"The shared {role} view ({width}x{height}) failed, its seats now drawn on"
                f" their own: {failure.one_line(error)}"
            )
