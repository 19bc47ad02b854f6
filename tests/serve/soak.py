"""`make soak`: random hostile clients against a served table, then the GM's session checked.

Run: ``.venv/bin/python -m tests.serve.soak [--seconds 60] [--clients 8] [--seed N]``.
Outside ``make test`` (it runs for a minute). A table is served on loopback with a table
password; the GM sits by key and adds a note every half second, while ``--clients``
attackers at a time each pick an attack at random: random 7-bit keys, a flood of keys, a
huge window, bare TCP connections held open, wrong passwords, a key holder's name, a
dropped handshake, pastes full of escape codes, ``:roll`` lines too big to work out. Each
attack is bounded (in bytes and in time). After it: every GM note is in the session, in
order, and nothing else was added (the attackers sit with no combatants); the GM's screen
shows the last note; a keyed player still sits down; no seat, pending login or traceback is
left behind.

Then the hostile phases (``--phase-seconds`` each; ``--phases-only`` skips the random
part): with no attack, then under half-open logins (32 connections from 4 addresses
sending only a banner, reconnecting when dropped), logins stalled after key exchange (as
many), a window-change flood (a seated player sending them as fast as it can, coming back
when closed) and forty busy seats (each pressing ``?`` and Esc, ``?`` twice a second), the
GM's response (``?`` pressed to the help shown) and a keyed player's time to join (connect
to the first frame) are measured; each must stay under ``TARGET``. ``--write`` puts the
figures in docs/contributing/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TextIO

import asyncssh

from bench.doc import write_block
from rules.commands import AddNote
from tests.hostile_text import STALLING_DICE
from tests.serve.attacks import after_key_exchange, banner_only, crowd, running
from tests.serve.serve_helpers import Client, Served, serve, until

PASSWORD = "soak"
Attack = Callable[[Served, random.Random], Awaitable[None]]


async def seated(
    port: int, name: str, size: tuple[int, int] = (80, 24), address: str = "127.0.0.1"
) -> tuple:
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        local_addr=(address, 0),
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
    conn, process = await seated(served.port, f"noise{rng.randrange(1000)}")
    for _ in range(rng.randrange(1, 20)):
        process.stdin.write("".join(chr(rng.randrange(128)) for _ in range(rng.randrange(2000))))
        await asyncio.sleep(rng.random() / 5)
    await drain(process, 1)
    conn.close()


async def flood(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served.port, "flooder")
    process.stdin.write("\x1b[B" * rng.randrange(10_000, 100_000))
    await drain(process, 3)
    conn.close()


async def huge_window(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served.port, "watch", size=(20000, 10000))
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
        conn, _ = await seated(served.port, rng.choice(["Alice", "GM", "gm", "x" * 50]))
        conn.close()


async def dropped_handshake(served: Served, rng: random.Random) -> None:
    _, writer = await asyncio.open_connection("127.0.0.1", served.port)
    writer.write(b"SSH-2.0-soak\r\n" + rng.randbytes(rng.randrange(4000)))
    await asyncio.sleep(rng.random())
    writer.close()


async def escape_pastes(served: Served, rng: random.Random) -> None:
    conn, process = await seated(served.port, f"paster{rng.randrange(1000)}")
    nasty = ["\x1b]0;PWNED\x07", "\x1b(0", "\x1bc", "\x1b[2J", "\x9b31m", "\x00"]
    for _ in range(rng.randrange(1, 6)):
        body = "".join(rng.choice(nasty) + "x" * rng.randrange(40) for _ in range(20))
        process.stdin.write(f"\x1b[200~{body}\x1b[201~")
        await asyncio.sleep(0.1)
    await drain(process, 0.5)
    conn.close()


async def big_dice(served: Served, rng: random.Random) -> None:
    """``:roll`` lines too big to work out, again and again (each once stalled the table for
    seconds): refused, so nothing is added to the session."""
    conn, process = await seated(served.port, f"roller{rng.randrange(1000)}")
    for _ in range(rng.randrange(1, 12)):
        process.stdin.write(f":roll {rng.choice(STALLING_DICE)}\r\x1b")
        await asyncio.sleep(rng.random() / 5)
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
    big_dice,
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


TARGET = 2.0  # seconds: the GM's response and a player's join, under any attack
BUSY_SEATS = 40


@contextlib.asynccontextmanager
async def no_attack(port: int) -> AsyncIterator[None]:
    yield


@contextlib.asynccontextmanager
async def half_open(port: int) -> AsyncIterator[None]:
    async with crowd(port, banner_only, addresses=4, each=8):
        yield


@contextlib.asynccontextmanager
async def stalled_logins(port: int) -> AsyncIterator[None]:
    async with crowd(port, after_key_exchange, addresses=4, each=8):
        yield


@contextlib.asynccontextmanager
async def window_changes(port: int) -> AsyncIterator[None]:
    async def resize() -> None:
        while True:
            with contextlib.suppress(asyncssh.Error, OSError):
                conn, process = await seated(port, "resizer", address="127.0.0.6")
                reading = asyncio.create_task(drain(process, 3600))
                while not conn.is_closed():
                    for n in range(200):
                        process.change_terminal_size(80 + n % 2, 24)
                    await asyncio.sleep(0)
                reading.cancel()
            await asyncio.sleep(0.1)

    async with running([resize()]):
        yield


@contextlib.asynccontextmanager
async def busy_seats(port: int) -> AsyncIterator[None]:
    seats = []
    for n in range(BUSY_SEATS):  # from addresses of their own, as forty players are
        seats.append(await seated(port, f"busy{n}", address=f"127.0.1.{n + 1}"))

    async def press(process: asyncssh.SSHClientProcess) -> None:
        reading = asyncio.create_task(drain(process, 3600))
        try:
            while True:
                for key in ("?", "\x1b"):
                    process.stdin.write(key)
                    await asyncio.sleep(0.25)
        finally:
            reading.cancel()

    try:
        async with running(press(process) for _, process in seats):
            yield
    finally:
        for conn, _ in seats:
            conn.close()


PHASES: dict[str, tuple[str, Callable[[int], contextlib.AbstractAsyncContextManager[None]]]] = {
    "none": ("no attack", no_attack),
    "half-open": ("32 half-open logins (a banner only)", half_open),
    "stalled": ("32 logins stalled after key exchange", stalled_logins),
    "window-changes": ("a window-change flood", window_changes),
    "busy-seats": (f"{BUSY_SEATS} seats pressing ? twice a second", busy_seats),
}


async def attack_for(name: str, port: int, seconds: float) -> None:
    """``--attack``: one phase's attack on ``port``, in a process of its own (as an
    attacker's machine would be), for ``seconds``."""
    async with PHASES[name][1](port):
        await asyncio.sleep(seconds)


