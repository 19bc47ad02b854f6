"""A Textual driver on an SSH channel, so that many apps share one process and one loop.

Textual's own Linux driver reads the process's stdin, termios and SIGWINCH, which a second
app in the same process cannot share. This one writes to its channel and is fed by it: the
SSH session hands it the bytes typed and the window changes. It reads them with Textual's
own terminal parser, which is private: tracker.terminal.textual_internals hands it over.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual import events, messages
from textual.driver import Driver
from textual.geometry import Size

from tracker.serve.limits import PARSE_STEP, Fair, InputLimit, Pastes, clamp_size
from tracker.terminal import textual_internals

if TYPE_CHECKING:
    from textual.app import App

# After input stops, the parser is ticked once so that a lone Escape (which might have
# been the start of a longer sequence) is delivered as the Escape key.
ESCAPE_TICK = 0.11

ENTER_SCREEN = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # hide the cursor
    "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse reports
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
)
LEAVE_SCREEN = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?7h\x1b[?1049l\x1b[?25h"


def drawn(app: App[Any]) -> asyncio.Future[None]:
    """Done once ``app`` has handled what it was given so far (started, if it has not
    yet), and drawn it."""
    future = asyncio.get_running_loop().create_future()

    def done() -> None:
        if not future.done():
            future.set_result(None)

    if not app.call_after_refresh(done):
        done()  # the app is closing: nothing to wait for
    return future


class Channel(Protocol):
    """What the driver needs of an SSH channel (asyncssh's ``SSHServerChannel``)."""

    def write(self, data: str) -> None: ...
    def is_closing(self) -> bool: ...


class ChannelDriver(Driver):
    """Draws on ``channel``; ``feed`` and ``resize`` are called by the SSH session.

    A seat that only watches shows a shared view (tracker.serve.views) while its own app is
    ``muted``: the app keeps up but nothing it draws is sent. The seat's first real input
    (anything but the mouse moving) calls ``on_input`` first, which unmutes it; so does
    every real input while it is muted again (a twin's), and the first even when the app
    already draws (a watching seat drawing itself a while: told whom it plays, or resized),
    which would otherwise go back to its view with what that key did hidden.
    ``modes=False`` leaves the terminal's modes (alternate screen, mouse) to the seats: a
    shared view's driver draws on many terminals that each entered them already.

    Input is bounded (tracker.serve.limits): what arrives beyond the seat's budget is
    dropped before it is parsed, events beyond it after, and what is let through is parsed
    a step at a time so that other seats are drawn in between. ``on_flood`` is called once
    when the seat has dropped more than a person could ever type; its input stops there.
    ``on_cut`` is called when what it typed is cut short, short of a flood (a long paste).
    With ``fair``, the events let through wait their turn in the table's input budget before
    the app gets them; with ``first`` too (the GM's), they never wait, and each holds the
    other seats' input until this app has drawn it.

    ``also``: more channels that show what this app draws (its seat's twins,
    tracker/serve/twins.py), sent its frames but not its terminal's modes; ``on_diverge``
    is called before any event reaches the app while it has them.
    """

    def __init__(
        self,
        app: App[Any],
        *,
        channel: Channel,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        modes: bool = True,
        muted: bool = False,
        on_input: Callable[[], None] | None = None,
        on_flood: Callable[[], None] | None = None,
        on_cut: Callable[[], None] | None = None,
        fair: Fair | None = None,
        first: bool = False,
        on_diverge: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._channel = channel
        self._parser = textual_internals.xterm_parser(debug)
        self._window = clamp_size(*(size or (0, 0)))  # the client's, as last told
        self._tick: asyncio.TimerHandle | None = None
        self._limit = InputLimit()
        self._pastes = Pastes(self._limit)  # a paste cut short is ended, its rest skipped
        self._pending = ""  # let through, not parsed yet
        self._step: asyncio.Handle | None = None
        self.on_flood = on_flood
        self.on_cut = on_cut
        self._flood_told = False
        self.fair = fair
        self.first = first
        self._seat_app = app  # Textual keeps its own as a private attribute
        self._input = False
        self._modes = modes
        self.muted = muted
        self.on_input = on_input
        self.typed = False  # its first real input came (``on_input`` was called for it)
        self.also: list[Channel] = []
        self.on_diverge = on_diverge
        # Writes sent, and unmutes: each a screen that may have changed (tracker/serve/twins.py).
        self.frames = 0
        # When input was last handed to the app (a busy table holds keys back, so this can
        # be long after they came): a seat whose app has just been given a key may not
        # have drawn it yet, and is no twin to pair with until it has (twins.pair).
        self.delivered_at = 0.0

    @property
    def is_headless(self) -> bool:
        return False

    def unmute(self) -> None:
        """Write again. What the app shows may have changed while nothing was written (a
        key a twin's app handled while it followed another seat): that counts as a frame,
        so a screen print kept for the last frame written is not taken for it (twins.py)."""
        self.muted = False
        self.frames += 1

    def write(self, data: str) -> None:
        if self.muted:
            return
        self.frames += 1
        if not self._channel.is_closing():
            self._channel.write(data)
        for channel in self.also:
            if not channel.is_closing():
                channel.write(data)

    def start_application_mode(self) -> None:
        if self._modes:
            self.write(ENTER_SCREEN)
        self._input = True
        self._send_size()

    def disable_input(self) -> None:
        self._input = False
        self._pending = ""
        if self._tick is not None:
            self._tick.cancel()
        if self._step is not None:
            self._step.cancel()
            self._step = None
        if self.fair is not None:
            self.fair.forget(self)

    def stop_application_mode(self) -> None:
        self.disable_input()
        if self._modes and not self._channel.is_closing():  # muted or not: the seat ends
            self._channel.write(LEAVE_SCREEN)

    def feed(self, data: str) -> None:
        """Keys (and mouse reports, pastes...) typed on the client's terminal."""
        if not self._input:
            return
        admitted, cut = self._pastes.admit(data)
        self._pending += admitted
        if self._flooded():
            return
        if cut and self.on_cut is not None:
            self.on_cut()
        if self._step is None and self._pending:
            self._step = asyncio.get_running_loop().call_soon(self._parse_step)

    def _parse_step(self) -> None:
        self._step = None
        if not self._input:
            return
        chunk, self._pending = self._pending[:PARSE_STEP], self._pending[PARSE_STEP:]
        for message in self._parser.feed(chunk):
            self._process(message)
        if self._flooded():
            return
        loop = asyncio.get_running_loop()
        if self._pending:
            self._step = loop.call_soon(self._parse_step)
            return
        if self._tick is not None:
            self._tick.cancel()
        self._tick = loop.call_later(ESCAPE_TICK, self._tick_parser)

    def _flooded(self) -> bool:
        if not self._limit.flooding:
            return False
        if not self._flood_told:
            self._flood_told = True
            self.disable_input()
            if self.on_flood is not None:
                self.on_flood()
        return True

    def _tick_parser(self) -> None:
        self._tick = None
        for message in self._parser.tick():
            self._process(message)

    def _process(self, message: Any) -> None:
        # The seat's size is its SSH window's (``resize``); the client's terminal has no
        # say in-band (``ESC[48;H;W;...t``).
        if isinstance(message, events.Resize | messages.InBandWindowResize):
            return
        if not self._input or not self._limit.admit_event():
            return
        if self.muted and type(message) is events.MouseMove:
            return  # hovering over a shared view: nothing to hand on
        if self.fair is None:
            self._deliver(message)
        elif self.first:
            self._deliver(message)
            if type(message) is not events.MouseMove:  # a key, a click: the seats wait for it
                self.fair.hold(drawn(self._seat_app))
        else:
            self.fair.submit(self, message, lambda: self._deliver(message))

    def _deliver(self, message: Any) -> asyncio.Future[None] | None:
        if not self._input:
            return None
        moved = type(message) is events.MouseMove
        if not moved:
            self.delivered_at = time.monotonic()
        if self.muted and moved:
            return None  # hovering: still only watching
        if not moved and (self.muted or not self.typed):
            self.typed = True
            if self.on_input is not None:
                self.on_input()
        elif self.also and self.on_diverge is not None:
            self.on_diverge()  # the twins stop showing this screen before it changes
        self.process_message(message)
        return drawn(self._seat_app)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed size."""
        self._window = clamp_size(width, height)
        if self._input:
            self._send_size()

    def _send_size(self) -> None:
        size = Size(*self._window)
        self.send_message(events.Resize(size, size))
