"""One seat's session channel: its app drawn on the channel, or a shared view while it only
watches, or a twin's frames while it shows what that seat shows (tracker/serve/twins.py);
its input counted and a flood closed.

A newcomer's first frame is the shared view's: the seat's own app starts once that is
drawn (or at the seat's first key, whichever comes first), so that the two do not share
the loop while the player waits for the table. What the seat types before its own app is
up is kept (``EARLY_BYTES`` at most) and handed to it then."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections.abc import Mapping
from typing import Any, Protocol

import asyncssh
from rich.console import Console

from tracker.serve import alerts, failure, twins
from tracker.serve.config import Config
from tracker.serve.driver import ENTER_SCREEN, LEAVE_SCREEN, drawn
from tracker.serve.heap import Heap
from tracker.serve.limits import (
    CUT,
    CUT_TOLD_EVERY,
    FLOODED,
    Fair,
    InputLimit,
    clamp_size,
    end_paste,
    open_paste,
)
from tracker.serve.players import Player
from tracker.serve.seats import Seat, Table
from tracker.serve.views import RESIZE_SETTLE, View, ViewKey, Views, view_key
from tracker.terminal import textual_internals

NO_TERMINAL = (
    "This is a combat tracker table: it needs a terminal.\r\n"
    "Connect with plain ssh (or ssh -t), without a command.\r\n"
)
CLOSE_AFTER = 1.0  # seconds between a seat's end and its connection's
WINDOW_CHANGES = 0.05  # seconds: a burst of window changes is applied once, at its end
HANG_UP = 0.2  # seconds between a flood's farewell and its connection's end
EARLY_BYTES = 4096  # typed before the seat's own app is up: kept for it (beyond, dropped)
TOLD_SETTLE = 5.0  # seconds a seat given other combatants draws itself, to tell its player


class Host(Protocol):
    """What a seat asks of the server that seats it (tracker/serve/server.py)."""

    table: Table
    config: Config
    fair: Fair
    heap: Heap
    views: Views
    channels: set[SeatChannel]

    def say(self, line: str) -> None: ...
    def flooded(self, channel: SeatChannel) -> None: ...
    def restore_streams(self) -> None: ...


class Owner(Protocol):
    """The SSH connection a seat's channel belongs to (tracker/serve/connection.py)."""

    address: str
    conn: asyncssh.SSHServerConnection | None

    def seated(self) -> None: ...


def farewell(message: str) -> str:
    """What a closing seat's terminal is sent last, whoever closed it (the GM's kick or quit,
    a flood, the idle timeout...): its modes left, the alternate screen with them (again if
    its app left them already: that changes nothing, and a seat closed before its own app
    started entered them all the same), then ``message`` on a line cleared for it, where
    the terminal's cursor was before the table."""
    return LEAVE_SCREEN + (f"\r\x1b[2K{message}\r\n" if message else "")


def color_system(term: str, env: Mapping[str, str]) -> str:
    """The colours the client's terminal shows, from its TERM and COLORTERM."""
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    if "256color" in term or "kitty" in term or "direct" in term:
        return "256"
    return "standard"


