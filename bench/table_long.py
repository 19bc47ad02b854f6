"""A long fight on a served table: what players' view of it costs the loop every seat shares.

Run: ``.venv/bin/python bench/table_long.py [--before DIR] [--runs N] [--write]``, ``DIR``
an older checkout (``git worktree add /tmp/old main``). On the big fight (``bench/big.py``:
200 combatants, 20,000 log entries), each run a fresh process per checkout, alternated, in
CPU time (``time.process_time``), the median of ``--runs``:

- a player's seat sitting down: the seat's app (``TableApp``, 80x24, headless) from the
  table's join to its first frame with the log drawn; the first player's, and a second's
  while the first is seated; and the memory each took (the process's resident set grown,
  after a garbage collection);
- a note by the GM, and its undo, with a player seated: the undo goes back to what players
  saw before the note (``tracker.serve.seats.SEEN_BEFORE`` records are remembered);
- an undo further back than what is remembered (of a record the save brought): on this
  fight the state it goes back to has a last roll players may not see, so what they see
  comes from the states before it (before issue 45, from the whole fight again,
  ``rules.visibility.follow``);
- a combatant the last roll names hidden by the GM: the roll is then one players may not
  see, the same.

The fight is saved and opened as ``tracker serve`` opens it (``storage.open_save``), so the
history knows the states a save opened knows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.checkouts import alternated  # noqa: E402
from bench.doc import write_block  # noqa: E402

# Run in a fresh process, with a checkout's own code first on the path.
TIMED = """
import asyncio, gc, json, sys, tempfile, time
sys.path.insert(0, {root!r})
from pathlib import Path
from bench.big import big_fight
from rules.commands import AddNote, EditCombatant
from rules.dice import SeededDice
from rules.mentions import mentioned
from rules.visibility import Viewer
from tracker.store import storage
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession
from tracker.store.defaults import systems
from tracker.widgets.roll_log import RollLog

PLAYER = Viewer(role="player", name="Alice")
saves = Path(tempfile.mkdtemp())
storage.write(saves / "long.fight", big_fight(systems()[0], {combatants}, {entries}))
session, _ = EncounterSession.resume(storage.open_save(saves / "long.fight"), SeededDice(1))
table = Table(session)
times = {{}}


def resident():
    gc.collect()
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096


def cpu(work):
    began = time.process_time()
    work()
    return time.process_time() - began


async def drawn(app):
    while not (app.screen.query(RollLog) and len(app.screen.query_one(RollLog).entries)):
        await asyncio.sleep(0.005)
    done = asyncio.get_running_loop().create_future()
    app.call_after_refresh(lambda: done.set_result(None))
    await done  # the frame that shows it drawn


async def seated(name, then):
    held = resident()
    began = time.process_time()
    app = TableApp(table, table.join("player", name), saves=saves)
    async with app.run_test(size=(80, 24)):
        await drawn(app)
        times[name] = time.process_time() - began
        times[name + " memory"] = resident() - held
        await then()


async def joins():
    async def second():
        await seated("Bob", none)

    async def none():
        pass

    await seated("Alice", second)

asyncio.run(joins())
table.subscribe_public(lambda change: None)  # a seat listening
table.sight(PLAYER)
times["note"] = cpu(lambda: (session.execute(AddNote("a note", None)), table.sight(PLAYER)))
times["remembered"] = cpu(lambda: (session.undo(), table.sight(PLAYER)))
times["refolded"] = cpu(lambda: (session.undo(), table.sight(PLAYER)))
state = session.state
named = mentioned(state.last_roll, frozenset(c.id for c in state.combatants if not c.gm_only))
hide = EditCombatant(combatant_id=sorted(named)[0], gm_only=True)
times["hidden"] = cpu(lambda: (session.execute(hide), table.sight(PLAYER)))
session.let_go()
print(json.dumps(times))
"""

ROWS = {
    "Alice": "a player sits down, the first (to the log drawn)",
    "Alice memory": "memory it takes (the process's resident growth)",
    "Bob": "a second player sits down, the first seated",
    "Bob memory": "memory the second takes",
    "note": "the GM's note, a player seated",
    "remembered": "its undo (remembered)",
    "refolded": "an undo further back, its last roll hidden",
    "hidden": "a combatant the last roll names hidden",
}


def shown(key: str, value: float) -> str:
    if key.endswith("memory"):
        return f"{value / 1e6:.1f} MB"
    return f"{value * 1000:.1f} ms" if value < 0.1 else f"{value * 1000:.0f} ms"


def table(found: dict[str, list[dict[str, float]]], runs: int, label: str) -> str:
    names = list(found)
    both = len(names) > 1
    head = f"| {label} (median of {runs} fresh processes, CPU) | " + " | ".join(names)
    rows = [head + (" | ratio |" if both else " |"), "|---|" + "---:|" * (len(names) + both)]
    for key, what in ROWS.items():
        values = [statistics.median(run[key] for run in found[name]) for name in names]
        cells = " | ".join(shown(key, v) for v in values)
        ratio = f" | {values[-1] / values[0]:.2f}x" if both else ""
        rows.append(f"| {what} | {cells}{ratio} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/contributing/")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--combatants", type=int, default=200)
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--before", type=Path, help="an older checkout, timed beside this one")
    args = parser.parse_args()
    roots = {"this checkout": ROOT}
    if args.before:
        roots = {"before": args.before, **roots}
    sizes = {"combatants": args.combatants, "entries": args.entries}
    found = alternated(args.runs, roots, lambda name, root: TIMED.format(root=str(root), **sizes))
    label = f"{args.combatants} combatants, {args.entries:,} log entries"
    text = table(found, args.runs, label)
    print(text)
    if args.write:
        write_block("tablelong", text)


if __name__ == "__main__":
    main()
