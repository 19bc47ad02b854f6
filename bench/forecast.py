"""Forecast benchmark: fights per second for each demo, with one job and with two.

Run: ``.venv/bin/python bench/forecast.py [--write] [--runs N] [--repeats K]``. For each demo,
a whole ``tracker forecast`` of N fights (1,000) as the command runs it (the process pool's
start included), one job then two, alternately, K times (3); the table gives the median
seconds, fights per second and the speed-up of two jobs over one, and the CPU time of one
simulated fight (the best of K batches of 100, in this process: the figure the machine's
other load disturbs least). ``--write`` puts the table into docs/performance.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules.forecast import job_bytes, simulate  # noqa: E402
from tracker import storage  # noqa: E402
from tracker.headless.forecast import run_forecast  # noqa: E402

DEMOS = ("livehack", "beer-run", "fatigue", "pain-pool")
SEED = 20


def seconds(path: Path, runs: int, jobs: int) -> float:
    state = storage.read(path).state
    start = time.perf_counter()
    run_forecast(state, runs, SEED, 50, jobs)
    return time.perf_counter() - start


def cpu_ms_per_fight(path: Path, repeats: int) -> float:
    job = job_bytes(storage.read(path).state, SEED, 50)
    simulate(job, 0, 3)  # the system loaded, its caches warm
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        simulate(job, 0, 100)
        best = min(best, time.process_time() - start)
    return best * 1000 / 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="update docs/performance.md")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    lines = [
        f"| demo | 1 job: {args.runs:,} fights | fights/s | 2 jobs: {args.runs:,} fights "
        "| fights/s | speed-up | one fight (CPU) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for demo in DEMOS:
        path = ROOT / "saves" / f"demo-{demo}.fight"
        one: list[float] = []
        two: list[float] = []
        for _ in range(args.repeats):
            one.append(seconds(path, args.runs, 1))
            two.append(seconds(path, args.runs, 2))
        a, b = statistics.median(one), statistics.median(two)
        lines.append(
            f"| {demo} | {a:.2f} s | {args.runs / a:,.0f} | {b:.2f} s | {args.runs / b:,.0f} "
            f"| {a / b:.2f}x | {cpu_ms_per_fight(path, args.repeats):.2f} ms |"
        )
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    print(text)
    if args.write:
        doc = ROOT / "docs" / "performance.md"
        start, end = "<!-- forecast:start -->", "<!-- forecast:end -->"
        before, rest = doc.read_text().split(start)
        _, after = rest.split(end)
        doc.write_text(f"{before}{start}\n{text}\n{end}{after}")


if __name__ == "__main__":
    main()