class SeatChannel(asyncssh.SSHServerSession[str]):
    """One session channel: a seat at the table, its app drawn on the channel."""

    def __init__(self, server: Host, player: Player, peer: str, owner: Owner | None = None) -> None:
        self.server = server
        self.player = player
        self.peer = peer
        self.owner = owner
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.term: str | None = None
        self.size = clamp_size(0, 0)
        self.seat: Seat | None = None
        self.app: Any = None
        self.task: asyncio.Task[None] | None = None
        self._farewell = ""
        # Until its first key the seat only watches: a shared view draws it, its own app
        # muted (see tracker/serve/views.py).
        self.typed = False
        self.view: View | None = None
        self._settle: asyncio.TimerHandle | None = None
        self._window_change: asyncio.TimerHandle | None = None
        self.window_changes = InputLimit()
        self._flood_closed = False
        self._cut_told = -CUT_TOLD_EVERY  # when the seat was last told its input was cut
        self._errors = io.StringIO()  # a seat's app's traceback, never the server's stderr
        self._early: str | None = ""  # typed before the own app is up (None: it is)
        self._over = False  # the seat has ended
        # Typed seats showing the same (tracker/serve/twins.py): the seat this one's
        # terminal follows, or those that follow this one's frames.
        self.leader: SeatChannel | None = None
        self.followers: list[SeatChannel] = []
        self._twin_key: ViewKey | None = None  # its view when it was paired
        self.printed: tuple[int, bytes] | None = None  # its screen's digest (twins.py)
        self._quiet: asyncio.TimerHandle | None = None
        self._looks = 0  # looks left before it waits for its next input

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.term = term_type or "xterm"
        self.size = clamp_size(*term_size[:2])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # SFTP among them

    def break_received(self, msec: int) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if self.term is None:
            self.chan.write_stderr(NO_TERMINAL)
            self.chan.exit(1)
            return
        from tracker.serve.seat_app import TableApp

        player = self.player
        table = self.server.table
        self.seat = table.join(player.role, player.name, self.peer, close=self.close_with)
        self.seat.alert = self.alert
        config = self.server.config
        self.app = TableApp(table, self.seat, saves=config.saves, library=config.library)
        self.app.error_console = Console(file=self._errors, width=100, markup=False)
        colours = color_system(self.term, self.chan.get_environment())
        textual_internals.use_colours(self.app.console, colours)  # the client's, not ours
        self.app.draw_on(
            self.chan,
            muted=True,
            on_input=self._typed,
            on_flood=self._flooded,
            on_cut=self.cut,
            fair=self.server.fair,
            first=player.role == "gm",  # the GM's keys go first
            on_diverge=self.part,
        )
        self.chan.write(ENTER_SCREEN)  # whichever app draws it, from now on
        self.server.channels.add(self)
        self.server.heap.changed()
        self._watch()
        assert self.view is not None
        view = self.view.app
        if view.is_running:  # an existing view draws the newcomer: before more input
            self.server.fair.hold(drawn(view))  # (a new one holds it as it starts)
        drawn(view).add_done_callback(lambda _: self._start_own())
        if self.owner is not None:
            self.owner.seated()  # its login's hold gives way to its view's

    # --- who draws the seat: a shared view, or its own app ---

    def write(self, data: str) -> None:
        """A shared view's frame (the seat is a ``Channel`` for ``Fanout``)."""
        if self.chan is not None and not self.chan.is_closing():
            self.chan.write(data)

    def is_closing(self) -> bool:
        return self.chan is None or self.chan.is_closing()

    def alert(self, words: str) -> None:
        """A turn alert (tracker/serve/alerts.py): the bell and the desktop notification,
        written whole on the loop, between the frames of whichever app draws the seat."""
        self.write(alerts.terminal_alert(words))

    def _watch(self) -> None:
        """Show the shared view for this seat's role, size and looks; the own app muted."""
        assert self.seat is not None
        self._leave_view()
        self.app.mute()
        self.view = self.server.views.watch(
            view_key(self.server.table, self.seat, self.app, self.size), self
        )

    def _leave_view(self) -> None:
        if self.view is not None:
            self.server.views.leave(self.view, self)
            self.view = None

    def rewatch(self) -> None:
        """The seat's view may have changed (its player was given other combatants)."""
        if self._twin_key is not None and self.twin_key() != self._twin_key:
            self.part()  # no longer the same as its twins
            twins.unfollow(self)
        if self.view is None or self.seat is None:
            return
        if view_key(self.server.table, self.seat, self.app, self.size) != self.view.key:
            # Its own app draws it while it tells the player whom they play now (a view's
            # app, shared, cannot), then it watches its new view, as a resized seat does.
            self.draw_own()
            self._cancel_settle()
            self._settle = asyncio.get_running_loop().call_later(TOLD_SETTLE, self._settled)

    def _start_own(self) -> None:
        """Start the seat's own app (muted while a view draws the seat), once."""
        if self.task is not None or self._over or self.app is None:
            return
        self.task = asyncio.create_task(self._run())
        up = drawn(self.app)
        self.server.fair.hold(up)  # a newcomer's app starts before more input
        up.add_done_callback(lambda _: self._own_up())

    def _own_up(self) -> None:
        """The own app is up: what was typed meanwhile is its."""
        early, self._early = self._early, None
        if early:
            self.data_received(early, None)

    @property
    def ready(self) -> bool:
        """The seat's own app is up (what is typed reaches it)."""
        return self._early is None

    def draw_own(self) -> None:
        """The seat's own app draws it from now on, starting with a whole frame."""
        self._start_own()
        twins.unfollow(self)
        if self.view is not None:
            self._leave_view()
            self.app.unmute()
            self.server.heap.changed()  # its app lays out and draws again: new long-lived objects

    def _typed(self) -> None:
        """The first key, click or paste: the seat is no longer only watching."""
        self.typed = True
        self._cancel_settle()
        self._look_later()
        self.draw_own()

    # --- twins: typed seats showing the same (tracker/serve/twins.py) ---

    def twin_key(self) -> ViewKey:
        assert self.seat is not None
        return view_key(self.server.table, self.seat, self.app, self.size)

    @property
    def drawing_own(self) -> bool:
        """Its own app is up and draws the seat."""
        seat = self.seat
        return (
            self.ready
            and self.view is None
            and not self._over
            and seat is not None
            and not seat.muted
            and not self.is_closing()
        )

    def tee(self, follower: SeatChannel) -> None:
        """Send this seat's frames to ``follower`` too."""
        driver = self.app.channel_driver
        if driver is not None and follower not in driver.also:
            driver.also.append(follower)
        self._twin_key = self._twin_key or self.twin_key()
        follower._twin_key = self._twin_key

    def untee(self, follower: SeatChannel) -> None:
        driver = self.app.channel_driver
        if driver is not None and follower in driver.also:
            driver.also.remove(follower)
        follower._twin_key = None
        if not self.followers:
            self._twin_key = None

    def part(self) -> None:
        """This seat's screen is about to change: its twins are handed on."""
        if self.followers:
            twins.part(self)

    def _look_later(self, looks: int = 0) -> None:
        """Look for a twin once the seat has been quiet a while (and again a few times if
        none shows the same yet: a screen may take a frame or two to settle)."""
        if self._quiet is not None:
            self._quiet.cancel()
        self._looks = looks or twins.LOOKS
        self._quiet = asyncio.get_running_loop().call_later(
            twins.QUIET * (1 + twins.LOOKS - self._looks), self._look
        )

    def _look(self) -> None:
        self._quiet = None
        if twins.may_lead(self) and not self.followers:
            drawn(self.app).add_done_callback(lambda _: self._pair())

    def _pair(self) -> None:
        if self._quiet is not None or self._over:
            return  # typed since: it looks again later
        if twins.pair(self, list(self.server.channels)) is not None:
            # What it was given in the same burst may still be on its way through its app:
            # once that has drawn (and a quiet while), it is compared with its leader again.
            asyncio.get_running_loop().call_later(twins.QUIET, self._check_twin)
        elif self._looks > 1:
            self._look_later(self._looks - 1)

    def _check_twin(self) -> None:
        if self.leader is not None:
            drawn(self.app).add_done_callback(lambda _: twins.still_twins(self))

    def _cancel_settle(self) -> None:
        if self._settle is not None:
            self._settle.cancel()
            self._settle = None

    def _settled(self) -> None:
        self._settle = None
        if not self.typed and self.seat is not None and self.seat.id in self.server.table.seats:
            self._watch()

    async def _run(self) -> None:
        error: BaseException | None = None
        try:
            await self.app.run_async(size=self.size)
        except Exception as exc:  # the seat's failure ends the seat, and nothing else
            error = exc
        finally:
            self.server.restore_streams()
            self._ended()
        error = textual_internals.first_error(self.app) or error
        if error is not None:
            self._failed(error)
        elif self.app.return_code not in (None, 0) or self._errors.tell():
            self._failed(None)

    def _failed(self, error: BaseException | None) -> None:
        """The seat's app failed: one line for the GM (Textual's traceback went to
        ``_errors``, never to the server's stderr)."""
        who = self.seat.name if self.seat is not None else self.player.name
        why = failure.one_line(error) if error is not None else "an error"
        self.server.say(f"{who}'s seat ({self.peer}) was closed by an error: {why}")
        self._errors = io.StringIO()

    def _flooded(self) -> None:
        if self._flood_closed:  # told once, whichever input flooded
            return
        self._flood_closed = True
        who = self.seat.name if self.seat is not None else self.player.name
        self.server.say(f"{who}'s seat ({self.peer}) was closed: it flooded the table with input")
        self.server.flooded(self)
        self.close_with(FLOODED)
        # Each packet it sends still costs the loop (its decryption, its reading), however
        # little is done with it: the connection goes soon, whether or not the app has closed.
        asyncio.get_running_loop().call_later(HANG_UP, self._hang_up)

    def cut(self) -> None:
        """What the seat typed or pasted was cut short (the rest dropped): one line says so,
        on its screen, at most once in ``CUT_TOLD_EVERY`` seconds."""
        now = time.monotonic()
        if self.app is None or now - self._cut_told < CUT_TOLD_EVERY:
            return
        self._cut_told = now
        # In the app's own context (see TableApp.mute): this is the connection's callback.
        self.app.call_later(self.app.notify, CUT, severity="warning", timeout=10, markup=False)

    def _hang_up(self) -> None:
        if self.chan is not None and not self.chan.is_closing():  # no farewell yet
            self.chan.write(farewell(FLOODED))
        self.disconnect(FLOODED)

    def disconnect(self, why: str) -> None:
        """End the connection itself (an SSH connection's every channel with it)."""
        owner = self.owner
        if owner is not None and owner.conn is not None:
            owner.conn.disconnect(asyncssh.DISC_BY_APPLICATION, why)

    def _ended(self) -> None:
        self._over = True
        self._cancel_settle()
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        self.part()
        twins.unfollow(self, draw=False)
        if self._window_change is not None:
            self._window_change.cancel()
            self._window_change = None
        self._leave_view()
        self.server.channels.discard(self)
        self.server.heap.changed(ended=True)
        if self.seat is not None:
            self.server.table.leave(self.seat)
        chan = self.chan
        if chan is not None and not chan.is_closing():
            chan.write(farewell(self._farewell))
            chan.exit(0)
        owner = self.owner
        if owner is not None and owner.conn is not None:
            # The seat is gone: so is its connection (a client that keeps it open would
            # still count against the seats), once the farewell is on its way.
            asyncio.get_running_loop().call_later(CLOSE_AFTER, owner.conn.close)

    def seat_last_input(self) -> float:
        """When the seat's last input came, or was last handed to its app, the later: a seat
        is not quiet while its app has keys just given it to draw (a busy table holds them
        back), or a twin would pair with the screen before them (a full suite did)."""
        came = self.seat.last_input if self.seat is not None else time.monotonic()
        driver = self.app.channel_driver if self.app is not None else None
        return max(came, driver.delivered_at) if driver is not None else came

    def data_received(self, data: str, datatype: Any) -> None:
        if self.seat is not None:
            self.seat.last_input = time.monotonic()
        if self.typed:
            self._look_later()
        if self._early is not None:  # its own app is not up yet: kept for it, and started
            room = EARLY_BYTES - len(self._early)  # (full: the rest is dropped)
            if 0 < room < len(data):  # cut: a paste cut short is ended there
                kept = self._early + data[:room]
                self._early = end_paste(kept, open_paste(kept, False))
                self.cut()
            elif room > 0:
                self._early += data
            self._start_own()
            return
        driver = self.app.channel_driver if self.app is not None else None
        if driver is not None:
            try:
                driver.feed(data)
            except Exception as exc:  # no input reaches the server's stderr as a traceback
                self._failed(exc)
                self.close_with("Closed: this seat's input could not be read.")

    @property
    def address(self) -> str:
        return self.owner.address if self.owner is not None else "?"

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        # Window changes are input too, counted from the first (before the app is up):
        # beyond the seat's budget they are dropped, and a flood of them closes the seat.
        if not self.window_changes.admit_event():
            if self.window_changes.flooding:
                self._flooded()
            return
        size = clamp_size(width, height)
        if size == self.size:
            return  # beyond the largest size, or no change: nothing to lay out again
        self.size = size
        # A dragged window (or a client sending thousands) changes size many times: the
        # seat is laid out again once, for the last.
        if self._window_change is None:
            self._window_change = asyncio.get_running_loop().call_later(
                WINDOW_CHANGES, self._apply_size
            )

    def _apply_size(self) -> None:
        self._window_change = None
        driver = self.app.channel_driver if self.app is not None else None
        if self.typed and self.app is not None:
            self.part()  # its screen changes: its twins are handed on...
            self.draw_own()  # ...and if it was one, it draws itself at its new size
            self._look_later()
        if driver is not None:
            driver.resize(*self.size)
        if self.app is not None and not self.typed and self.seat is not None:
            # Drawn on its own while the size settles (a dragged window sends many), then
            # back to the view of its new size.
            self.draw_own()
            self._cancel_settle()
            self._settle = asyncio.get_running_loop().call_later(RESIZE_SETTLE, self._settled)

    def eof_received(self) -> bool:
        self.close_with("")
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        # The client went away (at any moment): end the seat; the encounter is untouched.
        self.chan = None
        self.close_with("")

    def close_with(self, message: str) -> None:
        """End this seat, telling the client why."""
        self._farewell = message
        self.part()
        # From now on only its own app's end reaches its terminal: a shared view's frame, or
        # a leader's, sent after that app has left the alternate screen would be drawn on
        # the terminal's own screen, the farewell over it (a kicked watching seat's was: the
        # kick tells every header that it left).
        self._leave_view()
        twins.unfollow(self, draw=False)
        if self.app is not None and self.task is not None and not self.task.done():
            with contextlib.suppress(Exception):
                self.app.exit()
        elif self.app is not None and self.task is None and not self._over:
            self._ended()  # its own app never started: the seat ends here
        elif self.chan is not None and not self.chan.is_closing():
            if message:
                self.chan.write(message + "\r\n")
            self.chan.exit(0)
