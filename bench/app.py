"""App benchmark: start to the first full frame, and a roll's key press to the updated frame.

Run: ``.venv/bin/python bench/app.py [--write] [--runs N] [--entries N]``. Everything is
headless (``App.run_test()``). Start is measured in fresh processes, from the interpreter's
start (so imports count) to the first frame that shows the encounter, against a minimal
Textual app started the same way (our modules byte-compiled first, as Textual's are);
the ratio is what to compare. Key-to-frame is measured
in one process: from the key press to the first frame that shows its result, with the
first listed system's demo where `r` and Enter roll (LiveHack's, 4 combatants) and with
that system's big fight (200 combatants, 20,000 log entries). The big fight is also opened
from its save at 80x24 in fresh processes (start to the first frame, then `r` to the roll
dialog), beside an older checkout's (``--before DIR``, e.g. a ``git worktree`` of main)
alternated run by run, as a ratio, and beside the demo opened by the same script at the
same size (the target); ``--long-only`` times only that.
``--write`` puts the tables into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402

if TYPE_CHECKING:  # each start imports this module: our modules are imported where used
    from rules.history import History

SIZE = (120, 40)
LONG_SIZE = (80, 24)
PATIENCE = 120.0  # seconds a key's frame may take before the bench stops, saying which
DEMO = "the demo"  # its row beside the checkouts' in long_fight_times

# Each start is a fresh process; it prints the seconds from its own start to the first frame.
# The collector is off until then, as in `tracker` itself (which the app relies on).
START_TRACKER = """
import asyncio, gc, sys, time
gc.disable()  # as `tracker` starts (tracker.cli.with_saves.play): on again at the first frame
from pathlib import Path
sys.path.insert(0, {root!r})
from bench.app import first_frame
from tracker.store import storage
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from rules.dice import SeededDice
opened = storage.play_copy_of_demo(Path({demo!r}), Path({saves!r}))
session, _ = EncounterSession.resume(opened, SeededDice(1))
print(asyncio.run(first_frame(TrackerApp(session, saves=Path({saves!r})), "EncounterScreen")))
"""
# A long fight opened at 80x24 in a fresh process: seconds from the process's start to the
# encounter's first frame with its log laid out (headless, a frame comes before the log has
# its width: the old log wrapped every entry only then), then from `r` to the roll dialog's
# frame. Self-contained (only ``tracker`` and ``rules`` from ``root``), so an older
# checkout runs it the same way.
START_LONG = """
import asyncio, gc, os, sys, time
gc.disable()  # as `tracker` starts (tracker.cli.with_saves.play): on again at the first frame
sys.path.insert(0, {root!r})
from pathlib import Path
from rules.dice import SeededDice
try:
    from tracker.store import storage
except ImportError:  # a checkout from before tracker/store/ (issue 44)
    from tracker import storage
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from tracker.widgets.roll_log import RollLog

def process_start():
    with open(f"/proc/{{os.getpid()}}/stat") as stat:
        ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as uptime:
        since_boot = float(uptime.read().split()[0])
    return time.perf_counter() - (since_boot - ticks / os.sysconf("SC_CLK_TCK"))

async def main():
    try:  # as `tracker open` does: the log checked after the first frame
        opened = storage.open_save(Path({fight!r}), check_later=True)
    except TypeError:  # a checkout from before that
        opened = storage.open_save(Path({fight!r}))
    session, _ = EncounterSession.resume(opened, SeededDice(1))
    app = TrackerApp(session, saves=Path({saves!r}))
    frames = []
    display = app._display
    def shown():
        name = type(app.screen).__name__
        if name != "EncounterScreen":
            return name
        laid_out = app.screen.query_one(RollLog).virtual_size.height > 0
        return name if laid_out else "not laid out"
    def recording(screen, renderable):
        if renderable is not None:
            frames.append((time.perf_counter(), shown()))
        display(screen, renderable)
    app._display = recording
    async with app.run_test(size=(80, 24)) as pilot:
        while not any(name == "EncounterScreen" for _, name in frames):
            await pilot.pause()
        first = next(t for t, name in frames if name == "EncounterScreen")
        pressed = time.perf_counter()
        await pilot.press("r")
        while not any(t > pressed and name == "FormScreen" for t, name in frames):
            await pilot.pause()
        dialog = next(t for t, name in frames if t > pressed and name == "FormScreen")
    session.let_go()
    print(first - process_start(), dialog - pressed)

