"""Fair admission: connections that have not logged in, password guessing, and names."""

from __future__ import annotations

import asyncio
import contextlib
import re
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest

from tests.serve.attacks import Stall, after_key_exchange, banner_only, crowd
from tests.serve.serve_helpers import LIMIT, Client, Served, serve, until
from tracker.serve.admission import PasswordTries, Pending, TurnedAway

PASSWORD = "open sesame"


@pytest.fixture
async def served(tmp_path: Path):
    served = await serve(
        tmp_path,
        password=PASSWORD,
        login_timeout=20.0,  # short, yet long enough for a login at a load average of 20
        password_delay=0.02,
        password_lock_after=4,
    )
    yield served
    served.server.close()
    await served.server.wait_closed()


async def login(served: Served, name: str, password: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        served.port,
        username=name,
        password=password,
        client_keys=None,
        known_hosts=None,
    )


@dataclass(eq=False)
class Knock:
    address: str
    stage: int = 0

    def progress(self) -> int:
        return self.stage


def test_the_pending_pool_makes_room_with_the_least_advanced_and_oldest() -> None:
    now = [0.0]
    pool: Pending[Knock] = Pending(size=4, per_address=2, clock=lambda: now[0])

    def knock(address: str, stage: int = 0) -> tuple[Knock, Knock | None]:
        now[0] += 1
        newcomer = Knock(address, stage)
        return newcomer, pool.admit(newcomer)

    knock("10.0.0.1", stage=1)
    bare, _ = knock("10.0.0.1")
    assert knock("10.0.0.1")[1] is bare  # the bare one makes room, not the client
    # Stalled at any stage, the least advanced and oldest give way: a newcomer always
    # gets in (it passes the stages in a moment; the stalled stay where they are).
    pool.waiting.clear()
    banners = [knock(f"10.0.0.{n}", stage=1)[0] for n in range(1, 5)]
    late, evicted = knock("10.0.0.9")
    assert evicted is banners[0]
    assert knock("10.0.0.8", stage=3)[1] is late  # it sent nothing yet: it goes first
    assert knock("10.0.0.7", stage=2)[1] is banners[1]
    assert len(pool.waiting) == 4


def test_turned_away_connections_are_told_a_few_lines_at_a_time() -> None:
    now = [100.0]
    turned = TurnedAway(every=5, shown=2, clock=lambda: now[0])
    assert turned.add("10.0.0.1", "too many logging in") == 0  # the first is told at once
    assert turned.report() == ["Turned away 1 connection from 10.0.0.1: too many logging in"]
    for address in ["10.0.0.1"] * 30 + ["10.0.0.2"] * 3 + ["10.0.0.3", "10.0.0.4"]:
        due = turned.add(address, "too many logging in")
    assert due == 5  # the rest wait for the next report, counted
    now[0] += 5
    assert turned.report() == [
        "Turned away 30 connections from 10.0.0.1: too many logging in",
        "Turned away 3 connections from 10.0.0.2: too many logging in",
        "Turned away 2 more connections",
    ]


def test_wrong_passwords_wait_longer_each_time_then_lock_the_address() -> None:
    now = [0.0]
    tries = PasswordTries(delay=0.5, max_delay=4, lock_after=6, lockout=60, clock=lambda: now[0])
    waits = [tries.wait("10.0.0.1") for _ in range(5)]
    assert waits == [0, 0.5, 1, 2, 4]
    assert tries.wait("10.0.0.2") == 0  # another address: its own count
    assert not tries.locked("10.0.0.1")
    tries.wait("10.0.0.1")
    assert tries.locked("10.0.0.1") == 60
    now[0] += 61
    assert not tries.locked("10.0.0.1") and tries.wait("10.0.0.1") == 0
    tries.right("10.0.0.1")
    assert tries.wrong("10.0.0.1") == 0


async def test_bare_connections_never_keep_a_player_out(served: Served) -> None:
    held: list[asyncio.StreamWriter] = []
    stop = asyncio.Event()

    async def hold(address: str) -> None:
        # Bare TCP connections from another address, reopened as soon as they are dropped.
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", served.port, local_addr=(address, 0)
                )
            except OSError:  # the listen queue overflowed: knock again
                await asyncio.sleep(0.01)
                continue
            held.append(writer)
            with contextlib.suppress(OSError):
                await reader.read()

    crowd = [asyncio.create_task(hold("127.0.0.2")) for _ in range(70)]
    await until(lambda: len(held) >= 70)
    pending = served.server.pending.waiting
    assert sum(k.address == "127.0.0.2" for k in pending) <= 8  # its share of the pool
    alice = await Client.join(served, "alice")  # a keyed player still sits down
    assert alice.seat is not None
    stop.set()
    for task in crowd:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    for writer in held:
        writer.close()
    # From the player's own address too: held bare connections give way to a real client.
    held.clear()
    for _ in range(40):
        _, writer = await asyncio.open_connection("127.0.0.1", served.port)
        held.append(writer)
    bob = await Client.join(served, "bob")
    assert bob.seat is not None
    assert len(served.server.pending.waiting) <= served.server.config.max_pending
    for writer in held:
        writer.close()
    await alice.close()
    await bob.close()


