"""The SSH server: who may sit at the table, and one Textual app per seat on its channel.

One process, one asyncio loop: every seat's app runs on this loop with a ``ChannelDriver``
and shares the table's one ``EncounterSession``. Seats that only watch are drawn by shared
views (tracker/serve/views.py) until their first key. Only interactive sessions with a
terminal are served: no exec, no subsystem (SFTP), no port forwarding, no agent or X11.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from tracker import textual_internals
from tracker.defaults import config_folder
from tracker.serve.driver import ENTER_SCREEN
from tracker.serve.heap import Heap
from tracker.serve.players import Player, Role, find
from tracker.serve.seats import Seat, Table
from tracker.serve.views import RESIZE_SETTLE, Channel, View, Views, view_key

# asyncssh logs to the root logger's last resort (stderr), which is the GM's screen.
logging.getLogger("asyncssh").addHandler(logging.NullHandler())
logging.getLogger("asyncssh").propagate = False

NO_TERMINAL = (
    "This is a combat tracker table: it needs a terminal.\r\n"
    "Connect with plain ssh (or ssh -t), without a command.\r\n"
)
SPECTATOR_NAMES = ("spectator", "watch", "watcher")
KEY_NAME = "ssh_host_ed25519_key"


def default_host_key() -> Path:
    """Where the host key is kept: $TRACKER_HOST_KEY, else the user's config folder."""
    if os.environ.get("TRACKER_HOST_KEY"):
        return Path(os.environ["TRACKER_HOST_KEY"])
    # A key made before the platform's folders were used stays where it is: a new one would
    # make every player's ssh warn of a changed host.
    earlier = Path.home() / ".config" / "tracker" / KEY_NAME
    return earlier if earlier.exists() else config_folder() / KEY_NAME


def host_key(path: Path) -> asyncssh.SSHKey:
    """The server's key, generated on the first start and kept, so clients see no change."""
    if path.exists():
        return asyncssh.read_private_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="tracker table")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key


def color_system(term: str, env: Mapping[str, str]) -> str:
    """The colours the client's terminal shows, from its TERM and COLORTERM."""
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    if "256color" in term or "kitty" in term or "direct" in term:
        return "256"
    return "standard"


@dataclass
class Config:
    host: str = "127.0.0.1"
    port: int = 2222
    players: list[Player] = field(default_factory=list)
    password: str | None = None
    host_key: Path = field(default_factory=default_host_key)
    max_seats: int = 64
    idle_timeout: float = 30 * 60
    login_timeout: float = 30
    saves: Path = Path("saves")


class TableServer:
    """Serves ``table`` over SSH until closed."""

    def __init__(self, table: Table, config: Config) -> None:
        textual_internals.check_serving()  # a wrong Textual fails here, not at a seat
        self.table = table
        self.config = config
        self.connections: set[Connection] = set()
        self.channels: set[SeatChannel] = set()
        self._server: asyncssh.SSHAcceptor | None = None
        self._reaper: asyncio.Task[None] | None = None
        self.heap = Heap()
        self.views = Views(table, config.saves, heap=self.heap, ended=self._unviewed)
        self._unwatch = table.watch(self._assignments)
        self.key = host_key(config.host_key)
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
            login_timeout=self.config.login_timeout,
            allow_scp=False,
            agent_forwarding=False,
            x11_forwarding=False,
            encoding="utf-8",
            line_editor=False,  # keys go straight to the app, not line by line
            keepalive_interval=60,
        )
        self._reaper = asyncio.create_task(self._reap_idle())

    def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        self._unwatch()
        self.heap.close()
        for channel in list(self.channels):
            channel.close_with("The table is closing.")
        self.views.close()
        if self._server is not None:
            self._server.close()

    def _assignments(self, news: str) -> None:
        """Combatants were assigned (or seats came and went): a player may see another view."""
        for channel in list(self.channels):
            channel.rewatch()

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