asyncio.run(main())
"""
START_MINIMAL = """
import asyncio, sys
sys.path.insert(0, {root!r})
from bench.app import first_frame
from textual.app import App
from textual.widgets import Footer, Label

class Minimal(App):
    def compose(self):
        yield Label("Hello")
        yield Footer()

print(asyncio.run(first_frame(Minimal(), "Screen")))
"""


def watch_frames(app: object, probe: Callable[[], object]) -> list[tuple[float, object]]:
    """Record (time, probe()) at every frame the app draws (headless, it still composes one)."""
    frames: list[tuple[float, object]] = []
    display = app._display  # type: ignore[attr-defined]

    def recording(screen: object, renderable: object) -> None:
        if renderable is not None:
            frames.append((time.perf_counter(), probe()))
        display(screen, renderable)

    app._display = recording  # type: ignore[attr-defined]
    return frames


async def first_frame(app: object, screen_name: str) -> float:
    """Seconds from the process's start to the app's first frame of ``screen_name``."""
    frames = watch_frames(app, lambda: type(app.screen).__name__)  # type: ignore[attr-defined]
    async with app.run_test(size=SIZE) as pilot:  # type: ignore[attr-defined]
        while not any(name == screen_name for _, name in frames):
            await pilot.pause()
    at = next(t for t, name in frames if name == screen_name)
    return at - _process_start()


def _process_start() -> float:
    """The process's start on the perf_counter clock (Linux: from /proc)."""
    import os

    with open(f"/proc/{os.getpid()}/stat") as stat:
        started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as uptime:
        now_since_boot = float(uptime.read().split()[0])
    ticks = os.sysconf("SC_CLK_TCK")
    age = now_since_boot - started_ticks / ticks
    return time.perf_counter() - age


def compile_sources() -> None:
    """Byte-compile our modules, as installing the package does.

    Textual comes byte-compiled by pip, but with PYTHONDONTWRITEBYTECODE set (as on the
    bench machine) an editable checkout would compile every one of our modules from source
    at each start, about 0.15 s that no installed tracker pays.
    """
    for package in ("rules", "tracker"):
        compileall.compile_dir(ROOT / package, quiet=1)


def start_times(runs: int, saves: Path, demo: Path) -> tuple[list[float], list[float]]:
    compile_sources()
    ours, minimal = [], []
    for _ in range(runs):  # alternated, so both see the same machine load
        for script, out in ((START_TRACKER, ours), (START_MINIMAL, minimal)):
            code = script.format(root=str(ROOT), demo=str(demo), saves=str(saves))
            done = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            out.append(float(done.stdout.strip().splitlines()[-1]))
    return ours, minimal


# The big fight written by a checkout's own code, in its own save format: an older
# checkout (``--before``) may not read this one's saves. Its storage module moved once.
# Each record is stamped as the app stamps it (a float: a save of a fight played holds one
# in every record), one every 7 seconds.
WRITE_FIGHT = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
import msgspec
from bench.big import big_fight
from rules.history import Applied, History
try:
    from tracker.store import storage
except ImportError:
    from tracker import storage
fight = big_fight({system!r}, {combatants}, {entries})
fight = History.from_records(
    msgspec.structs.replace(record, at=1_000_000.0 + 7 * number)
    if number and isinstance(record, Applied) else record
    for number, record in enumerate(fight.records)
)
storage.write(Path({path!r}), fight)
"""


def fights_for(
    roots: dict[str, Path], ours: Path, system: str, combatants: int, entries: int
) -> dict[str, Path]:
    """Per checkout, the big fight in its own save format (``ours`` for this one): the same
    seeded fight, stamped, saved by each checkout's own code."""
    fights = {}
    for name, root in roots.items():
        path = ours if root == ROOT else ours.with_name(f"{name.replace(' ', '-')}-{ours.name}")
        code = WRITE_FIGHT.format(
            root=str(root), path=str(path), system=system, combatants=combatants, entries=entries
        )
        subprocess.run(
            [sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(root)}
        )
        fights[name] = path
    return fights


