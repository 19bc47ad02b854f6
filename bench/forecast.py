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
docs/contributing/performance.md.

``--by-count`` (issue 45) measures instead how a fight's cost grows with the combatants in it:
for each demo, fresh fights of 2, 10, 20 and 40 (``bench/crowd.py``), each played in a fresh
process (the CPU time of a few runs to a 20-round limit, over the rounds they played: a few
hundred rounds in all), K times, the median; with ``--before DIR`` (an older checkout, e.g. a
``git worktree`` of main) its rules are measured beside this one's, alternated, on the same
crowds. Then Generic d20's fresh four-against-six fight (``tracker new`` as the issue made it),
``tracker forecast --runs 1000 --jobs 2`` as a whole command, K times each checkout,
alternated: wall time and CPU. ``--write`` puts those tables into docs/contributing/performance/.

``--fresh`` (issue 41) measures only the fresh fights, that four-against-six and the same four
heroes against the SRD's Adult Red Dragon (its actions played by the solo policy), with
``--before DIR`` beside an older checkout; ``--write`` puts both into the dragon's table.
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
COUNTS = (2, 10, 20, 40)
COUNT_ROUNDS = 20  # the round limit of the crowds' runs (a crowd of 40 may never end)
CROWD = ROOT / "bench" / "crowd.py"
# One crowd's runs in a fresh process, on the rules of ``root``: the crowd is built by this
# checkout's bench/crowd.py (an older checkout may have none), on that checkout's rules. The
# turns are counted by wrapping the core's turn passing (a call a turn: nothing beside a fight).
BY_COUNT = """
import importlib.util, sys, time
sys.path.insert(0, {root!r})
spec = importlib.util.spec_from_file_location("crowd", {crowd!r})
crowd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(crowd)
import rules.engine as engine
from rules.forecast import job_bytes, simulate
job = job_bytes(crowd.crowd({system!r}, {count}), 20, {rounds})
simulate(job, 0, 1)  # the system loaded, its caches warm
turns = [0]
passing = engine._next_turn
def counted(*args):
    turns[0] += 1
    return passing(*args)
engine._next_turn = counted
start = time.process_time()
tally = simulate(job, 1, 1 + {runs})
cpu = time.process_time() - start
print(cpu, sum(length * n for length, n in tally.lengths.items()), turns[0])
"""
# Generic d20's four heroes against six foes, fresh (issue 33's fight, issue 40's bound): the
# stat blocks bundled with it, as `tracker new --add` adds them.
FRESH_SYSTEM = "d20"
FRESH_ADD = (
    "Orla Vance",
    "Sefi Marrow",
    "Bram Quill",
    "Tamsin Holt",
    "Bog Goblin x4",
    "Hill Ogre x2",
)
# The same four heroes against the SRD's Adult Red Dragon (issue 41): its breath, Multiattack
# and legendary actions played by the solo policy; the bound is 3 s for 1,000 fights, 2 jobs.
DRAGON_ADD = ("Orla Vance", "Sefi Marrow", "Bram Quill", "Tamsin Holt", "Adult Red Dragon")
TRACKER = "import sys; sys.path.insert(0, {root!r}); from tracker.cli import main; sys.exit(main())"
# The fresh fight as `tracker new --add ...` saves it, written by a checkout's own code: an
# older checkout may not read this one's save format (its modules moved once, in issue 44).
WRITE_FRESH = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from rules.dice import SeededDice
try:
    from tracker.store import library, prepare, storage
except ImportError:
    from tracker import library, prepare, storage
