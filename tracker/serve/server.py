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
import io
import logging
import os
import stat
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh
from rich.console import Console

from rules.text import inert
from tracker import storage, textual_internals
from tracker.defaults import config_folder
from tracker.serve import failure
from tracker.serve.admission import PasswordTries, Pending, TurnedAway
from tracker.serve.driver import ENTER_SCREEN, LEAVE_SCREEN
from tracker.serve.heap import Heap
from tracker.serve.limits import FLOODED, Fair, InputLimit, clamp_size
from tracker.serve.links import MAX_NAME
from tracker.serve.players import Player, Role, find
from tracker.serve.seats import Seat, Table
from tracker.serve.views import RESIZE_SETTLE, Channel, View, Views, view_key

# asyncssh logs to the root logger's last resort (stderr), which is the GM's screen.
logging.getLogger("asyncssh").addHandler(logging.NullHandler())
logging.getLogger("asyncssh").propagate = False
# What the server has to say about a seat (a flood, an error) goes to the GM's screen as a
# notice; `serve --headless` also writes it to stderr (tracker/serve/command.py).
LOG = logging.getLogger("tracker.serve")
LOG.addHandler(logging.NullHandler())
LOG.propagate = False

NO_TERMINAL = (
    "This is a combat tracker table: it needs a terminal.\r\n"
    "Connect with plain ssh (or ssh -t), without a command.\r\n"
)
SPECTATOR_NAMES = ("spectator", "watch", "watcher")
HOST_KEY_LIMIT = 64 * 1024  # bytes: any real private key is far smaller
FLOOD_COOLDOWN = 60.0  # seconds a flooding seat's key, or password address, may not sit again
CLOSE_AFTER = 1.0  # seconds between a seat's end and its connection's
WINDOW_CHANGES = 0.05  # seconds: a burst of window changes is applied once, at its end
HANG_UP = 0.2  # seconds between a flood's farewell and its connection's end
SESSION_WAIT = 5.0  # seconds a logged-in connection has to open its session (its seat)
KEY_NAME = "ssh_host_ed25519_key"


def default_host_key() -> Path:
    """Where the host key is kept: $TRACKER_HOST_KEY, else the user's config folder."""
    if os.environ.get("TRACKER_HOST_KEY"):
        return Path(os.environ["TRACKER_HOST_KEY"])
    # A key made before the platform's folders were used stays where it is: a new one would
    # make every player's ssh warn of a changed host.
    earlier = Path.home() / ".config" / "tracker" / KEY_NAME
    return earlier if earlier.exists() else config_folder() / KEY_NAME


