"""One SSH connection: its login (a key, or the table password under a name), then its one
seat; it waits in the pending pool until it has logged in and opened its session."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Callable
from typing import Any, Protocol

import asyncssh

from rules.visibility import Role
from tracker.serve.admission import PasswordTries, Pending
from tracker.serve.channel import Host, SeatChannel
from tracker.serve.links import MAX_NAME
from tracker.serve.players import Player, find

SPECTATOR_NAMES = ("spectator", "watch", "watcher")
SESSION_WAIT = 5.0  # seconds a logged-in connection has to open its session (its seat)


class Door(Host, Protocol):
    """What a connection asks of the server at its door (tracker/serve/server.py)."""

    pending: Pending[Connection]
    connections: set[Connection]
    tries: PasswordTries

    def turn_away(self, address: str, why: str) -> None: ...
    def refusal(self, player: Player, address: str) -> str: ...
    def free_name(self, name: str) -> str: ...
    def name_taken(self, name: str) -> bool: ...
    def give_way(self, name: str) -> None: ...
    def password_name_problem(self, name: str) -> str: ...


class Connection(asyncssh.SSHServer):
    """One SSH connection: its authentication and its one seat.

    Until it has logged in and opened its session it waits in the server's pending pool
    and is no seat; then it counts against ``max_seats``. Logged in, it has
    ``SESSION_WAIT`` seconds to open its session, and goes ahead of the other seats' input
    until its seat's app takes over (``seated``): each step of a login waits a turn of the
    loop, which forty busy seats' work would make long."""

    def __init__(self, server: Door) -> None:
        self.server = server
        self.player: Player | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.began = False  # the client asked to log in
        self.logged_in = False
        self.channel: SeatChannel | None = None
        self._session_wait: asyncio.TimerHandle | None = None
        self._ahead: Callable[[], None] | None = None  # releases its hold on the seats' input

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
        self.seated()
        if self._session_wait is not None:
            self._session_wait.cancel()

    def drop(self, message: str) -> None:
        """Close this connection (and its seat), telling the client why."""
        self.seated()
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
        # Only once it has proved who it is (a stranger could hold the seats up at will).
        self._ahead = self.server.fair.hold()

    def seated(self) -> None:
        """Its seat's app holds the seats' input from now on (or it has gone): the login's
        hold is released."""
        if self._ahead is not None:
            self._ahead()
            self._ahead = None

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