def long_fight_times(
    runs: int, fights: dict[str, Path], saves: Path, roots: dict[str, Path], demo: Path
) -> tuple[dict[str, tuple[list[float], ...]], list[float]]:
    """Per checkout: (start to the first frame, `r` to the dialog, the whole process) of
    each fresh process opening ``fight`` at 80x24; the checkouts alternated, so all see the
    same machine load. The whole process counts the work left after the dialog showed.
    Under the name ``DEMO``, this checkout's ``demo`` (the target) opened the same way in
    each round; and, as the start benchmark times it, its first frame at 120x40."""
    for root in roots.values():
        for package in ("rules", "tracker"):
            compileall.compile_dir(root / package, quiet=1)
    opened = {**fights, DEMO: saves / f"opened-{demo.name}"}
    times: dict[str, tuple[list[float], ...]] = {name: ([], [], []) for name in [DEMO, *roots]}
    demos: list[float] = []
    for run in range(runs):
        code = START_TRACKER.format(root=str(ROOT), demo=str(demo), saves=str(saves))
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        demos.append(float(done.stdout.strip().splitlines()[-1]))
        shutil.copyfile(demo, opened[DEMO])  # as shipped, each time
        # In turn first and second: the second after the demo ran about 6% slower, the
        # same checkout twice (2026-12-04).
        order = list(roots.items())
        for name, root in [(DEMO, ROOT), *(order if run % 2 else order[::-1])]:
            code = START_LONG.format(root=str(root), fight=str(opened[name]), saves=str(saves))
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            whole = time.perf_counter() - started
            first, dialog = map(float, done.stdout.strip().splitlines()[-1].split())
            for kept, value in zip(times[name], (first, dialog, whole), strict=True):
                kept.append(value)
    return times, demos


# The big fight opened in a real terminal (tmux at 80x24, bench/terminal.py), each frame's
# word the screen, the log's length and the focused pane.
KEYS_TRACKER = """
from tracker.widgets.roll_log import RollLog

def _probe(app):
    try:
        count = len(app.screen.query_one(RollLog).entries)
    except Exception:
        count = -1  # a dialog is on top
    focused = getattr(app.focused, "id", None) or ""
    return f"{{type(app.screen).__name__}}:{{count}}:{{focused}}"

from tracker.cli import main
main(["--saves", {saves!r}, "open", {fight!r}])
"""
# A minimal Textual app whose `r` changes its label: the floor of a key to its frame.
KEYS_MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Label

class Minimal(App):
    BINDINGS = [("r", "press", "Press")]
    presses = 0

    def compose(self):
        yield Label("Hello")
        yield Footer()

    def action_press(self):
        self.presses += 1
        self.query_one(Label).update(f"Pressed {{self.presses}}")

def _probe(app):
    return f"Screen:{{app.presses}}"