@contextlib.asynccontextmanager
async def attacking(name: str, port: int) -> AsyncIterator[None]:
    attacker = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.serve.soak", "--attack", name, "--port", str(port),
        "--seconds", "600", stderr=asyncio.subprocess.DEVNULL,  # its failures are its own
    )  # fmt: skip
    try:
        yield
    finally:
        attacker.terminate()
        await attacker.wait()


async def gm_response(gm: Client) -> float:
    """Seconds from the GM's ``?`` to the help on the GM's screen (then closed again)."""
    began = time.monotonic()
    gm.type("?")
    await until(lambda: "Keys" in gm.text(), timeout=60)
    took = time.monotonic() - began
    gm.type("\x1b")
    await until(lambda: "Keys" not in gm.text(), timeout=60)
    return took


async def join_time(served: Served) -> float:
    """Seconds from a keyed player's connecting to the table drawn on their screen."""
    began = time.monotonic()
    alice = await Client.join(served, "alice", wait=False)
    await until(lambda: "Roll log" in alice.text() and "palette" in alice.text(), timeout=60)
    took = time.monotonic() - began
    await alice.close()
    return took


async def phases(seconds: float, only: list[str]) -> tuple[list[str], list[str]]:
    """The figures' table rows, and the problems found (every phase, or ``only`` these)."""
    folder = Path(tempfile.mkdtemp(prefix="tracker-soak-phases-"))
    served = await serve(folder, password=PASSWORD, password_lock_after=1000)
    rows: list[str] = []
    problems: list[str] = []
    try:
        gm = await Client.join(served, "gm")
        for key, (name, _) in PHASES.items():
            if only and key not in only:
                continue
            print(f"soak: {name}", file=sys.__stderr__)  # the apps redirect sys.stderr
            responses: list[float] = []
            joins: list[float] = []
            async with attacking(key, served.port):
                end = time.monotonic() + seconds
                await asyncio.sleep(min(2.0, seconds / 4))  # the attack builds up
                if key == "busy-seats":  # measured once they all sit, pressing keys
                    await until(lambda: len(served.table.seats) > BUSY_SEATS, timeout=300)
                    end = time.monotonic() + seconds
                print(f"soak: {name}: measuring", file=sys.__stderr__)
                while time.monotonic() < end:
                    responses.append(await gm_response(gm))
                    if len(responses) % 3 == 1:
                        try:
                            joins.append(await join_time(served))
                        except Exception as exc:
                            problems.append(f"{name}: a keyed player could not join: {exc!r}")
                    await asyncio.sleep(0.5)
            rows.append(
                f"| {name} | {statistics.median(responses):.2f} s | {max(responses):.2f} s"
                f" | {max(joins, default=float('nan')):.2f} s | {len(responses)} / {len(joins)} |"
            )
            if max(responses) > TARGET or max(joins, default=0) > TARGET:
                problems.append(f"{name}: over {TARGET:.0f} s ({rows[-1]})")
            try:  # the attack's seats are gone before the next: the GM alone
                await until(lambda: len(served.table.seats) == 1, timeout=60)
            except AssertionError:
                problems.append(f"{name}: {len(served.table.seats) - 1} seats left behind")
        await gm.close()
    finally:
        served.server.close()
        await served.server.wait_closed()
    return rows, problems