async def test_a_connection_that_does_not_log_in_is_closed(tmp_path: Path) -> None:
    # A timeout of its own: nobody logs in here, and the module's 20 s (for logins under
    # load) would be 20 s asleep.
    served = await serve(tmp_path, password=PASSWORD, login_timeout=2.0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
        await until(lambda: served.server.pending.waiting)
        assert not served.table.seats and not served.server.connections  # waiting: no seat
        assert await asyncio.wait_for(reader.read(), LIMIT) is not None  # closed by the server
        await until(lambda: not served.server.pending.waiting)
        writer.close()
    finally:
        served.server.close()
        await served.server.wait_closed()


async def test_password_guessing_is_slowed_locked_out_and_told(served: Served) -> None:
    gm = await Client.join(served, "gm")
    for guess in ("guess1", "guess2", "guess3"):
        with pytest.raises(asyncssh.PermissionDenied):
            await login(served, "Mallory", guess)
    tries = served.server.tries
    assert tries.wrong("127.0.0.1") == 3 and tries.wait_after("127.0.0.1") > 0
    # The notice wraps in the toast (as wide as the consequences pane): its words, in order.
    await until(lambda: re.search(r"Wrong table\s.*password as\s.*'Mallory'", gm.text(), re.S))
    with pytest.raises(asyncssh.PermissionDenied):
        await login(served, "Mallory", "guess4")  # the fourth: locked out
    assert tries.locked("127.0.0.1")
    assert any("may not try the table password" in n for n in served.table.notices)
    # Locked out, even the right password is refused (it is not even compared).
    with pytest.raises(asyncssh.PermissionDenied):
        await login(served, "Carol", PASSWORD)
    # A key still sits down from the same address.
    alice = await Client.join(served, "alice")
    # The GM sees the lockout in the seats dialog.
    gm.type("w")
    await until(lambda: "may not try the table password" in gm.text())
    await alice.close()
    await gm.close()


async def test_a_password_login_cannot_take_a_keys_name(served: Served) -> None:
    for name in ("Alice", "alice", "GM"):
        with pytest.raises(asyncssh.PermissionDenied):
            await login(served, name, PASSWORD)
    assert served.server.tries.wrong("127.0.0.1") == 0  # refused by name, not counted
    with pytest.raises(asyncssh.PermissionDenied):
        await login(served, "x" * 40, PASSWORD)  # no name that long


async def test_two_seats_never_share_a_name(served: Served) -> None:
    carol = await Client.join(served, "Carol", password=PASSWORD, wait=False)
    await until(lambda: served.table.named("Carol") is not None)
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.Error)):
        await login(served, "carol", PASSWORD)
    # Spectators by password are numbered.
    watchers = [await Client.join(served, "spectator", password=PASSWORD) for _ in range(2)]
    names = sorted(s.name for s in served.table.seats.values() if s.role == "spectator")
    assert names == ["spectator", "spectator 2"]
    # The same key sitting down again takes its seat back: the old one is closed.
    first = await Client.join(served, "alice")
    old = first.seat
    second = await Client.join(served, "alice")
    await until(lambda: old is not None and old.id not in served.table.seats)
    await until(lambda: "again from another connection" in first.output)
    assert [s.name for s in served.table.seats.values()].count("Alice") == 1
    for client in (carol, *watchers, first, second):
        await client.close()


@pytest.mark.parametrize("stall", [banner_only, after_key_exchange])
async def test_stalled_handshakes_never_keep_a_player_out(served: Served, stall: Stall) -> None:
    pool = served.server.pending
    async with crowd(served.port, stall, addresses=4, each=8):  # the whole pool, 8 an address
        await until(lambda: len(pool.waiting) >= pool.size)
        if stall is after_key_exchange:  # each of them asked to log in
            await until(lambda: all(k.progress() == 2 for k in pool.waiting))
        for _ in range(3):  # from a fifth address, a key holder gets in every time
            alice = await Client.join(served, "alice")
            assert alice.seat is not None
            await alice.close()
    # The GM is told who was turned away (in a few lines, not one a connection).
    await until(lambda: any("Turned away" in n for n in served.table.notices))
    assert any("from 127.0.0." in n and "logging in" in n for n in served.table.notices)


async def test_a_login_that_opens_no_session_is_no_seat_and_is_closed(tmp_path: Path) -> None:
    served = await serve(tmp_path, password=PASSWORD, password_delay=0.02, max_seats=2)
    try:
        gm = await Client.join(served, "gm")  # the GM's own key: never kept out either
        idle = [await login(served, f"Idle{n}", PASSWORD) for n in range(3)]
        # Logged in, no session: they hold no seat, so a spectator still sits down.
        watcher = await Client.join(served, "spectator", password=PASSWORD)
        assert watcher.seat is not None and served.server.seated() == 2
        # The table is full for the next spectator, never for a player's own key.
        with pytest.raises((asyncssh.Error, ConnectionError)):
            await Client.join(served, "bob")
        alice = await Client.join(served, "alice")
        assert alice.seat is not None
        # Within seconds, the connections that opened no session are closed, and told.
        for conn in idle:
            await asyncio.wait_for(conn.wait_closed(), LIMIT)
        await until(lambda: any("opened no session" in n for n in served.table.notices))
        # Bob's refusal: told in the same report, or (when a slow machine let the idle ones
        # time out before Bob knocked) in the next, the door's reports being 5 s apart.
        await until(lambda: any("The table is full" in n for n in served.table.notices))
        assert not served.server.pending.waiting
        gm.type("w")  # the GM sees who was turned away in the seats dialog
        await until(lambda: "opened no session" in gm.text())
        await watcher.close()
        await alice.close()
        await gm.close()
    finally:
        served.server.close()
        await served.server.wait_closed()
