"""Forecast benchmark: fights per second for each demo, with one job and with two.

Run: ``.venv/bin/python bench/forecast.py [--write] [--runs N] [--repeats K]``. Each figure is
a whole forecast of N fights (1,000) in a fresh process, as the program runs it: the workers'
start, the fights, the tallies merged and the report's text; the interpreter's start, the
imports and reading the save (the same whatever the jobs, and no fights) are left aside. For
each demo, alternately, K times (3), the median of:

- one job;
- two jobs as ``tracker forecast`` runs them (the worker forked before the save is read);
- two jobs as the app's first ``F`` runs them (Textual loaded: the worker spawned), and a
  what-if after it in the same process (the worker warm).

And, for scale, what this machine gives at best at that moment: the same fights played warm in
one process, then split in two halves between it and a forked copy of it (no pool, no start,
no messages): the ceiling of any two-job speed-up under the load of the moment.

Then the CPU time of one simulated fight (the best of K batches of 100, in this process: the
figure the machine's other load disturbs least). ``--write`` puts the table into
docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402

SEED = 20
WAYS = ("one", "command", "app", "ceiling")


def ceiling(path: Path, runs: int) -> list[float]:
    """The seconds of ``runs`` warm fights in this process, then split with a forked copy."""
    import os

    from rules.forecast import job_bytes, simulate
    from tracker import storage

    job = job_bytes(storage.read(path).state, SEED, 50)
    simulate(job, 0, 3)
    start = time.perf_counter()
    simulate(job, 0, runs)
    alone = time.perf_counter() - start
    start = time.perf_counter()
    child = os.fork()
    if child == 0:
        simulate(job, runs // 2, runs)
        os._exit(0)
    simulate(job, 0, runs // 2)
    os.waitpid(child, 0)
    return [alone, time.perf_counter() - start]


def measure(way: str, path: Path, runs: int) -> list[float]:
    """In this (fresh) process: the seconds of a forecast made ``way``, and for the app's way
    of a what-if after it too."""
    if way == "ceiling":
        return ceiling(path, runs)
    import tracker.cli  # noqa: F401  (what the command has loaded when it starts the workers)

    if way == "app":
        import textual.app  # noqa: F401  (the app's process: the worker is spawned)
    from tracker.headless import forecast

    start = time.perf_counter()
    workers = forecast.Workers(1 if way == "one" else 2)
    started = time.perf_counter() - start
    from tracker import storage

    state = storage.read(path).state  # aside: the same for one job and two
    figures = []
    for _ in range(2 if way == "app" else 1):
        start = time.perf_counter()
        forecast.as_text(forecast.run_forecast(state, runs, SEED, 50, workers))
        figures.append(started + time.perf_counter() - start)
        started = 0.0
    assert way == "one" or workers.method == ("spawn" if way == "app" else "fork")
    workers.close()
    return figures


def in_a_fresh_process(way: str, path: Path, runs: int) -> list[float]:
    command = [sys.executable, __file__, "--measure", way, str(path), str(runs)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return [float(word) for word in done.stdout.split()]


def cpu_ms_per_fight(path: Path, repeats: int) -> float:
    from rules.forecast import job_bytes, simulate
    from tracker import storage

    job = job_bytes(storage.read(path).state, SEED, 50)
    simulate(job, 0, 3)  # the system loaded, its caches warm
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        simulate(job, 0, 100)
        best = min(best, time.process_time() - start)
    return best * 1000 / 100


def demos() -> list[str]:
    """The file stem of every bundled demo whose system plays solo (so can be forecast), as
    the tracker lists them: found by the registry, so a system's folder added or deleted is
    a row more or less."""
    from rules.registry import get_system, part
    from tracker.defaults import systems

    found = []
    for name in systems():
        demo = part(name, "demo")
        if demo is not None and get_system(name).solo_policies:
            found.append(str(demo.STEM))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--measure", nargs=3, metavar=("WAY", "SAVE", "RUNS"), help="internal")
    args = parser.parse_args()
    if args.measure:
        way, path, runs = args.measure
        print(*measure(way, Path(path), int(runs)))
        return
    n = f"{args.runs:,}"
    lines = [
        "| demo | 1 job | 2 jobs (command) | fights/s, 1 → 2 jobs | speed-up "
        "| app's first `F` | a what-if | the machine's ceiling | one fight (CPU) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for stem in demos():
        demo = stem.removeprefix("demo-")
        path = ROOT / "saves" / f"{stem}.fight"
        seen: dict[str, list[float]] = {way: [] for way in (*WAYS, "warm")}
        for _ in range(args.repeats):
            for way in WAYS:
                figures = in_a_fresh_process(way, path, args.runs)
                if way == "ceiling":
                    seen[way].append(figures[0] / figures[1])
                    continue
                seen[way].append(figures[0])
                if way == "app":
                    seen["warm"].append(figures[1])
        best = statistics.median(seen["ceiling"])
        one, two, app, warm = (
            statistics.median(seen[k]) for k in ("one", "command", "app", "warm")
        )
        lines.append(
            f"| {demo} | {one:.2f} s | {two:.2f} s "
            f"| {args.runs / one:,.0f} → {args.runs / two:,.0f} | **{one / two:.2f}x** "
            f"| {app:.2f} s ({one / app:.2f}x) | {warm:.2f} s ({one / warm:.2f}x) "
            f"| {best:.2f}x | {cpu_ms_per_fight(path, args.repeats):.2f} ms |"
        )
        print(lines[-1], flush=True)
    text = f"{n} fights per forecast.\n\n" + "\n".join(lines)
    print(text)
    if args.write:
        write_block("forecast", text)


if __name__ == "__main__":
    main()
