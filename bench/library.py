"""Library benchmark: a library of some 350 stat blocks read, listed in the app's `a` dialog,
and the `:` line opened, this checkout beside an older one.

Run: ``.venv/bin/python bench/library.py [--before DIR] [--runs N] [--blocks N] [--write]``.
The library is the bundled set of the system that has most stat blocks (with the SRD
bestiary, its 334), with ``--blocks`` more copied from it under names of their own into a
user library folder made for the run (0: the bundled set alone; no system is named here).
Each run is two fresh processes a checkout, this one and ``--before DIR`` (a ``git worktree``
of main) alternated, so both see the same load:

- the reading alone: ``library.load`` of that folder, the first time in the process and again;
- the app (headless, 80x24, the system's demo or an empty fight): start to the encounter's
  first frame; then, a second after it (a GM's pause before a key), `a` to the first frame
  of the dialog listing every stat block, `escape` and `a` again, and `:` to the prompt.

``--write`` puts the table into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402

# Self-contained (only ``tracker`` and ``rules`` from ``root``), so an older checkout runs it
# the same way; prints its figures in ms, space-separated.
READ = """
import sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from tracker.store import library

folder, system = Path({folder!r}), {system!r}
started = time.perf_counter()
library.load(folder)
first = time.perf_counter() - started
started = time.perf_counter()
found = library.load(folder)
again = time.perf_counter() - started
print(len(found.of(system)), round(first * 1000, 1), round(again * 1000, 1))
"""
APP = """
import asyncio, sys, time
sys.path.insert(0, {root!r})
from pathlib import Path
from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.session import EncounterSession

folder, saves, system, total = Path({folder!r}), Path({saves!r}), {system!r}, {total!r}
demo = next((b for b in DEMOS.values() if b().state.system == system), None)
history = demo() if demo else History(new_encounter("Bench", system))
session = EncounterSession(history, SeededDice(1), saves / "bench.fight")
app = TrackerApp(session, saves=saves, library=folder)
frames = []
display = app._display

def recording(screen, renderable):
    if renderable is not None:
        shown, listed = app.screen, None
        if type(shown).__name__ == "LibraryScreen":
            listed = shown.query_one("#stat-blocks").option_count
        frames.append((time.perf_counter(), type(shown).__name__, listed))
    display(screen, renderable)

app._display = recording

async def until_frame(pilot, after, wanted):
    while not any(t > after and wanted(name, listed) for t, name, listed in frames):
        await pilot.pause()
    return next(t for t, name, listed in frames if t > after and wanted(name, listed)) - after

async def main(started):
    out = []
    async with app.run_test(size=(80, 24)) as pilot:
        out.append(await until_frame(pilot, started, lambda n, _: n == "EncounterScreen"))
        await asyncio.sleep(1.0)
        for _ in range(2):
            pressed = time.perf_counter()
            await pilot.press("a")
            out.append(await until_frame(
                pilot, pressed, lambda n, listed: n == "LibraryScreen" and listed == total + 1
            ))
            await pilot.press("escape")
            while type(app.screen).__name__ != "EncounterScreen":
                await pilot.pause()
            await pilot.pause()
        pressed = time.perf_counter()
        await pilot.press("colon")
        out.append(await until_frame(pilot, pressed, lambda n, _: n == "CommandLineScreen"))
    session.let_go()
    return out

print(*(round(x * 1000, 1) for x in asyncio.run(main(time.perf_counter()))))
"""
ROWS = (
    "`library.load`, the first in a process",
    "`library.load` again",
    "the app: start to the encounter's first frame",
    "`a`: the dialog listing them all, the first time",
    "`a` again",
    "`:` the prompt (it reads the library too)",
)


def make_library(folder: Path, count: int) -> str:
    """``count`` stat blocks copied from the bundled set of the system with most, each under a
    name of its own, into ``folder``; the system's name."""
    from collections import Counter

    from tracker.store import library

    bundled = library.load(None)
    system = Counter(e.system for e in bundled.entries).most_common(1)[0][0]
    mine = [e for e in bundled.of(system) if e.path is not None]
    (folder / system).mkdir(parents=True)
    for i in range(count):
        entry = mine[i % len(mine)]
        assert entry.path is not None
        text = library.read_text(entry.path)
        named = text.replace(f'name = "{entry.name}"', f'name = "{entry.name} {i:03d}"', 1)
        (folder / system / f"block-{i:03d}.toml").write_text(named, encoding="utf-8")
    return system


def _run(code: str, root: Path) -> list[float]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{root}: {done.stderr.strip().splitlines()[-3:]}")
    return [float(x) for x in done.stdout.split()]


def run_once(root: Path, folder: Path, system: str) -> list[float]:
    """The count of stat blocks, then each row's figure: the reading, then the app."""
    read = _run(READ.format(root=str(root), folder=str(folder), system=system), root)
    with tempfile.TemporaryDirectory() as saves:
        code = APP.format(
            root=str(root), folder=str(folder), saves=saves, system=system, total=int(read[0])
        )
        return read + _run(code, root)


def table(medians: dict[str, list[float]], total: int, runs: int) -> str:
    names = list(medians)
    head = f"| {total} stat blocks (median of {runs} runs) | " + " | ".join(names)
    head += " | ratio |" if len(names) == 2 else " |"
    lines = [head, "|---" + "|---:" * (len(names) + (len(names) == 2)) + "|"]
    for i, row in enumerate(ROWS):
        cells = [f"{medians[n][i]:.0f} ms" for n in names]
        if len(names) == 2:
            before, after = medians[names[0]][i], medians[names[1]][i]
            cells.append(f"{after / before:.3f}x" if before else "-")
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older checkout to time beside this one")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--blocks", type=int, default=0, help="stat blocks added to the bundled")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-library-"))
    try:
        system = make_library(work / "lib", args.blocks)
        checkouts = [("this checkout", ROOT)]
        if args.before:
            checkouts.insert(0, ("before", args.before.resolve()))
        figures: dict[str, list[list[float]]] = {name: [] for name, _ in checkouts}
        total = 0
        for _ in range(args.runs):
            for name, root in checkouts:  # alternated, so both see the same load
                found = run_once(root, work / "lib", system)
                total = int(found[0])
                figures[name].append(found[1:])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    medians = {
        name: [statistics.median(run[i] for run in runs) for i in range(len(ROWS))]
        for name, runs in figures.items()
    }
    text = table(medians, total, args.runs)
    print(text)
    if args.write:
        write_block("library", text)


if __name__ == "__main__":
    main()