def host_key(path: Path) -> tuple[asyncssh.SSHKey, str]:
    """The server's key, generated on the first start and kept, so clients see no change;
    with a line to show if something had to be said (the file was made private).

    A file that is no private key (a folder, garbage, empty, one with a passphrase) is
    refused with one line (``storage.SaveError``)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return new_host_key(path), ""
    except OSError as exc:
        raise storage.SaveError(path, f"cannot read the host key ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise storage.SaveError(path, "is not a host key file (a folder, or a special file)")
    if info.st_size > HOST_KEY_LIMIT:
        raise storage.SaveError(path, "is far too large to be a host key")
    note = ""
    if info.st_mode & 0o077:
        try:
            path.chmod(0o600)
        except OSError:
            raise storage.SaveError(
                path, "the host key is readable by others and cannot be made private: chmod 600"
            ) from None
        note = f"{path}: the host key was readable by others: made private (chmod 600)"
    try:
        data = path.read_bytes()
        key = asyncssh.import_private_key(data)
    except OSError as exc:
        raise storage.SaveError(path, f"cannot read the host key ({exc.strerror})") from None
    except (asyncssh.KeyImportError, ValueError) as exc:
        why = "it has a passphrase" if b"ENCRYPTED" in data or "assphrase" in str(exc) else exc
        raise storage.SaveError(path, f"is not a usable host key ({why})") from None
    return key, note


def new_host_key(path: Path) -> asyncssh.SSHKey:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="tracker table")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
    except OSError as exc:
        raise storage.SaveError(path, f"cannot write the host key ({exc.strerror})") from None
    return key


def door_of(player: Player, address: str) -> str:
    """Who is kept out for a while after a flood: a key's or a player link's name (the
    same person, wherever from), else the address (a password login, a spectator link)."""
    if player.key is not None:
        return f"key:{player.name.casefold()}"
    if player.link and player.role == "player":
        return f"link:{player.name.casefold()}"
    return address


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
    login_timeout: float = 10
    saves: Path = Path("saves")
    # Connections that have not logged in: their own pool (tracker/serve/admission.py).
    max_pending: int = 32
    pending_per_address: int = 8
    # Browsers one join link may seat at once (a player's link seats one: its holder).
    link_seats: int = 8
    # Wrong table passwords, per address: the growing wait, and the lockout.
    password_delay: float = 0.5
    password_lock_after: int = 8
    password_lockout: float = 300


class TableServer:
    """Serves ``table`` over SSH until closed."""

    def __init__(self, table: Table, config: Config) -> None:
        textual_internals.check_serving()  # a wrong Textual fails here, not at a seat
        self.key, self.key_note = host_key(config.host_key)  # a bad one: one line, first
        self.table = table
        self.config = config
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
        self.heap = Heap()
        self.views = Views(
            table, config.saves, heap=self.heap, ended=self._unviewed, failed=self.say
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


class Connection(asyncssh.SSHServer):
    """One SSH connection: its authentication and its one seat.

    Until it has logged in and opened its session it waits in the server's pending pool
    and is no seat; then it counts against ``max_seats``. Logged in, it has
    ``SESSION_WAIT`` seconds to open its session."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        self.player: Player | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.began = False  # the client asked to log in
        self.logged_in = False
        self.channel: SeatChannel | None = None
        self._session_wait: asyncio.TimerHandle | None = None

    def progress(self) -> int:
        if self.began:
            return 3 if self.logged_in else 2
        return int(self.conn is not None and bool(self.conn.get_extra_info("client_version")))

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        evicted = self.server.pending.admit(self)
        if evicted is not None:
            evicted.drop("Too many connections are logging in: try again.")
            self.server.turn_away(evicted.address, "too many logging in (the least advanced)")

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.pending.leave(self)
        self.server.connections.discard(self)
        if self._session_wait is not None:
            self._session_wait.cancel()

    def drop(self, message: str) -> None:
        """Close this connection (and its seat), telling the client why."""
        self.server.pending.leave(self)
        self.server.connections.discard(self)
        if self.channel is not None:
            self.channel.close_with(message)
        elif self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, message)

    def begin_auth(self, username: str) -> bool:
        self.began = True
        return True

    def auth_completed(self) -> None:
        # Still no seat: it waits in the pool until it opens its session, for a while.
        self.logged_in = True
        self._session_wait = asyncio.get_running_loop().call_later(SESSION_WAIT, self._no_session)

    def _no_session(self) -> None:
        self._session_wait = None
        if self.channel is None:
            self.drop("Closed: no session was opened.")
            self.server.turn_away(self.address, "logged in but opened no session")

    def _sit_down(self) -> str:
        """Take a seat (the session was asked for): why not, if it may not ('')."""
        server = self.server
        player = self.player
        assert player is not None
        refusal = server.refusal(player, self.address)
        if refusal:
            return refusal
        if player.role == "spectator":
            self.player = Player(player.role, server.free_name(player.name), player.key)
        elif player.key is None:
            if server.name_taken(player.name):  # taken while this login was answered
                return f"{player.name} is already at the table."
        else:
            # The same key (the same person) sat down again: the old seat gives way.
            server.give_way(player.name)
        server.pending.leave(self)
        server.connections.add(self)
        return ""

    def public_key_auth_supported(self) -> bool:
        return any(p.key is not None for p in self.server.config.players)

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.player = find(self.server.config.players, key)
        return self.player is not None

    def password_auth_supported(self) -> bool:
        return self.server.config.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        server = self.server
        expected = server.config.password
        tries = server.tries
        address = self.address
        if expected is None or tries.locked(address):
            return False
        problem = server.password_name_problem(username)
        if problem:
            if self.conn is not None:
                self.conn.send_auth_banner(problem + "\r\n")
            return False
        shown = repr(username[:MAX_NAME])
        wait = tries.wait(address)
        if tries.locked(address):
            server.say(
                f"{address} may not try the table password for {tries.lockout / 60:.0f} min:"
                f" {tries.wrong(address)} wrong tries (the last as {shown})"
            )
        right = False
        try:
            await asyncio.sleep(wait)  # a newer try from the client cancels this one
            right = hmac.compare_digest(password.encode(), expected.encode())
        finally:
            if right:
                tries.right(address)
            elif not tries.locked(address):
                server.say(
                    f"Wrong table password as {shown} from {address}"
                    f" ({tries.wrong(address)} wrong; the next answer waits"
                    f" {tries.wait_after(address):.1f} s)"
                )
        if not right:
            return False
        # A password seat has no key: its login is its name, and says if it only watches.
        role: Role = "spectator" if username.casefold() in SPECTATOR_NAMES else "player"
        self.player = Player(role, username, None)
        return True

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> SeatChannel | bool:
        # One seat a connection: seats are counted by connections.
        if not self.logged_in or self.player is None or self.channel is not None:
            return False
        refusal = self._sit_down()
        if refusal:
            self.drop(refusal)
            self.server.turn_away(self.address, refusal.rstrip("."))
            return False
        self.channel = SeatChannel(self.server, self.player, self.peer, self)
        return self.channel

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

    def __init__(
        self, server: TableServer, player: Player, peer: str, owner: Connection | None = None
    ) -> None:
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
        self._errors = io.StringIO()  # a seat's app's traceback, never the server's stderr

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
        from tracker.serve.app import TableApp

        player = self.player
        table = self.server.table
        self.seat = table.join(player.role, player.name, self.peer, close=self.close_with)
        self.app = TableApp(table, self.seat, saves=self.server.config.saves)
        self.app.error_console = Console(file=self._errors, width=100, markup=False)
        colours = color_system(self.term, self.chan.get_environment())
        textual_internals.use_colours(self.app.console, colours)  # the client's, not ours
        fair = None if player.role == "gm" else self.server.fair  # the GM's keys go first
        self.app.draw_on(
            self.chan, muted=True, on_input=self._typed, on_flood=self._flooded, fair=fair
        )
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
        owner = self.owner
        if owner is not None and owner.conn is not None:
            # Each packet it sends still costs the loop its decryption, however little is
            # done with it: the connection goes soon, whether or not the app has closed.
            asyncio.get_running_loop().call_later(HANG_UP, self._hang_up, owner.conn)

    def _hang_up(self, conn: asyncssh.SSHServerConnection) -> None:
        if self.chan is not None and not self.chan.is_closing():  # no farewell yet
            self.chan.write(LEAVE_SCREEN + FLOODED + "\r\n")
        conn.disconnect(asyncssh.DISC_BY_APPLICATION, FLOODED)

    def _ended(self) -> None:
        self._cancel_settle()
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
            if self._farewell:
                chan.write(self._farewell + "\r\n")
            chan.exit(0)
        owner = self.owner
        if owner is not None and owner.conn is not None:
            # The seat is gone: so is its connection (a client that keeps it open would
            # still count against the seats), once the farewell is on its way.
            asyncio.get_running_loop().call_later(CLOSE_AFTER, owner.conn.close)

    def seat_last_input(self) -> float:
        return self.seat.last_input if self.seat is not None else time.monotonic()

    def data_received(self, data: str, datatype: Any) -> None:
        if self.seat is not None:
            self.seat.last_input = time.monotonic()
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
        if self.app is not None and self.task is not None and not self.task.done():
            with contextlib.suppress(Exception):
                self.app.exit()
        elif self.chan is not None and not self.chan.is_closing():
            if message:
                self.chan.write(message + "\r\n")
            self.chan.exit(0)
