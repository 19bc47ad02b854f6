"""A long fight on a served table: what players' view of it costs the loop every seat shares.

Run: ``.venv/bin/python bench/table_long.py [--write] [--runs N]``. On the big fight
(``bench/big.py``: 200 combatants, 20,000 log entries) with a player seated, in CPU time
(``time.process_time``), the median of ``--runs``:

- players' view of the whole fight worked out (``rules.visibility.follow``), as a player's
  join and the first change after a hidden combatant appears do;
- a note by the GM, and its undo, with a player seated: the undo goes back to what players
  saw before the note (``tracker.serve.seats.SEEN_BEFORE`` records are remembered);
- an undo further back than what is remembered (of a record the save brought): through the
  whole history again, as every undo went before issue 45's last pass.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.big import big_fight  # noqa: E402
from bench.doc import write_block  # noqa: E402
from rules.commands import AddNote  # noqa: E402
from rules.dice import SeededDice  # noqa: E402
from rules.history import History  # noqa: E402
from rules.visibility import Viewer, follow, hidden_ids  # noqa: E402
from tracker.serve.seats import Table  # noqa: E402
from tracker.session import EncounterSession  # noqa: E402
from tracker.store.defaults import systems  # noqa: E402

PLAYER = Viewer(role="player", name="Alice")


def cpu(work: Callable[[], object]) -> float:
    began = time.process_time()
    work()
    return time.process_time() - began


def one_run(fight: History) -> tuple[float, float, float, float]:
    session = EncounterSession(History.from_records(fight.records), SeededDice(1), None)
    history = session.history
    hidden = frozenset(hidden_ids(history.effective_events(), history.state))
    view = cpu(lambda: follow(history.in_effect(), history.state, hidden))
    table = Table(session)
    table.subscribe_public(lambda change: None)  # a seat listening
    table.sight(PLAYER)
    note = cpu(lambda: (session.execute(AddNote("a note", None)), table.sight(PLAYER)))
    remembered = cpu(lambda: (session.undo(), table.sight(PLAYER)))
    refolded = cpu(lambda: (session.undo(), table.sight(PLAYER)))
    table.close()
    return view, note, remembered, refolded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/contributing/")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--combatants", type=int, default=200)
    parser.add_argument("--entries", type=int, default=20_000)
    args = parser.parse_args()
    system = systems()[0]
    fight = big_fight(system, args.combatants, args.entries)
    runs = [one_run(fight) for _ in range(args.runs)]
    columns = zip(*runs, strict=True)
    view, note, remembered, refolded = (statistics.median(column) for column in columns)
    label = f"{args.combatants} combatants, {args.entries:,} log entries, {system}"
    rows = [
        f"| {label}: CPU, median of {args.runs} | ms | ratio to the undo remembered |",
        "|---|---:|---:|",
        f"| players' view of the whole fight (a join) | {view * 1000:.0f} | "
        f"{view / remembered:.0f}x |",
        f"| the GM's note, a player seated | {note * 1000:.1f} | {note / remembered:.2f}x |",
        f"| its undo (remembered) | {remembered * 1000:.1f} | 1.00x |",
        f"| an undo further back (through the history) | {refolded * 1000:.0f} | "
        f"{refolded / remembered:.0f}x |",
    ]
    text = "\n".join(rows)
    print(text)
    if args.write:
        write_block("tablelong", text)


if __name__ == "__main__":
    main()
