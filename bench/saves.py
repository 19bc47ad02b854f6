"""Save benchmark: append cost as the log grows, open and seek time, bytes per event.

Run: ``.venv/bin/python bench/saves.py [--before DIR] [--write]``. Figures are medians measured
side by side in one run; ``--write`` puts the table into docs/contributing/performance/. Compare
the ratios, not the absolute times: machines differ. ``--before DIR`` (an older checkout, e.g. a
``git worktree`` of main) has that checkout write each fight too (read from the save as
format 4 wrote it), and its bytes per event stand beside this checkout's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.big import default_roll
from bench.doc import write_block
from bench.replay import as_format_4
from rules.commands import AddCombatant, AddNote, NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system
from rules.replay import Timeline
from tracker.session import EncounterSession
from tracker.store import storage
from tracker.store.defaults import systems

SIZES = (10, 1_000, 100_000)
APPENDS = 200


def fight(records: int) -> History:
    """A fight of about ``records`` records: rolls, turns and notes among six combatants, in
    the first listed system (its roll dialog's defaults, so any system's folder will do; a
    roll its rules refuse there is a note instead)."""
    rules = get_system(systems()[0])
    history = History(new_encounter("Bench", rules.name))
    dice = SeededDice(7)
    for number in range(6):
        history.commit(decide(history.state, AddCombatant(name=f"P{number}"), dice))
    step = 0
    while len(history.records) < records:
        state = history.state
        if step % 4 == 0:
            command: object = NextTurn()
        elif step % 4 == 3:
            command = AddNote(f"note {step}")
        else:
            command = default_roll(rules, state, state.current_id or "c1")
        try:
            events = decide(state, command, dice)
        except Rejected:
            events = decide(state, AddNote(f"no roll {step}"), dice)
        history.commit(events)
        step += 1
    return history


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


# Run by an older checkout: its own code first on the path, a save read and written again.
REWRITE = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
try:
    from tracker.store import storage
except ImportError:  # a checkout from before tracker/store/ (issue 44)
    from tracker import storage
storage.write(Path({copy!r}), storage.read(Path({path!r})))
"""


def written_before(root: Path, path: Path) -> int:
    """The bytes of the save at ``path`` as the checkout at ``root`` writes it."""
    older = path.with_name(f"older-{path.name}")
    older.write_bytes(as_format_4(path.read_bytes()))
    copy = path.with_name(f"rewritten-{path.name}")
    code = REWRITE.format(root=str(root), copy=str(copy), path=str(older))
    subprocess.run([sys.executable, "-c", code], check=True)
    return copy.stat().st_size


def measure(folder: Path, size: int, before: Path | None = None) -> dict[str, float]:
    history = fight(size)
    path = folder / f"bench-{size}.fight"
    storage.write(path, history)
    events = len(history.effective_events())
    bytes_per_event = path.stat().st_size / events
    older = written_before(before, path) / events if before else 0.0

    session = EncounterSession(storage.read(path), SeededDice(1), path)
    session.COMPACT_EVERY = 10**9  # appends only: compaction is measured on its own
    appends = []
    for number in range(APPENDS):
        start = time.perf_counter()
        session.execute(AddNote(f"bench {number}"))
        appends.append(time.perf_counter() - start)

    compact = []
    for number in range(3):
        # A change first: a session with nothing unsaved has nothing to compact, and
        # save() returns at once.
        session.execute(AddNote(f"before compaction {number}"))
        start = time.perf_counter()
        assert session.save() is None
        compact.append(time.perf_counter() - start)

    opens = []
    for _ in range(3):
        start = time.perf_counter()
        loaded = storage.read(path)
        opens.append(time.perf_counter() - start)

    start = time.perf_counter()
    timeline = Timeline(loaded)
    timeline_build = time.perf_counter() - start
    chance = random.Random(size)
    seeks = []
    for _ in range(50):
        where = chance.randrange(len(timeline))
        start = time.perf_counter()
        timeline.state_at(where)
        seeks.append(time.perf_counter() - start)
    session.close()
    return {
        "append": median_ms(appends),
        "compact": median_ms(compact),
        "open": median_ms(opens),
        "timeline": timeline_build * 1000,
        "seek": median_ms(seeks),
        "bytes": bytes_per_event,
        "before": older,
    }


def table(results: dict[int, dict[str, float]]) -> str:
    base = results[SIZES[0]]["append"]
    before = all(r["before"] for r in results.values())
    lines = [
        "| records in the log | append one event (median) | vs 10 records | compact (snapshot) "
        "| open | build replay timeline | seek to a random event (median) | bytes per event |"
        + (" before | ratio |" if before else ""),
        "|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if before else ""),
    ]
    for size, r in results.items():
        cells = [
            f"{size:,}",
            f"{r['append']:.2f} ms",
            f"{r['append'] / base:.2f}x",
            f"{r['compact']:.0f} ms",
            f"{r['open']:.0f} ms",
            f"{r['timeline']:.0f} ms",
            f"{r['seek']:.3f} ms",
            f"{r['bytes']:.0f}",
        ]
        if before:
            cells += [f"{r['before']:.0f}", f"{r['bytes'] / r['before']:.3f}x"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--before", type=Path, help="an older checkout, its save sizes beside")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results = {size: measure(Path(folder), size, args.before) for size in SIZES}
    text = table(results)
    print(text)
    if args.write:
        write_block("saves", text)


if __name__ == "__main__":
    main()
