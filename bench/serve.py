"""Serving benchmark: N SSH seats on loopback, the time from an event to its appearance on
every seat (median and p95), and the server's memory per seat.

Run: ``.venv/bin/python bench/serve.py [--seats 8 32 64] [--write]``. The server (this
process) serves one encounter of the first listed system (``tracker.store.defaults.systems``); a
client process opens N seats (80x24 terminals, players and spectators, by the table
password) and reads every byte each seat is sent.
The GM then adds notes, one every ``--gap`` seconds; a note's latency on a seat is the time
from the GM's command to the moment its text arrived in that seat's stream (both
processes read the same monotonic clock). Memory per seat is the growth of the server's
resident set from before the seats joined to after the last note, over N.

Each count is run twice: with seats that only watch (drawn by shared views, see
tracker/serve/views.py), and with seats that have each pressed a key (↓) first, so that
every seat's own app draws it: the worst case, where nothing is shared.

The hostile row (``--hostile``, and in the default run at 32 seats): the seats watch while
three more attack the table: one floods keys as the notes begin (300 KB of ↓; closed for
it, it keeps knocking), one presses ↓ the whole time as fast as a seat may (the input
limit: 120 a second), one asks for a huge window (20000x10000 at login, window changes to
65535x65535 and in-band resizes every half second). Only the watching seats' latency is
counted.

A table as it plays (``--demo``): the first listed system's demo is served (its combatants
and its log) instead of four bare combatants: each note then scrolls a full log and its
scrollbar on every seat.

Before and after (``--before PATH``, an older checkout such as ``git worktree add
/tmp/old-seats main``): each row is served by that checkout's code too, the two alternated
in fresh processes, and the table shows both and their ratio (this checkout's over the
older one's): on a loaded machine the ratio is the figure to read.

Typed seats apart (``--apart``): the seats that typed never share frames as twins
(tracker/serve/twins.py: typed seats showing the same are drawn by one app), as when every
seat shows something of its own; the benchmark's typed seats all pressed the same key.

Browser seats (``--web``): the same rows again with every other seat in a browser, by a
join link: a WebSocket client that speaks as the page's textual.js does (JSON packets
out, the frames in), against the same server's ``--web`` (tracker/serve/web.py). Same
targets as the SSH seats.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.doc import write_block

PASSWORD = "bench"
SEATS = (8, 32, 64)
HOSTILE_SEATS = 32
FLOOD = "\x1b[B" * 100_000  # 300 KB of ↓


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- the client process ------------------------------------------------------------------------


async def one_seat(
    port: int,
    index: int,
    marks: list[str],
    seen: dict[str, float],
    ready: asyncio.Event,
    active: bool,
    link: str = "",
) -> None:
    if link:
        await one_browser(link, marks, seen, ready, active)
        return
    name = "spectator" if index % 4 == 3 else f"p{index}"
    conn = await connect(port, name)
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
    tail = ""
    waiting = list(marks)
    frames = 0  # whole screens seen: the first one, and the own app's after the key
    while waiting:
        data = await process.stdout.read(65536)
        if not data:
            break
        now = time.monotonic()
        text = tail + data
        if "Roll log" in text and not ready.is_set():
            frames += 1
            if active and frames == 1:
                process.stdin.write("\x1b[B")  # a key: the seat draws on its own from now
            else:
                ready.set()
        while waiting and waiting[0] in text:
            seen[waiting.pop(0)] = now
        tail = text[-16:]
    conn.close()


async def one_browser(
    link: str, marks: list[str], seen: dict[str, float], ready: asyncio.Event, active: bool
) -> None:
    """A seat in a browser: its join link's socket, as textual.js opens it."""
    import aiohttp

    socket = link.replace("/join/", "/ws/") + "?width=80&height=24"
    async with aiohttp.ClientSession() as http, http.ws_connect(socket) as ws:
        tail = ""
        waiting = list(marks)
        frames = 0
        async for message in ws:
            if message.type != aiohttp.WSMsgType.BINARY:
                continue
            now = time.monotonic()
            text = tail + message.data.decode("utf-8", "replace")
            if "Roll log" in text and not ready.is_set():
                frames += 1
                if active and frames == 1:
                    await ws.send_str(json.dumps(["stdin", "\x1b[B"]))
                else:
                    ready.set()
            while waiting and waiting[0] in text:
                seen[waiting.pop(0)] = now
            tail = text[-16:]
            if not waiting:
                break


