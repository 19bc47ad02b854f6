"""Difficulty benchmark (issue 43, item 4): a fight's difficulty at prep, as a whole command.

Run: ``.venv/bin/python bench/difficulty.py [--write] [--repeats K]``. Generic d20's fresh
four-against-six fight (``bench/forecast.py``'s, as ``tracker new --add`` makes it) and each
demo, each measured K times (3), alternated, in fresh processes with two jobs:

- ``tracker forecast FILE --brief --jobs 2``: the difficulty, stopped at the first batch
  (100, 200, 400, 1,000 fights) whose band is settled;
- the same with every batch played (the band never taken as settled: the cost of a fight on
  an edge, the worst case);
- ``tracker forecast FILE --runs 1000 --jobs 2``: the whole forecast, for scale.

Each: the median wall time (and each), the median CPU of the command and its workers, and the
fights the difficulty played. ``--write`` puts the table into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402
from bench.forecast import FRESH_ADD, FRESH_SYSTEM  # noqa: E402

TRACKER = "import sys; sys.path.insert(0, {root!r}); from tracker.cli import main; sys.exit(main())"
# Every batch played: the band is never settled, as for a fight whose chances sit on an edge.
EVERY_BATCH = (
    "import sys; sys.path.insert(0, {root!r}); import tracker.headless.difficulty_runs as d; "
    "d.settled = lambda counts: None; from tracker.cli import main; sys.exit(main())"
)
WAYS = {
    "difficulty (`--brief`)": (TRACKER, ("--brief", "--json")),
    "difficulty, every batch": (EVERY_BATCH, ("--brief", "--json")),
    "whole forecast (`--runs 1000`)": (TRACKER, ("--runs", "1000", "--seed", "0")),
}


def timed(code: str, fight: Path, extra: tuple[str, ...]) -> tuple[float, float, int]:
    """Wall and CPU seconds (the workers' too) of one command, and the fights it played."""
    command = [
        sys.executable,
        "-c",
        code.format(root=str(ROOT)),
        "forecast",
        str(fight),
        "--jobs",
        "2",
        *extra,
    ]
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    wall = time.perf_counter() - start
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    runs = json.loads(done.stdout)["runs"] if "--brief" in extra else 1000
    return wall, cpu, runs


def fights(folder: Path) -> dict[str, Path]:
    """The fresh four-against-six fight, then each demo's save."""
    from rules.dice import SeededDice
    from rules.registry import names
    from tracker.demos import DEMOS
    from tracker.store import library, prepare, storage

    found: dict[str, Path] = {}
    if FRESH_SYSTEM in names():
        fresh = prepare.new_history(
            "Fresh", FRESH_SYSTEM, SeededDice(1), library=library.load(None), foes=FRESH_ADD
        )
        found["fresh 4 vs 6 (Generic d20)"] = folder / "fresh.fight"
        storage.write(found["fresh 4 vs 6 (Generic d20)"], fresh)
    for stem in DEMOS:
        found[stem] = ROOT / "saves" / f"{stem}{storage.SUFFIX}"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only-fresh", action="store_true", help="the fresh fight alone")
    args = parser.parse_args()
    lines = [
        "| fight | way | fights | wall, median (each) | CPU, median |",
        "|---|---|---:|---:|---:|",
    ]
    with tempfile.TemporaryDirectory() as folder:
        chosen = fights(Path(folder))
        if args.only_fresh:
            chosen = dict(list(chosen.items())[:1])
        for name, fight in chosen.items():
            seen: dict[str, list[tuple[float, float, int]]] = {way: [] for way in WAYS}
            for _ in range(args.repeats):
                for way, (code, extra) in WAYS.items():
                    seen[way].append(timed(code, fight, extra))
            for way, figures in seen.items():
                walls = [f[0] for f in figures]
                each = ", ".join(f"{w:.2f}" for w in walls)
                lines.append(
                    f"| {name} | {way} | {figures[0][2]:,} | **{statistics.median(walls):.2f} s** "
                    f"({each}) | {statistics.median(f[1] for f in figures):.2f} s |"
                )
                print(lines[-1], flush=True)
    if args.write:
        write_block("difficulty", "\n".join(lines))


if __name__ == "__main__":
    main()