Minimal().run()
"""


def terminal_keys(
    rounds: int, keys: int, fights: dict[str, Path], roots: dict[str, Path]
) -> dict[str, dict[str, list[float]]]:
    """Per checkout (and a minimal Textual app): seconds from a key sent to tmux to the first
    frame written that shows what it did, the big fight open in a real terminal at 80x24.
    Each round starts each program afresh, one after the other, and presses `r` (the roll
    dialog), `enter` (rolled: a longer log), `u` (undone), `tab` and `shift+tab` (the focus to
    the log and back) ``keys`` times; the first `r` of each process, which builds the dialog,
    is kept apart from the later ones."""
    from bench.terminal import Terminal, hook, python_env

    for root in roots.values():
        for package in ("rules", "tracker"):
            compileall.compile_dir(root / package, quiet=1)
    times: dict[str, dict[str, list[float]]] = {
        name: {
            what: []
            for what in (
                *("open", "roll", "pane", "open cpu", "roll cpu", "pane cpu"),
                *("first open", "first open cpu"),
            )
        }
        for name in [*roots, "minimal"]
    }
    for _ in range(rounds):
        for name, root in [*roots.items(), ("minimal", ROOT)]:
            terminal = Terminal(*LONG_SIZE)
            try:
                home = terminal.folder / "home"
                home.mkdir()
                copy = terminal.folder / "long.fight"  # the minimal app opens none
                shutil.copy(fights.get(name, fights["this checkout"]), copy)
                script = KEYS_MINIMAL if name == "minimal" else KEYS_TRACKER
                code = hook(terminal.frames.path, "_probe(app)") + script.format(
                    saves=str(home), fight=str(copy)
                )
                terminal.start([sys.executable, "-c", code], python_env(root, home))
                _press_keys(terminal, keys, times[name], minimal=name == "minimal")
            finally:
                terminal.kill()
    return times


def _press_keys(terminal: object, keys: int, times: dict[str, list[float]], minimal: bool) -> None:
    frames = terminal.frames  # type: ignore[attr-defined]

    def send(key: str) -> float:
        # The program's CPU as the key went: at its last frame, or as the kernel counts it
        # if more (work done after a frame without one of its own: the log's check, after
        # the first frame, had its CPU counted in the first `r`).
        idle: float = terminal.cpu()  # type: ignore[attr-defined]
        sent: float = terminal.send(key)  # type: ignore[attr-defined]
        framed = max((f[3] for f in frames.read()[1] if f[0] < sent), default=0.0)
        busy[0] = max(framed, idle)
        return sent

    def timed(what: str, sent: float, done: tuple[float, str, int, float]) -> None:
        times[what].append(done[0] - sent)
        times[f"{what} cpu"].append(done[3] - busy[0])

    busy = [0.0]
    if minimal:
        frames.wait(lambda word: word == "Screen:0", after=0.0)
        frames.quiet()
        for press in range(keys):
            sent = send("r")
            done = frames.wait(lambda word, n=press + 1: word == f"Screen:{n}", after=sent)
            timed("first open" if press == 0 else "open", sent, done)
            timed("roll", sent, done)
            timed("pane", sent, done)
            frames.quiet()
        return
    frames.wait(lambda word: word.startswith("EncounterScreen:"), after=0.0)
    # A person reads the first frame before the first key: a second, in which the tracker
    # builds the roll dialog ahead (``EncounterScreen.build_ahead``). Not "quiet for a
    # second": the turn clock writes a frame every second.
    time.sleep(1.0)
    frames.quiet()
    # The log's length once the check read the whole save: a long fight's first frame shows
    # its newest entries alone (``EncounterScreen.reload``).
    count = int(frames.read()[1][-1][1].split(":")[1])
    for press in range(keys):
        sent = send("r")
        done = frames.wait(lambda word: word.startswith("FormScreen:"), after=sent)
        # The first `r` of a process builds the dialog; the later ones show it again.
        timed("first open" if press == 0 else "open", sent, done)
        frames.quiet()
        sent = send("Enter")
        done = frames.wait(
            lambda word, n=count: (
                word.startswith("EncounterScreen:") and int(word.split(":")[1]) > n
            ),
            after=sent,
        )
        timed("roll", sent, done)
        frames.quiet()
        sent = send("u")  # undone: the next `r` opens the dialog, not a question
        frames.wait(lambda word, n=count: word.startswith(f"EncounterScreen:{n}:"), after=sent)
        frames.quiet()
        for key, pane in (("Tab", "log"), ("BTab", "combatants")):  # BTab: tmux's shift+tab
            sent = send(key)
            done = frames.wait(lambda word, p=pane: word.endswith(f":{p}"), after=sent)
            timed("pane", sent, done)
            frames.quiet()


def terminal_keys_table(times: dict[str, dict[str, list[float]]], label: str) -> list[str]:
    names = list(times)
    floor = {key: statistics.median(times["minimal"][key]) for key in times["minimal"]}
    rows = [
        f"| {label}, 80x24 in tmux: key to the frame written (median) | "
        + " | ".join(names)
        + " |",
        "|---|" + "---:|" * len(names),
    ]
    for what, key in (
        ("`r`: the roll dialog (shown again)", "open"),
        ("`enter`: rolled", "roll"),
        ("`tab` / `shift+tab`: the focus to the log and back", "pane"),
        ("`r`: its CPU", "open cpu"),
        ("`enter`: its CPU", "roll cpu"),
        ("`tab` / `shift+tab`: its CPU", "pane cpu"),
        ("the first `r` of a process (the dialog built)", "first open"),
        ("the first `r`: its CPU", "first open cpu"),
    ):
        cells = []
        for name in names:
            median = statistics.median(times[name][key])
            cells.append(f"{median * 1000:.0f} ms ({median / floor[key]:.1f}x)")
        rows.append(f"| {what} | " + " | ".join(cells) + " |")
    rows.append("")
    rows.append(
        "(in brackets: times the minimal Textual app's key, a label changed, in the same run)"
    )
    return rows


def long_fight_table(
    measured: tuple[dict[str, tuple[list[float], ...]], list[float]],
    runs: int,
    label: str,
    stem: str,
) -> list[str]:
    """Each checkout's medians side by side; the ratio is the last one's over the first's;
    the demo's opened the same way last (the target), and the long fight's first frame over
    it, then over the demo's first frame as the start benchmark times it."""
    times, demos = dict(measured[0]), measured[1]
    target = times.pop(DEMO)
    names = list(times)
    head = f"| {label}, 80x24 (median of {runs} fresh processes) | " + " | ".join(names)
    rows = [head + " | ratio | the demo |" if len(names) > 1 else head + " | the demo |"]
    rows.append("|---|" + "---:|" * (len(names) + (len(names) > 1) + 1))
    for what, index in (
        ("start to the first frame with the log", 0),
        ("`r`: the roll dialog", 1),
        ("the whole process (open, `r`, quit)", 2),
    ):
        medians = [statistics.median(times[name][index]) for name in names]
        cells = " | ".join(f"{m * 1000:.0f} ms" for m in medians)
        ratio = f" | {medians[-1] / medians[0]:.3f}x" if len(names) > 1 else ""
        demo = statistics.median(target[index])
        rows.append(f"| {what} | {cells}{ratio} | {demo * 1000:.0f} ms |")
    first = statistics.median(times[names[-1]][0])
    same, earlier = statistics.median(target[0]), statistics.median(demos)
    rows += [
        "",
        f"The demo: {stem} opened in the same rounds by the same script at 80x24. This "
        f"checkout's long fight took {first / same:.2f} times its first frame with the log.",
        "",
        f"As the start benchmark times it (120x40, its first frame, the log not yet laid out) "
        f"the demo took {earlier * 1000:.0f} ms: the long fight took {first / earlier:.2f} "
        "times that.",
    ]
    return rows