async def connect(port: int, name: str) -> Any:
    """Log in; the server lets only so many log in at once per address (all of these are
    127.0.0.1), and asks the rest to try again."""
    import asyncssh

    for attempt in range(50):
        try:
            return await asyncssh.connect(
                "127.0.0.1",
                port,
                username=name,
                password=PASSWORD,
                known_hosts=None,
                client_keys=None,
            )
        except (asyncssh.DisconnectError, ConnectionError):
            await asyncio.sleep(0.05 * (attempt + 1))
    raise RuntimeError(f"{name} could not log in")


async def flooder(port: int) -> None:
    """Floods keys (closed for it at once, it keeps knocking: refused for a while)."""
    while True:
        try:
            conn = await connect(port, "flooder")
            process = await conn.create_process(term_type="xterm", term_size=(80, 24))
            process.stdin.write(FLOOD)
            while await process.stdout.read(65536):
                pass
            conn.close()
        except Exception:  # any refusal or drop: it only tries again
            await asyncio.sleep(0.1)


async def typist(port: int) -> None:
    """Presses ↓ as fast as a seat may (the input limit), the whole time: never closed."""
    from tracker.serve.limits import EVENTS_PER_SECOND

    conn = await connect(port, "typist")
    process = await conn.create_process(term_type="xterm", term_size=(80, 24))

    async def drain() -> None:
        while await process.stdout.read(65536):
            pass

    reader = asyncio.create_task(drain())
    while True:
        process.stdin.write("\x1b[B" * 12)
        await asyncio.sleep(12 / EVENTS_PER_SECOND)
    reader.cancel()


async def giant(port: int) -> None:
    """Asks for a huge window, then for huger ones, every half second."""
    conn = await connect(port, "giant")
    process = await conn.create_process(term_type="xterm", term_size=(20000, 10000))

    async def drain() -> None:
        while await process.stdout.read(65536):
            pass

    reader = asyncio.create_task(drain())
    sizes = [(65535, 65535), (20000, 10000)]
    for turn in itertools.count():
        await asyncio.sleep(0.5)
        process.change_terminal_size(*sizes[turn % 2])
        process.stdin.write("\x1b[48;4000;4000;0;0t")
    reader.cancel()