def table(rows: list[str], seconds: float) -> str:
    return "\n".join(
        [
            f"Each attack for {seconds:.0f} s; the GM presses `?` every half second or so"
            " (to the help drawn on the GM's SSH seat), a keyed player joins every third"
            " time (connect to the first frame). The attackers run in a process of their own.",
            "",
            "| attack | GM's response, median | GM's response, max | a player's join, max"
            " | measured (GM / joins) |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )


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
    parser.add_argument("--phase-seconds", type=float, default=12)
    parser.add_argument("--phases-only", action="store_true")
    parser.add_argument("--write", action="store_true", help="the figures to performance.md")
    parser.add_argument("--attack", choices=PHASES, help="only run this attack (on --port)")
    parser.add_argument("--phase", choices=PHASES, action="append", default=[], help="only these")
    parser.add_argument("--port", type=int, default=2222)
    args = parser.parse_args()
    if args.attack:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(attack_for(args.attack, args.port, args.seconds))
        return 0
    stderr = sys.stderr = Tee(sys.stderr)
    problems = [] if args.phases_only else asyncio.run(soak(args.seconds, args.clients, args.seed))
    rows, found = asyncio.run(phases(args.phase_seconds, args.phase))
    problems += found
    print(table(rows, args.phase_seconds), file=sys.stderr)
    if args.write:
        write_block("soak-hostile", table(rows, args.phase_seconds))
    if "Traceback" in stderr.kept.getvalue():
        problems.append("a traceback reached the server's stderr")
    for problem in problems:
        print(f"soak: {problem}", file=sys.stderr)
    print("soak: the table held" if not problems else "soak: FAILED", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