async def key_to_frame(history: object, runs: int, saves: Path) -> dict[str, list[float]]:
    """Seconds from a key press to the first frame that shows what it did, per action."""
    from rules.dice import SeededDice
    from tracker.app import TrackerApp
    from tracker.session import EncounterSession
    from tracker.widgets.roll_log import RollLog

    session = EncounterSession(history, SeededDice(3), saves / "bench.fight")  # type: ignore[arg-type]
    session.save()
    app = TrackerApp(session, saves=saves)

    def probe() -> tuple[str, int, str, int]:
        screen = app.screen
        focused = getattr(app.focused, "id", None) or ""
        try:
            log = screen.query_one(RollLog)
        except Exception:
            return type(screen).__name__, -1, focused, -1  # a dialog is on top
        return type(screen).__name__, len(log.entries), focused, log.scroll_offset.y

    frames = watch_frames(app, probe)
    times: dict[str, list[float]] = {"open": [], "roll": [], "pane": [], "scroll": []}

    async def timed(name: str, keys: list[str], shown: Callable[[tuple], bool]) -> None:
        start = time.perf_counter()
        await pilot.press(*keys)
        while not any(t > start and shown(seen) for t, seen in frames):
            if time.perf_counter() - start > PATIENCE:  # a frame that never comes: say so
                raise SystemExit(f"{name}: no frame showed it in {PATIENCE:g} s; {probe()}")
            await pilot.pause()
        times[name].append(next(t for t, seen in frames if t > start and shown(seen)) - start)
        await pilot.pause()

    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        for _ in range(runs):
            before = len(log.entries)
            await timed("open", ["r"], lambda seen: seen[0] == "FormScreen")
            await timed("roll", ["enter"], lambda seen, n=before: seen[1] > n)
            await timed("pane", ["tab"], lambda seen: seen[2] == "log")
            end = log.scroll_offset.y
            await timed("scroll", ["pageup"], lambda seen, y=end: 0 <= seen[3] < y or y == 0)
            await pilot.press("end", "shift+tab")
            # Undone, so each run rolls from the same state: a roll leaves a result waiting
            # (d), and `r` over it asks first instead of opening the dialog, which then never
            # came (the bench once waited for it forever); rolls enough would end the fight.
            await pilot.press("u")
            while len(log.entries) != before:
                await pilot.pause()
    session.close()
    return times