async def clients(
    port: int, count: int, events: int, active: bool, hostile: bool, links: list[str]
) -> None:
    marks = [f"M{number:04d}X" for number in range(events)]
    seen: list[dict[str, float]] = [{} for _ in range(count)]
    ready = [asyncio.Event() for _ in range(count)]
    # With links, every other seat is a browser's.
    tasks = [
        asyncio.create_task(
            one_seat(
                port, i, marks, seen[i], ready[i], active, links[i // 2] if links and i % 2 else ""
            )
        )
        for i in range(count)
    ]
    await asyncio.gather(*(event.wait() for event in ready))
    attackers = []
    if hostile:
        attackers = [asyncio.create_task(giant(port)), asyncio.create_task(typist(port))]
        await asyncio.sleep(2)  # the attack is under way when the notes begin
        attackers.append(asyncio.create_task(flooder(port)))  # with the first note
    print("ready", flush=True)
    await asyncio.wait(tasks, timeout=120)
    for attacker in attackers:
        attacker.cancel()
    print(json.dumps(seen), flush=True)


# --- the server process ------------------------------------------------------------------------


def served_history(demo: bool) -> Any:
    """What the table serves: four bare combatants (the Boss hidden), or the first listed
    system's demo."""
    from rules.engine import new_encounter
    from rules.history import History
    from rules.registry import part

    try:
        from tracker.store.defaults import systems
    except ImportError:  # a checkout from before tracker/store/ (issue 44)
        from tracker.defaults import systems  # type: ignore[no-redef]

    system = systems()[0]
    built = part(system, "demo") if demo else None
    return built.build() if built is not None else History(new_encounter("Bench", system))


async def measure(
    count: int,
    events: int,
    gap: float,
    active: bool,
    hostile: bool,
    web: bool = False,
    demo: bool = False,
    apart: bool = False,
) -> dict[str, float]:
    from rules.commands import AddCombatant, AddNote
    from rules.dice import SeededDice
    from tracker.serve.config import Config
    from tracker.serve.heap import SETTLE_AFTER
    from tracker.serve.seats import Table
    from tracker.serve.server import TableServer
    from tracker.session import EncounterSession

    if apart:
        try:
            from tracker.serve import twins
        except ImportError:  # an older checkout: its typed seats never share
            pass
        else:
            twins.pair = lambda channel, others: None  # type: ignore[assignment]
    folder = Path(tempfile.mkdtemp())
    session = EncounterSession(served_history(demo), SeededDice(1), folder / "bench.fight")
    if not demo:
        for name in ("Orla", "Brak", "Goblin", "Boss"):
            session.execute(AddCombatant(name=name, gm_only=name == "Boss"))
    table = Table(session)
    config = Config(port=0, password=PASSWORD, host_key=folder / "key", max_seats=count + 4)
    server = TableServer(table, config)
    await server.start()
    links: list[str] = []
    browsers = None
    if web:
        from tracker.serve.web import WebServer

        browsers = WebServer(server, "127.0.0.1", 0)
        await browsers.start()
        for number in range(count // 2):
            role = "spectator" if number % 4 == 3 else "player"
            links.append(table.links.url(table.links.make(role, f"b{number}")))
    (folder / "links.json").write_text(json.dumps(links))
    gc.collect()
    before = rss_mb()
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).resolve()),
        "--client",
        str(server.port),
        str(count),
        str(events),
        str(int(active)),
        str(int(hostile)),
        str(folder / "links.json"),
        stdout=subprocess.PIPE,
    )
    assert child.stdout is not None
    await child.stdout.readline()  # "ready": every seat drew its first screen
    # The server settles its heap a moment after the last seat joined or took over from its
    # view (tracker/serve/heap.py): measured after that, as a table plays once everyone is
    # seated.
    await asyncio.sleep(SETTLE_AFTER)
    while not server.heap.settled:
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)
    sent: dict[str, float] = {}
    cpu = time.process_time()  # the server's own work, less swayed by a loaded machine
    for number in range(events):
        mark = f"M{number:04d}X"
        sent[mark] = time.monotonic()
        session.execute(AddNote(mark))
        await asyncio.sleep(gap)
    seen = json.loads(await child.stdout.readline())
    cpu = time.process_time() - cpu
    gc.collect()
    per_seat = (rss_mb() - before) / count  # every seat connected, drawn and updated
    await child.wait()
    server.close()
    if browsers is not None:
        await browsers.close()
    await server.wait_closed()
    latencies = [(at[mark] - sent[mark]) * 1000 for at in seen for mark in at]
    missing = count * events - len(latencies)
    return {
        "seats": count,
        "active": active,
        "hostile": hostile,
        "web": web,
        "demo": demo,
        "apart": apart,
        "median": statistics.median(latencies),
        "p95": percentile(latencies, 0.95),
        "max": max(latencies),
        "missing": missing,
        "per_seat_mb": per_seat,
        "cpu_ms": cpu * 1000 / events,  # the server's CPU time per note, all seats
        "server_mb": rss_mb(),
    }


def they(r: dict[str, float]) -> str:
    said = "each typed a key" if r["active"] else "watch"
    if r["hostile"]:
        said = "watch; 1 floods, 1 types at the limit, 1 huge window"
    if r.get("web"):
        said += ", half in a browser"
    if r.get("apart"):
        said += ", each its own screen"
    if r.get("demo"):
        said += ", the demo"
    return said


