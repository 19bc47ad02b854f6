"""The SSH server: who may sit at the table, and one Textual app per seat on its channel.

One process, one asyncio loop: every seat's app runs on this loop with a ``ChannelDriver``
and shares the table's one ``EncounterSession``. Seats that only watch are drawn by shared
views (tracker/serve/views.py) until their first key. Only interactive sessions with a
terminal are served: no exec, no subsystem (SFTP), no port forwarding, no agent or X11.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from typing import Any

import asyncssh

from rules.text import inert
from tracker.serve import failure
from tracker.serve.admission import PasswordTries, Pending, TurnedAway
from tracker.serve.channel import SeatChannel
from tracker.serve.config import Config, host_key
from tracker.serve.connection import SPECTATOR_NAMES, Connection
from tracker.serve.driver import Channel, drawn
from tracker.serve.heap import Heap
from tracker.serve.limits import Fair
from tracker.serve.links import MAX_NAME
from tracker.serve.players import Player
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.serve.views import Views
from tracker.terminal import textual_internals

# asyncssh logs to the root logger's last resort (stderr), which is the GM's screen.
logging.getLogger("asyncssh").addHandler(logging.NullHandler())
logging.getLogger("asyncssh").propagate = False
# What the server has to say about a seat (a flood, an error) goes to the GM's screen as a
# notice; `serve --headless` also writes it to stderr (tracker/serve/command.py).
LOG = logging.getLogger("tracker.serve")
LOG.addHandler(logging.NullHandler())
LOG.propagate = False

# Every key a seat types is one packet, decrypted on the loop that draws every seat:
# asyncssh's ChaCha20-Poly1305 takes about 100 us a packet, AES about 13 us (GCM, which
# asyncssh's clients then pick) to 22 us (CTR with UMAC, which OpenSSH's `ssh` picks). A
# client takes the first cipher on its own list that the server offers, and both lists
# begin with ChaCha20: it is not offered.
CIPHERS = "-chacha20-poly1305@openssh.com"  # asyncssh's defaults, less it
FLOOD_COOLDOWN = 60.0  # seconds a flooding seat's key, or password address, may not sit again


def door_of(player: Player, address: str) -> str:
    """Who is kept out for a while after a flood: a key's or a player link's name (the
    same person, wherever from), else the address (a password login, a spectator link)."""
    if player.key is not None:
        return f"key:{player.name.casefold()}"
    if player.link and player.role == "player":
        return f"link:{player.name.casefold()}"
    return address


class TableServer:
    """Serves ``table`` over SSH until closed."""

    def __init__(self, table: Table, config: Config) -> None:
        textual_internals.check_serving()  # a wrong Textual fails here, not at a seat
        self.key, self.key_note = host_key(config.host_key)  # a bad one: one line, first
        self.table = table
        self.config = config
        table.expected = [p.name for p in config.players if p.role == "player"]
        self.connections: set[Connection] = set()  # logged in: each may hold a seat
        self.pending: Pending[Connection] = Pending(config.max_pending, config.pending_per_address)
        # Who flooded (a key's name, a password login's address) -> until when they may not
        # sit down again: each new seat costs the loop a whole app, so no quick come-backs.
        self.cooldown: dict[str, float] = {}
        self.tries = PasswordTries(
            delay=config.password_delay,
            lock_after=config.password_lock_after,
            lockout=config.password_lockout,
        )
        self.turned_away = TurnedAway()
        self.fair = Fair()  # the seats' input, the GM's aside: the table's budget
        self._report: asyncio.TimerHandle | None = None
        self.channels: set[SeatChannel] = set()
        # Seats in a browser (tracker/serve/web.py): they count against ``max_seats`` too.
        self.web_seats: set[SeatChannel] = set()
        self._server: asyncssh.SSHAcceptor | None = None
        self._reaper: asyncio.Task[None] | None = None
        self._loop_handler: Any = None  # the loop's exception handler before the table's
        self.heap = Heap(busy=self.fair.busy)  # no full collection while seats type
        self.views = Views(
            table,
            config.saves,
            heap=self.heap,
            ended=self._unviewed,
            failed=self.say,
            starting=self._view_starting,
        )
        self._unwatch = table.watch(self._assignments)
        # Each seat's app redirects stdout/stderr while it runs; they are put back to these
        # when a seat ends, so nothing points at a finished seat's capture.
        self._streams = (sys.stdout, sys.stderr)

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.get_port()

    @property
    def fingerprint(self) -> str:
        return self.key.get_fingerprint()

    async def start(self) -> None:
        self._streams = (sys.stdout, sys.stderr)
        self._server = await asyncssh.create_server(
            lambda: Connection(self),
            self.config.host,
            self.config.port,
            server_host_keys=[self.key],
            encryption_algs=CIPHERS,
            login_timeout=self.config.login_timeout,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            encoding="utf-8",
            line_editor=False,  # keys go straight to the app, not line by line
            keepalive_interval=60,
        )
        self._reaper = asyncio.create_task(self._reap_idle())
        loop = asyncio.get_running_loop()
        self._loop_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """A callback or a forgotten task on the table's loop failed: one line for the GM,
        where asyncio would print a traceback on the GM's screen."""
        error = context.get("exception")
        if isinstance(error, BaseException):
            self.say(f"An error on the table's loop: {failure.one_line(error)}")
        else:
            LOG.warning("%s", inert(str(context.get("message", "?")))[:300])

    def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        if self._report is not None:
            self._report.cancel()
        if self._server is not None:
            with contextlib.suppress(RuntimeError):  # no loop running: nothing to put back
                asyncio.get_running_loop().set_exception_handler(self._loop_handler)
        self._unwatch()
        self.heap.close()
        self.fair.close()
        for channel in list(self.channels):
            channel.close_with("The table is closing.")
        self.views.close()
        if self._server is not None:
            self._server.close()

    def _assignments(self, news: str) -> None:
        """Combatants were assigned (or seats came and went): a player may see another view."""
        for channel in list(self.channels):
            channel.rewatch()

    def _view_starting(self, app: TableApp) -> None:
        self.fair.hold(drawn(app))  # a newcomer's view goes before the seats' input

    def _unviewed(self, channels: list[Channel]) -> None:
        self.restore_streams()  # the view's app had redirected them while it ran
        for channel in channels:
            if isinstance(channel, SeatChannel):
                channel.draw_own()

    async def wait_closed(self) -> None:
        if self._server is not None:
            await self._server.wait_closed()

    async def _reap_idle(self) -> None:
        limit = self.config.idle_timeout
        while True:
            await asyncio.sleep(max(min(limit / 4, 30), 0.05))
            now = time.monotonic()
            for channel in list(self.channels):
                if now - channel.seat_last_input() > limit:
                    channel.close_with("Closed after being idle too long.")

    def restore_streams(self) -> None:
        sys.stdout, sys.stderr = self._streams

    def say(self, line: str) -> None:
        """Something the GM should know about a seat or the door: a notice, and the log."""
        LOG.warning(line)
        self.table.notice(line)

    def turn_away(self, address: str, why: str) -> None:
        """A connection was turned away at the door: the GM is told, a few lines at a time."""
        due = self.turned_away.add(address, why)
        if self._report is None:
            self._report = asyncio.get_running_loop().call_later(due, self._tell_turned_away)

    def _tell_turned_away(self) -> None:
        self._report = None
        for line in self.turned_away.report():
            self.say(line)

    def refusal(self, player: Player, address: str) -> str:
        """Why ``player`` may not sit down now ('' if they may). A named player (a key or a
        player's link: one seat each) is never kept out by a table full of others."""
        named = player.role != "spectator" and (player.key is not None or player.link)
        if not named and self.seated() >= self.config.max_seats:
            return "The table is full."
        if self.cooling(player, address):
            return f"Closed for flooding: wait {FLOOD_COOLDOWN:.0f} s before sitting again."
        return ""

    def flooded(self, channel: SeatChannel) -> None:
        self.cooldown[door_of(channel.player, channel.address)] = time.monotonic() + FLOOD_COOLDOWN

    def cooling(self, player: Player, address: str) -> bool:
        now = time.monotonic()
        for who, until in list(self.cooldown.items()):
            if until <= now:
                del self.cooldown[who]
        return door_of(player, address) in self.cooldown

    def seated(self) -> int:
        """Seats taken: SSH connections logged in, and browsers."""
        return len(self.connections) + len(self.web_seats)

    def give_way(self, name: str) -> None:
        """The holder of ``name`` (a key or a link) sat down again: the old seat closes."""
        message = "You sat down at the table again from another connection."
        if (other := self.holder(name)) is not None:
            other.drop(message)
        folded = name.casefold()
        for channel in list(self.web_seats):
            if channel.seat is not None and channel.seat.name.casefold() == folded:
                channel.close_with(message)

    # --- names: a seat's name is its identity ---

    def holder(self, name: str) -> Connection | None:
        folded = name.casefold()
        return next(
            (c for c in self.connections if c.player and c.player.name.casefold() == folded),
            None,
        )

    def name_taken(self, name: str) -> bool:
        return self.holder(name) is not None or self.table.named(name) is not None

    def free_name(self, name: str) -> str:
        """``name``, numbered if a seat has it already (spectators share no name either)."""
        number = 1
        free = name
        while self.name_taken(free):
            number += 1
            free = f"{name} {number}"
        return free

    def password_name_problem(self, name: str) -> str:
        """Why a password login may not sit down under ``name`` ('' if it may)."""
        if not 0 < len(name) <= MAX_NAME or not name.isprintable():
            return f"Log in with your name: 1 to {MAX_NAME} printable characters."
        folded = name.casefold()
        if folded in SPECTATOR_NAMES:
            return ""
        keyed = {p.name.casefold() for p in self.config.players}
        keyed |= {link.name.casefold() for link in self.table.links}
        if folded == "gm" or folded in keyed:
            return f"{name} is a seat for a key or a link; log in under another name."
        if self.name_taken(name):
            return f"{name} is already at the table; log in under another name."
        return ""