class Connection(asyncssh.SSHServer):
    """One SSH connection: its authentication and its sessions."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.player: Player | None = None
        self.conn: asyncssh.SSHServerConnection | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        if len(self.server.connections) >= self.server.config.max_seats:
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, "The table is full")
            return
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)

    def begin_auth(self, username: str) -> bool:
        return True

    def public_key_auth_supported(self) -> bool:
        return bool(self.server.config.players)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.player = find(self.server.config.players, key)
        return self.player is not None

    def password_auth_supported(self) -> bool:
        return self.server.config.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        expected = self.server.config.password
        if expected is None or not hmac.compare_digest(password.encode(), expected.encode()):
            return False
        # A password seat has no key: its login is its name, and says if it only watches.
        role: Role = "spectator" if username.lower() in SPECTATOR_NAMES else "player"
        self.player = Player(role, username, None)
        return True

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> SeatChannel | bool:
        if self.player is None:
            return False
        return SeatChannel(self.server, self.player, self.peer)

    @property
    def peer(self) -> str:
        if self.conn is None:
            return "?"
        address = self.conn.get_extra_info("peername")
        return f"{address[0]}:{address[1]}" if address else "?"

    # Port forwarding of any kind is refused.
    def connection_requested(self, *args: Any) -> bool:
        return False

    def unix_connection_requested(self, *args: Any) -> bool:
        return False

    def server_requested(self, *args: Any) -> bool:
        return False

    def unix_server_requested(self, *args: Any) -> bool:
        return False


class SeatChannel(asyncssh.SSHServerSession[str]):
    """One session channel: a seat at the table, its app drawn on the channel."""

    def __init__(self, server: TableServer, player: Player, peer: str) -> None:
        self.server = server
        self.player = player
        self.peer = peer
        self.chan: asyncssh.SSHServerChannel[str] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.seat: Seat | None = None
        self.app: Any = None
        self.task: asyncio.Task[None] | None = None
        self._farewell = ""
        # Until its first key the seat only watches: a shared view draws it, its own app
        # muted (see tracker/serve/views.py).
        self.typed = False
        self.view: View | None = None
        self._settle: asyncio.TimerHandle | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[str]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any
    ) -> bool:
        self.term = term_type or "xterm"
        width, height = term_size[:2]
        self.size = (width or 80, height or 24)
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
        from tracker.serve.app import TableApp

        player = self.player
        table = self.server.table
        self.seat = table.join(player.role, player.name, self.peer, close=self.close_with)
        self.app = TableApp(table, self.seat, saves=self.server.config.saves)
        colours = color_system(self.term, self.chan.get_environment())
        textual_internals.use_colours(self.app.console, colours)  # the client's, not ours
        self.app.draw_on(self.chan, muted=True, on_input=self._typed)
        self.chan.write(ENTER_SCREEN)  # whichever app draws it, from now on
        self.server.channels.add(self)
        self.server.heap.changed()
        self._watch()
        self.task = asyncio.create_task(self._run())

    # --- who draws the seat: a shared view, or its own app ---

    def write(self, data: str) -> None:
        """A shared view's frame (the seat is a ``Channel`` for ``Fanout``)."""
        if self.chan is not None and not self.chan.is_closing():
            self.chan.write(data)

    def is_closing(self) -> bool:
        return self.chan is None or self.chan.is_closing()

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
        if self.view is None or self.seat is None:
            return
        if view_key(self.server.table, self.seat, self.app, self.size) != self.view.key:
            self._leave_view()
            self._watch()

    def draw_own(self) -> None:
        """The seat's own app draws it from now on, starting with a whole frame."""
        if self.view is not None:
            self._leave_view()
            self.app.unmute()
            self.server.heap.changed()  # its app lays out and draws again: new long-lived objects

    def _typed(self) -> None:
        """The first key, click or paste: the seat is no longer only watching."""
        self.typed = True
        self._cancel_settle()
        self.draw_own()

    def _cancel_settle(self) -> None:
        if self._settle is not None:
            self._settle.cancel()
            self._settle = None

    def _settled(self) -> None:
        self._settle = None
        if not self.typed and self.seat is not None and self.seat.id in self.server.table.seats:
            self._watch()

    async def _run(self) -> None:
        try:
            await self.app.run_async(size=self.size)
        finally:
            self.server.restore_streams()
            self._ended()

    def _ended(self) -> None:
        self._cancel_settle()
        self._leave_view()
        self.server.channels.discard(self)
        self.server.heap.changed(ended=True)
        if self.seat is not None:
            self.server.table.leave(self.seat)
        chan = self.chan
        if chan is not None and not chan.is_closing():
            if self._farewell:
                chan.write(self._farewell + "\r\n")
            chan.exit(0)

    def seat_last_input(self) -> float:
        return self.seat.last_input if self.seat is not None else time.monotonic()

    def data_received(self, data: str, datatype: Any) -> None:
        if self.seat is not None:
            self.seat.last_input = time.monotonic()
        driver = self.app.channel_driver if self.app is not None else None
        if driver is not None:
            driver.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width or 80, height or 24)
        driver = self.app.channel_driver if self.app is not None else None
        if driver is not None:
            driver.resize(*self.size)
        if self.app is not None and not self.typed:
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
        if self.app is not None and self.task is not None and not self.task.done():
            with contextlib.suppress(Exception):
                self.app.exit()
        elif self.chan is not None and not self.chan.is_closing():
            if message:
                self.chan.write(message + "\r\n")
            self.chan.exit(0)