def compared(
    pairs: list[tuple[dict[str, float], dict[str, float]]], events: int, gap: float
) -> str:
    """Rows measured by an older checkout and by this one, side by side."""
    rows = [
        f"{events} notes from the GM, one every {gap * 1000:.0f} ms; latency from the GM's "
        "command to the note's text arriving on the seat, over every seat and note; before: "
        "the older checkout, now: this one, alternated; ratio: now over before.",
        "",
        "| seats | they | p95 before | p95 now | ratio | median before | median now | ratio "
        "| server CPU a note before | now | ratio | memory per seat before | now | not seen |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for old, new in pairs:
        rows.append(
            f"| {new['seats']:.0f} | {they(new)} | {old['p95']:.1f} ms | {new['p95']:.1f} ms"
            f" | {new['p95'] / old['p95']:.2f} | {old['median']:.1f} ms"
            f" | {new['median']:.1f} ms | {new['median'] / old['median']:.2f}"
            f" | {old['cpu_ms']:.0f} ms | {new['cpu_ms']:.0f} ms"
            f" | {new['cpu_ms'] / old['cpu_ms']:.2f}"
            f" | {old['per_seat_mb']:.2f} MB | {new['per_seat_mb']:.2f} MB"
            f" | {old['missing'] + new['missing']:.0f} |"
        )
    return "\n".join(rows)


def table(results: list[dict[str, float]], events: int, gap: float) -> str:
    rows = [
        f"{events} notes from the GM, one every {gap * 1000:.0f} ms; latency from the GM's "
        "command to the note's text arriving on the seat, over every seat and note.",
        "",
        "| seats | they | median | p95 | max | not seen | memory per seat |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {r['seats']:.0f} | {they(r)} | {r['median']:.1f} ms | {r['p95']:.1f} ms"
            f" | {r['max']:.1f} ms | {r['missing']:.0f} | {r['per_seat_mb']:.2f} MB |"
        )
    return "\n".join(rows)


def serve_once(argv: tuple[object, ...]) -> dict[str, float]:
    run = subprocess.run(
        [sys.executable, __file__, "--server", *map(str, argv)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(run.stdout.strip().splitlines()[-1])
    print(argv[-1], result, file=sys.stderr, flush=True)
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--client":
        port, count, events, active, hostile = (int(value) for value in sys.argv[2:7])
        links = json.loads(Path(sys.argv[7]).read_text())
        asyncio.run(clients(port, count, events, bool(active), bool(hostile), links))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--server":
        count, events, active, hostile, web = (int(value) for value in sys.argv[2:7])
        gap, demo, apart = float(sys.argv[7]), bool(int(sys.argv[8])), bool(int(sys.argv[9]))
        sys.path.insert(0, sys.argv[10])  # the checkout whose code serves (nothing loaded yet)
        result = asyncio.run(
            measure(count, events, gap, bool(active), bool(hostile), bool(web), demo, apart)
        )
        print(json.dumps(result), flush=True)
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seats", type=int, nargs="*", default=list(SEATS))
    parser.add_argument("--events", type=int, default=15)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between notes")
    parser.add_argument(
        "--only", choices=("watch", "typed"), help="only seats that watch, or that typed"
    )
    parser.add_argument(
        "--hostile",
        type=int,
        nargs="*",
        default=[HOSTILE_SEATS],
        metavar="SEATS",
        help=f"watching seats under attack (default {HOSTILE_SEATS}; none: skip)",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="only rows with every other seat in a browser, by a join link",
    )
    parser.add_argument(
        "--demo", action="store_true", help="serve the first listed system's demo (a full log)"
    )
    parser.add_argument(
        "--apart",
        action="store_true",
        help="typed seats never share frames as twins (each shows something of its own)",
    )
    parser.add_argument(
        "--before", type=Path, help="an older checkout: each row served by its code too, alternated"
    )
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    args = parser.parse_args()
    modes = {"watch": (False,), "typed": (True,), None: (False, True)}[args.only]
    runs = [(count, active, False) for active in modes for count in args.seats]
    runs += [(count, False, True) for count in args.hostile]
    results = []
    pairs = []
    here = Path(__file__).resolve().parent.parent
    for number, (count, active, hostile) in enumerate(runs):
        # Each in a process of its own: its memory figure must not reuse an earlier run's
        # freed heap. With --before, the older checkout first in every other row.
        argv = (count, args.events, int(active), int(hostile), int(args.web), args.gap)
        roots = [here] if args.before is None else [args.before.resolve(), here]
        if number % 2:
            roots.reverse()
        measured = {
            root: serve_once((*argv, int(args.demo), int(args.apart), root)) for root in roots
        }
        results.append(measured[here])
        if args.before is not None:
            pairs.append((measured[args.before.resolve()], measured[here]))
    if pairs:
        text = compared(pairs, args.events, args.gap)
        print(text)
        if args.write:
            write_block("serve-before", text)
        return
    # The hostile rows have a table of their own (docs/contributing/performance.md, "Hostile
    # seats").
    for block, rows in (
        ("serve", [r for r in results if not r["hostile"] and not r["web"]]),
        ("serve-hostile", [r for r in results if r["hostile"] and not r["web"]]),
        ("serve-web", [r for r in results if r["web"]]),
    ):
        if rows:
            text = table(rows, args.events, args.gap)
            print(text)
            if args.write:
                write_block(block, text)


if __name__ == "__main__":
    main()