fresh = prepare.new_history(
    "Fresh", {system!r}, SeededDice(1), library=library.load(None), foes={foes!r}
)
storage.write(Path({path!r}), fresh)
"""


def ceiling(path: Path, runs: int) -> list[float]:
    """The seconds of ``runs`` warm fights in this process, then split with a forked copy."""
    import os

    from rules.forecast import job_bytes, simulate
    from tracker.store import storage

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
    from tracker.headless import forecast_pool

    start = time.perf_counter()
    workers = forecast_pool.Workers(1 if way == "one" else 2)
    started = time.perf_counter() - start
    from tracker.store import storage

    state = storage.read(path).state  # aside: the same for one job and two
    figures = []
    for _ in range(2 if way == "app" else 1):
        start = time.perf_counter()
        forecast_pool.as_text(forecast_pool.run_forecast(state, runs, SEED, 50, workers))
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
    from tracker.store import storage

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
    from tracker.store.defaults import systems

    found = []
    for name in systems():
        demo = part(name, "demo")
        if demo is not None and get_system(name).solo_policies:
            found.append(str(demo.STEM))
    return found


def crowd_figures(root: Path, system: str, count: int, runs: int) -> tuple[float, int, int]:
    """CPU seconds, rounds played and turns passed of ``runs`` runs of a crowd of ``count``."""
    code = BY_COUNT.format(
        root=str(root), crowd=str(CROWD), system=system, count=count, rounds=COUNT_ROUNDS, runs=runs
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    cpu, rounds, turns = done.stdout.split()
    return float(cpu), int(rounds), int(turns)


def by_count(roots: dict[str, Path], runs: int, repeats: int) -> list[str]:
    """Per demo and crowd: CPU per round played and each checkout's ratio to its crowd of 2,
    a round and a turn (a round of 40 has many more turns than one of 2: the same fights,
    whatever the checkout, as their pinned forecasts say)."""
    names = list(roots)
    head = "| system | combatants | turns a round |"
    rule = "|---|---:|---:|"
    for name in names:
        head += f" {name}: CPU a round | x the 2's | a turn, x the 2's |"
        rule += "---:|---:|---:|"
    if len(names) == 2:
        head += " after ÷ before |"
        rule += "---:|"
    lines = [head, rule]
    from rules.registry import get_system

    for system in crowd_systems():
        first: dict[str, float] = {}
        first_turns = 0.0
        for count in COUNTS:
            seen: dict[str, list[float]] = {name: [] for name in names}
            per_round: list[float] = []
            for _ in range(repeats):
                for name in names:  # alternated: the load of the moment falls on both
                    cpu, rounds, turns = crowd_figures(
                        roots[name], system, count, max(runs // count, 3)
                    )
                    seen[name].append(cpu / rounds)
                    per_round.append(turns / rounds)
            turns_a_round = statistics.median(per_round)
            first_turns = first_turns or turns_a_round
            ordered = get_system(system).uses_turn_order  # else every side acts each round
            row = f"| {system} | {count} | {f'{turns_a_round:.1f}' if ordered else '-'} |"
            for name in names:
                each = statistics.median(seen[name])
                first.setdefault(name, each)
                a_turn = (each / turns_a_round) / (first[name] / first_turns)
                turn = f"{a_turn:.2f}x" if ordered else "-"
                row += f" {each * 1000:.2f} ms | {each / first[name]:.1f}x | {turn} |"
            if len(names) == 2:
                before, after = (statistics.median(seen[name]) for name in names)
                row += f" **{after / before:.2f}** |"
            lines.append(row)
            print(row, flush=True)
    return lines


def crowd_systems() -> list[str]:
    """Every system whose demo plays solo, by name (as ``demos`` finds them)."""
    from rules.registry import get_system, part
    from tracker.store.defaults import systems

    return [n for n in systems() if part(n, "demo") and get_system(n).solo_policies]


def fresh_forecast(
    roots: dict[str, Path], repeats: int, foes: tuple[str, ...] = FRESH_ADD
) -> list[str]:
    """A fresh fight (``foes``: the four-against-six, or the dragon's), ``tracker forecast
    --runs 1000 --jobs 2``: wall time and CPU (its workers' too) of the whole command, each
    checkout alternated."""
    import resource
    import tempfile

    from rules.registry import names as registered

    if FRESH_SYSTEM not in registered():
        return []
    lines = [
        "| checkout | wall, median (each) | CPU, median |",
        "|---|---:|---:|",
    ]
    seen: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in roots}
    with tempfile.TemporaryDirectory() as folder:
        fights = {}
        for number, (name, root) in enumerate(roots.items()):
            fights[name] = Path(folder) / f"fresh{number}.fight"
            code = WRITE_FRESH.format(
                root=str(root), system=FRESH_SYSTEM, foes=foes, path=str(fights[name])
            )  # its initiative rolled on seeded dice
            subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
        for repeat in range(repeats):
            for name, root in roots.items():
                command = [
                    sys.executable,
                    "-c",
                    TRACKER.format(root=str(root)),
                    "forecast",
                    str(fights[name]),
                    "--runs",
                    "1000",
                    "--jobs",
                    "2",
                    "--seed",
                    str(repeat + 1),
                ]
                used = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(command, capture_output=True, check=True, cwd=root)
                wall = time.perf_counter() - start
                now = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
                seen[name][0].append(wall)
                seen[name][1].append(cpu)
    for name, (walls, cpus) in seen.items():
        each = ", ".join(f"{wall:.2f}" for wall in walls)
        lines.append(
            f"| {name} | **{statistics.median(walls):.2f} s** ({each}) "
            f"| {statistics.median(cpus):.2f} s |"
        )
    print("\n".join(lines), flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--measure", nargs=3, metavar=("WAY", "SAVE", "RUNS"), help="internal")
    parser.add_argument(
        "--by-count", action="store_true", help="fights of 2 to 40 combatants, per round played"
    )
    parser.add_argument("--count-runs", type=int, default=200, help="runs at 1 combatant")
    parser.add_argument("--before", type=Path, help="an older checkout measured beside this one")
    parser.add_argument(
        "--fresh", action="store_true", help="only the fresh fights: the 4v6 and the dragon's"
    )
    args = parser.parse_args()
    if args.measure:
        way, path, runs = args.measure
        print(*measure(way, Path(path), int(runs)))
        return
    if args.by_count or args.fresh:
        roots = {"before": args.before.resolve()} if args.before else {}
        roots["after" if args.before else "this checkout"] = ROOT
        lines = by_count(roots, args.count_runs, args.repeats) if args.by_count else []
        fresh = fresh_forecast(roots, args.repeats)
        dragon = fresh_forecast(roots, args.repeats, DRAGON_ADD)
        if args.write and args.by_count:
            write_block("forecast-count", "\n".join(lines))
            if fresh:
                write_block("forecast-fresh", "\n".join(fresh))
        elif args.write and fresh:  # --fresh (issue 41): both fights, side by side
            both = ["Four heroes against six foes:", "", *fresh, ""]
            both += ["Four heroes against the Adult Red Dragon:", "", *dragon]
            write_block("forecast-dragon", "\n".join(both))
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