def rolling_demo() -> tuple[str, History]:
    """The demo the bench plays, and its file's stem: the first listed system's (LiveHack's)
    where `r` then Enter rolls: nothing waits in it and its roll dialog's defaults make a roll.
    Found by the registry, so deleting any system's folder leaves the bench running."""
    from bench.big import default_roll
    from rules.dice import SeededDice
    from rules.engine import decide
    from rules.errors import Rejected
    from rules.registry import get_system, part
    from tracker.store.defaults import systems

    for name in systems():
        demo = part(name, "demo")
        if demo is None:
            continue
        history: History = demo.build()
        state, rules = history.state, get_system(name)
        if rules.pending(state) or not state.combatants:
            continue
        roll = default_roll(rules, state, state.current_id or state.combatants[0].id)
        try:
            if decide(state, roll, SeededDice(1)):
                return str(demo.STEM), history
        except Rejected:
            continue
    raise SystemExit("no system's demo rolls with its roll dialog's defaults")


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--combatants", type=int, default=200)
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument(
        "--before",
        type=Path,
        help="an older checkout whose long-fight start is timed beside this one's",
    )
    parser.add_argument("--long-only", action="store_true", help="only the long fight at 80x24")
    parser.add_argument(
        "--terminal-only",
        action="store_true",
        help="only the keys on the long fight in tmux at 80x24 (needs tmux)",
    )
    args = parser.parse_args()

    from bench.big import big_fight, log_length
    from tracker.store import storage

    stem, small = rolling_demo()
    with tempfile.TemporaryDirectory() as folder:
        saves = Path(folder)
        built = time.perf_counter()
        big = big_fight(small.state.system, args.combatants, args.entries)
        built = time.perf_counter() - built
        big_label = f"{len(big.state.combatants)} combatants, {log_length(big):,} log entries"
        fight = saves / f"long{storage.SUFFIX}"
        roots = {"before": args.before.resolve()} if args.before else {}
        roots["this checkout"] = ROOT
        fights = fights_for(roots, fight, small.state.system, args.combatants, args.entries)
        from bench.terminal import have_tmux

        if have_tmux():
            began, load = time.perf_counter(), os.getloadavg()[0]
            keys = terminal_keys(args.runs, 3, fights, roots)
            took, load = time.perf_counter() - began, max(load, os.getloadavg()[0])
            key_rows = terminal_keys_table(keys, big_label)
            print("\n".join(key_rows))
            print(f"({args.runs} rounds in {took:.0f} s; load average up to {load:.1f})")
            if args.write:
                write_block("keys", "\n".join(key_rows))
        else:
            print("no tmux: the keys in a real terminal are not timed")
        if args.terminal_only:
            return
        demo = ROOT / "saves" / (stem + storage.SUFFIX)
        long_rows = long_fight_table(
            long_fight_times(args.runs, fights, saves, roots, demo), args.runs, big_label, stem
        )
        print("\n".join(long_rows))
        print(f"(building the big fight took {built:.1f} s)")
        if args.write:
            write_block("longlog", "\n".join(long_rows))
        if args.long_only:
            return
        ours, minimal = start_times(args.runs, saves, ROOT / "saves" / (stem + storage.SUFFIX))
        rows = []
        for label, history in (
            (f"{len(small.state.combatants)} combatants, {log_length(small):,} log entries", small),
            (big_label, big),
        ):
            rows.append((label, asyncio.run(key_to_frame(history, args.runs, saves))))

    ratio = statistics.median(ours) / statistics.median(minimal)
    table = [
        f"| start to the first full frame | tracker ({stem}) | minimal Textual app | ratio |",
        "|---|---:|---:|---:|",
        f"| median of {args.runs} fresh processes | {ms(ours)} | {ms(minimal)} | {ratio:.2f}x |",
        "",
        "| encounter (median of each) | `enter`: roll, to the rolled frame | `r`: the roll "
        "dialog | `tab`: switch pane | `pgup`: scroll the log |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| {label} | {ms(t['roll'])} | {ms(t['open'])} | {ms(t['pane'])} | {ms(t['scroll'])} |"
            for label, t in rows
        ),
    ]
    text = "\n".join(table)
    print(text)
    if args.write:
        write_block("app", text)


if __name__ == "__main__":
    main()
