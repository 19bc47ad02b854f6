"""Tune and swings benchmark (issue 43, items 2 to 4): the whole commands, as a user runs them.

Run: ``.venv/bin/python bench/tune.py [--write] [--repeats K] [--jobs J]``.

- **Tune**: Generic d20's fresh four-against-six fight (``bench/forecast.py``'s, as ``tracker
  new --add`` makes it), then ``tracker tune FILE --party-wins P% --jobs J`` for P of 20%, 50%
  and 80%, K seeds each: wall time and CPU (this process's children: the command and its
  workers). Target: a tune under 20 s.
- **Swings**: a fight of 100 events, played by solo policy from a fresh crowd of each system
  with a demo (``bench/crowd.py``: 6 combatants, or 10 or 16 where 6 end the fight sooner;
  every move logged as the table logs it),
  saved; then ``tracker export FILE --swings --jobs J``, K seeds: wall and CPU. Target: under
  30 s.

``uptime``'s load average is printed before and after: on a shared machine the wall times say
as much about the load as about the commands, the CPU times less. ``--write`` puts the tables
into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import os
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

TARGETS = ("20%", "50%", "80%")
EVENTS = 100
CROWDS = (6, 10, 16)  # combatants


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the command and its workers, and its stdout's last line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    lines = done.stdout.strip().splitlines()
    return wall, cpu, lines[-2] if len(lines) > 1 else ""


def tracker(*args: str) -> list[str]:
    return [sys.executable, "-m", "tracker", *args]


def fresh_fight(folder: Path) -> Path:
    adds = [part for name in FRESH_ADD for part in ("--add", name)]
    from rules.dice import SeededDice
    from tracker.store import library, storage
    from tracker.store.prepare import new_history

    history = new_history(
        "Fresh",
        FRESH_SYSTEM,
        SeededDice(1),
        library=library.load(None),
        foes=[adds[i + 1] for i in range(0, len(adds), 2)],
    )
    path = folder / "fresh.fight"
    storage.write(path, history)
    return path


def played(system: str, folder: Path) -> Path:
    """A fight of ``EVENTS`` events, every move logged as the table logs it: the smallest
    crowd whose fight lasts that long (or the biggest's, to its end)."""
    from tracker.store import storage

    for people in CROWDS:
        path = played_by(system, people, folder)
        if len(storage.read(path).effective_events()) >= EVENTS:
            break
    return path


def played_by(system: str, people: int, folder: Path) -> Path:
    from bench.crowd import crowd
    from rules.commands import AddCombatant, AddCombatants, NextTurn
    from rules.dice import SeededDice
    from rules.engine import decide_own, new_encounter
    from rules.errors import Rejected
    from rules.history import History
    from rules.outcome import outcome
    from rules.registry import get_system
    from tracker.store import storage

    start = crowd(system, people)
    history = History(new_encounter(f"Swings {system}", system))
    members = tuple(AddCombatant(name=c.name, side=c.side, sheet=c.sheet) for c in start.combatants)
    dice = SeededDice(43)
    history.commit(decide_own(history.state, AddCombatants(members), dice), "the crowd")
    rules = get_system(system)
    history.commit(decide_own(history.state, _solo(history.state), dice), "all solo")
    acted: set[str] = set()
    while len(history.effective_events()) < EVENTS and not outcome(history.state).over:
        state = history.state
        move = rules.solo_move(state) or rules.forecast_move(state, frozenset(acted))
        command = move.command if move is not None and move.command is not None else NextTurn()
        if move is not None:
            acted.add(move.actor_id)
        try:
            events = decide_own(state, command, dice)
        except Rejected:
            events = []
        if not events:
            events = decide_own(state, NextTurn(), dice)
        if isinstance(command, NextTurn) or not events:
            acted.clear()
        history.commit(events, type(command).__name__)
    path = folder / f"swings-{system}.fight"
    storage.write(path, history)
    return path


def _solo(state: object) -> object:
    from rules.commands import SetSolo  # every side by the tracker, as a forecast plays it

    sides = list(dict.fromkeys(c.side for c in state.combatants))  # type: ignore[attr-defined]
    if len(sides) == 1:
        return SetSolo(sides[0])
    from rules.commands import Commands

    return Commands(tuple(SetSolo(side) for side in sides))


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("tune", "swings"))
    args = parser.parse_args()
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "")
    print(uptime())
    tune_rows, swing_rows = [], []
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        if args.only in (None, "tune"):
            fight = fresh_fight(folder)
            for target in TARGETS:
                walls, cpus, said = [], [], ""
                for seed in range(1, args.repeats + 1):
                    wall, cpu, said = timed(
                        tracker(
                            "tune",
                            str(fight),
                            "--party-wins",
                            target,
                            "--jobs",
                            str(args.jobs),
                            "--seed",
                            str(seed),
                        )
                    )
                    walls.append(wall)
                    cpus.append(cpu)
                    print(f"tune {target} seed {seed}: {wall:.1f} s, {cpu:.1f} s CPU: {said}")
                tune_rows.append(_row(f"party wins {target}", walls, cpus))
        if args.only in (None, "swings"):
            from tracker.store.defaults import systems

            for system in systems():
                from rules.registry import part

                if part(system, "demo") is None:
                    continue
                save = played(system, folder)
                from tracker.store import storage

                events = len(storage.read(save).effective_events())
                walls, cpus = [], []
                for seed in range(1, args.repeats + 1):
                    wall, cpu, _ = timed(
                        tracker(
                            "export",
                            str(save),
                            "--swings",
                            "--jobs",
                            str(args.jobs),
                            "--seed",
                            str(seed),
                            "--format",
                            "json",
                        )
                    )
                    walls.append(wall)
                    cpus.append(cpu)
                    print(
                        f"swings {system} ({events} events) seed {seed}: {wall:.1f} s, "
                        f"{cpu:.1f} s CPU"
                    )
                swing_rows.append(_row(f"{system}, {events} events", walls, cpus))
    print(uptime())
    tables = []
    if tune_rows:
        tables.append(("tune", _table("tracker tune (fresh 4 against 6, d20)", tune_rows)))
    if swing_rows:
        tables.append(("swings", _table("tracker export --swings", swing_rows)))
    for block, text in tables:
        print(text)
        if args.write:
            write_block(block, text)


def _row(what: str, walls: list[float], cpus: list[float]) -> str:
    return (
        f"| {what} | {statistics.median(walls):.1f} s ({min(walls):.1f}-{max(walls):.1f}) | "
        f"{statistics.median(cpus):.1f} s |"
    )


def _table(title: str, rows: list[str]) -> str:
    return "\n".join(
        [f"| {title} | wall (median, range) | CPU (median) |", "|---|---:|---:|", *rows]
    )


if __name__ == "__main__":
    main()
