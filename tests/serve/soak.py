"""`make soak`: random hostile clients against a served table, then the GM's session checked.

Run: ``.venv/bin/python -m tests.serve.soak [--seconds 60] [--clients 8] [--seed N]``.
Outside ``make test`` (it runs for a minute). A table is served on loopback with a table
password; the GM sits by key and adds a note every half second, while ``--clients``
attackers at a time each pick an attack at random: random 7-bit keys, a flood of keys, a
huge window, bare TCP connections held open, wrong passwords, a key holder's name, a
dropped handshake, pastes full of escape codes. Each attack is bounded (in bytes and in
time). After it: every GM note is in the session, in order, and nothing else was added
(the attackers sit with no combatants); the GM's screen shows the last note; a keyed
player still sits down; no seat, pending login or traceback is left behind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

import asyncssh

from rules.commands import AddNote
from tests.serve.serve_helpers import Client, Served, serve, until

PASSWORD = "soak"
Attack = Callable[[Served, random.Random], Awaitable[None]]


async def seated(served: Served, name: str, size: tuple[int, int] = (80, 24)) -> tuple:
    conn = await asyncssh.connect(
        "127.0.0.1",
        served.port,
        username=name,
        password=PASSWORD,
        client_keys=None,
        known_hosts=None,
    )
    process = await conn.create_process(term_type="xterm", term_size=size)
    return conn, process


async def drain(process: asyncssh.SSHClientProcess, seconds: float) -> None:
    with contextlib.suppress(asyncio.TimeoutError):
        async with asyncio.timeout(seconds):
            while await process.stdout.read(65536):
                pass


async def random_keys(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served, f"noise{rng.randrange(1000)}")
    for _ in range(rng.randrange(1, 20)):
        process.stdin.write("".join(chr(rng.randrange(128)) for _ in range(rng.randrange(2000))))
        await asyncio.sleep(rng.random() / 5)
    await drain(process, 1)
    conn.close()


async def flood(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served, "flooder")
    process.stdin.write("\x1b[B" * rng.randrange(10_000, 100_000))
    await drain(process, 3)
    conn.close()


async def huge_window(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served, "watch", size=(20000, 10000))
    for _ in range(5):
        process.change_terminal_size(rng.randrange(1, 65536), rng.randrange(1, 65536))
        process.stdin.write(f"\x1b[48;{rng.randrange(9999)};{rng.randrange(9999)};0;0t")
        await asyncio.sleep(0.2)
    await drain(process, 0.5)
    conn.close()


async def bare_tcp(served: Served, rng: random.Random) -> None:
    writers = []
    for _ in range(rng.randrange(5, 40)):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", served.port)
            writers.append(writer)
    await asyncio.sleep(rng.random() * 2)
    for writer in writers:
        writer.close()


async def wrong_passwords(served: Served, rng: random.Random) -> None:
    for _ in range(rng.randrange(1, 4)):
        with contextlib.suppress(asyncssh.Error, OSError):
            conn = await asyncssh.connect(
                "127.0.0.1",
                served.port,
                username="guesser",
                password=f"guess{rng.randrange(10**6)}",
                client_keys=None,
                known_hosts=None,
            )
            conn.close()


async def squatter(served: Served, rng: random.Random) -> None:
    with contextlib.suppress(asyncssh.Error, OSError):
        conn, _ = await seated(served, rng.choice(["Alice", "GM", "gm", "x" * 50]))
        conn.close()


async def dropped_handshake(served: Served, rng: random.Random) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", served.port)
    writer.write(b"SSH-2.0-soak\r\n" + rng.randbytes(rng.randrange(4000)))
    await asyncio.sleep(rng.random())
    writer.close()


async def escape_pastes(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served, f"paster{rng.randrange(1000)}")
    nasty = ["\x1b]0;PWNED\x07", "\x1b(0", "\x1bc", "\x1b[2J", "\x9b31m", "\x00"]
    for _ in range(rng.randrange(1, 6)):
        body = "".join(rng.choice(nasty) + "x" * rng.randrange(40) for _ in range(20))
        process.stdin.write(f"\x1b[200~{body}\x1b[201~")
        await asyncio.sleep(0.1)
    await drain(process, 0.5)
    conn.close()


ATTACKS: list[Attack] = [
    random_keys,
    flood,
    huge_window,
    bare_tcp,
    wrong_passwords,
    squatter,
    dropped_handshake,
    escape_pastes,
]


async def attacker(served: Served, rng: random.Random, until_time: float) -> list[str]:
    done = []
    while time.monotonic() < until_time:
        attack = rng.choice(ATTACKS)
        done.append(attack.__name__)
        # A refused attacker is the table holding: any client-side error is expected.
        with contextlib.suppress(Exception):
            async with asyncio.timeout(10):
                await attack(served, rng)
    return done


async def soak(seconds: float, clients: int, seed: int) -> list[str]:
    """The problems found (none: the table held)."""
    folder = Path(tempfile.mkdtemp(prefix="tracker-soak-"))
    served = await serve(
        folder,
        password=PASSWORD,
        password_delay=0.05,
        password_lock_after=1000,  # the guessers must not lock the other attacks out
    )
    problems: list[str] = []
    try:
        before = len(served.session.history.records)
        gm = await Client.join(served, "gm")
        end = time.monotonic() + seconds
        rngs = [random.Random(seed * 1000 + n) for n in range(clients)]
        crowd = [asyncio.create_task(attacker(served, rng, end)) for rng in rngs]
        notes = []
        while time.monotonic() < end:
            note = f"soak note {len(notes)}"
            served.session.execute(AddNote(note))
            notes.append(note)
            await asyncio.sleep(0.5)
        attacks = [name for task in crowd for name in await task]
        print(f"{len(attacks)} attacks, {len(notes)} GM notes", file=sys.stderr)
        labels = [str(r.events) for r in served.session.history.records[before:]]
        if len(labels) != len(notes) or not all(
            n in lab for n, lab in zip(notes, labels, strict=True)
        ):
            problems.append(f"the session holds {len(labels)} records, not the {len(notes)} notes")
        try:
            await until(lambda: notes[-1] in gm.text(), timeout=20)
        except AssertionError:
            problems.append("the GM's screen does not show the last note")
        try:
            alice = await Client.join(served, "alice")
            await alice.close()
        except Exception as exc:
            problems.append(f"a keyed player could not sit down after: {exc!r}")
        await gm.close()
        try:
            await until(lambda: not served.table.seats and not served.server.pending.waiting, 30)
        except AssertionError:
            problems.append(
                f"left behind: {len(served.table.seats)} seats,"
                f" {len(served.server.pending.waiting)} pending logins"
            )
    finally:
        served.server.close()
        await served.server.wait_closed()
    return problems


class Tee(io.TextIOBase):
    """The server's stderr, passed through and kept: no traceback may reach it."""

    def __init__(self, through: TextIO) -> None:
        self.through = through
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.through.write(text)

    def flush(self) -> None:
        self.through.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    stderr = sys.stderr = Tee(sys.stderr)
    problems = asyncio.run(soak(args.seconds, args.clients, args.seed))
    if "Traceback" in stderr.kept.getvalue():
        problems.append("a traceback reached the server's stderr")
    for problem in problems:
        print(f"soak: {problem}", file=sys.stderr)
    print("soak: the table held" if not problems else "soak: FAILED", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
