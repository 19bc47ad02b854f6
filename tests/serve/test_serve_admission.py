"""Fair admission: connections that have not logged in, password guessing, and names."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest

from tests.serve.serve_helpers import Client, Served, serve, until
from tracker.serve.admission import PasswordTries, Pending

PASSWORD = "open sesame"


@pytest.fixture
async def served(tmp_path: Path):
    served = await serve(
        tmp_path,
        password=PASSWORD,
        login_timeout=5.0,  # short, yet long enough for a login on a loaded machine
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


def test_the_pending_pool_makes_room_with_the_least_advanced() -> None:
    pool: Pending[Knock] = Pending(size=4, per_address=2, clock=lambda: 0.0)
    bare = Knock("10.0.0.1")
    client = Knock("10.0.0.1", stage=1)
    assert pool.admit(client) == (True, None)
    assert pool.admit(bare) == (True, None)
    newcomer = Knock("10.0.0.1")
    assert pool.admit(newcomer) == (True, bare)  # the bare one makes room, not the client
    newcomer.stage = 2
    # Both at 10.0.0.1 now speak SSH: a bare newcomer waits outside.
    assert pool.admit(Knock("10.0.0.1")) == (False, None)
    # Other addresses have their own share of the pool, up to its size.
    others = [Knock(f"10.0.0.{n}", stage=1) for n in (2, 3)]
    assert all(pool.admit(k)[0] for k in others)
    assert pool.admit(Knock("10.0.0.9", stage=1)) == (False, None)
    assert len(pool.waiting) == 4


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


async def test_a_connection_that_does_not_log_in_is_closed(served: Served) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", served.port)
    await until(lambda: served.server.pending.waiting)
    assert not served.table.seats and not served.server.connections  # waiting is no seat
    assert await asyncio.wait_for(reader.read(), 15) is not None  # closed by the server
    await until(lambda: not served.server.pending.waiting)
    writer.close()


async def test_password_guessing_is_slowed_locked_out_and_told(served: Served) -> None:
    gm = await Client.join(served, "gm")
    for guess in ("guess1", "guess2", "guess3"):
        with pytest.raises(asyncssh.PermissionDenied):
            await login(served, "Mallory", guess)
    tries = served.server.tries
    assert tries.wrong("127.0.0.1") == 3 and tries.wait_after("127.0.0.1") > 0
    await until(lambda: "Wrong table password as 'Mallory'" in gm.text())
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
