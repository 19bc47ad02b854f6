"""Start-up in a real terminal: the tracker on its demo against a minimal Textual app.

Run: ``.venv/bin/python bench/startup.py [--runs N] [--before DIR] [--instructions]
[--write]``. Each start is a fresh process in tmux at 80x24 (``bench/terminal.py``), timed
from the process's start (read from Linux's /proc) to its first frame written to the
terminal that shows the demo's encounter (the minimal app: its label and footer); the
programs alternate run by run, so all see the same load, and the ratio to the minimal app is
what to compare. ``--before DIR`` times an older checkout (a ``git worktree`` of main) beside
this one. It also counts the modules loaded at that first frame, and those ``tracker dice
1d6`` loads. ``--instructions`` also runs each program once under valgrind and counts its
instructions to that frame: a figure the machine's load does not move. ``--write`` puts the
tables into docs/contributing/performance/.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc import write_block  # noqa: E402
from bench.terminal import Terminal, have_tmux, hook, python_env  # noqa: E402

PROBE = "type(app.screen).__name__"
# A plain `tracker`: the newest save in the folder, the demo copied there.
TRACKER = "from tracker.cli import main\nmain(['--saves', {saves!r}])\n"
MINIMAL = """
from textual.app import App
from textual.widgets import Footer, Label

class Minimal(App):
    def compose(self):
        yield Label("Hello")
        yield Footer()

Minimal().run()
"""
DICE = (
    "import sys\nfrom tracker.cli import main\nmain(['dice', '1d6', '--seed', '1'])\n"
    "print(len(sys.modules), 'textual' in sys.modules, 'inspect' in sys.modules)"
)


def demo_of(root: Path) -> Path:
    """The demo a fresh start opens (the first listed system's), in ``root``'s saves."""
    code = (
        "try:\n    from tracker.store.defaults import systems\n"
        "except ImportError:\n    from tracker.defaults import systems\n"  # before issue 44
        "from rules.registry import part\nprint(part(systems()[0], 'demo').STEM)"
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    stem = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd="/"
    ).stdout.strip()
    return root / "saves" / f"{stem}.fight"


def start_once(script: str, root: Path, word: str) -> tuple[float, int, float]:
    """Seconds from a fresh process's start to its first frame showing ``word``, the
    modules loaded by then, and the CPU seconds the process took to get there."""
    terminal = Terminal()
    try:
        saves = _saves(terminal, root)
        code = hook(terminal.frames.path, PROBE, stop=1, stop_word=word) + script.format(
            saves=str(saves), demo=str(demo_of_cached(root))
        )
        terminal.start([sys.executable, "-c", code], python_env(root, saves.parent))
        frame = terminal.frames.wait(lambda shown: shown == word, after=0.0)
        start, _ = terminal.frames.read()
        assert start is not None
        return frame[0] - start, frame[2], frame[3]
    finally:
        terminal.kill()


def _saves(terminal: Terminal, root: Path) -> Path:
    """A fresh home's saves folder, the demo copied there."""
    saves = terminal.folder / "home" / "saves"
    saves.mkdir(parents=True)
    shutil.copy(demo_of_cached(root), saves / "bench.fight")
    return saves


def instructions_once(script: str, root: Path, word: str) -> int:
    """The instructions a fresh process runs to its first frame showing ``word``, counted by
    valgrind (callgrind): the same on a busy machine as on a quiet one (the hash seed fixed),
    where times are not. The process runs some 50 times slower under it."""
    terminal = Terminal()
    try:
        saves = _saves(terminal, root)
        code = hook(terminal.frames.path, PROBE, stop=1, stop_word=word) + script.format(
            saves=str(saves), demo=str(demo_of_cached(root))
        )
        counts = terminal.folder / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={counts}"]
        env = {**python_env(root, saves.parent), "PYTHONHASHSEED": "0"}
        terminal.start([*command, sys.executable, "-c", code], env)
        terminal.frames.wait(lambda shown: shown == word, after=0.0, patience=1800.0)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:  # written as the process ends
            totals = [line for line in _text(counts).splitlines() if line.startswith("totals:")]
            if totals:
                return int(totals[0].split()[1])
            time.sleep(0.5)
        raise SystemExit("callgrind wrote no totals")
    finally:
        terminal.kill()


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except FileNotFoundError:
        return ""


_demos: dict[Path, Path] = {}


def demo_of_cached(root: Path) -> Path:
    if root not in _demos:
        _demos[root] = demo_of(root)
    return _demos[root]


def dice_modules(root: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(  # from "/": the checkout is the one PYTHONPATH names
        [sys.executable, "-c", DICE], capture_output=True, text=True, check=True, env=env, cwd="/"
    )
    count, textual, inspect = done.stdout.strip().splitlines()[-1].split()
    pairs = (("textual", textual), ("inspect", inspect))
    loaded = [name for name, there in pairs if there == "True"]
    return f"{count}" + (f" (with {', '.join(loaded)})" if loaded else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--before", type=Path, help="an older checkout timed beside this one")
    parser.add_argument(
        "--write", action="store_true", help="update docs/contributing/performance/"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each program's instructions to its first frame, once (valgrind)",
    )
    args = parser.parse_args()
    if not have_tmux():
        raise SystemExit("bench/startup.py needs tmux")
    if args.instructions and shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind")

    roots = {"before": args.before.resolve()} if args.before else {}
    roots["this checkout"] = ROOT
    for root in roots.values():  # byte-compiled, as an installed tracker is
        for package in ("rules", "tracker"):
            compileall.compile_dir(root / package, quiet=1)
    times: dict[str, list[float]] = {name: [] for name in [*roots, "minimal"]}
    cpus: dict[str, list[float]] = {name: [] for name in times}
    modules: dict[str, int] = {}
    load = os.getloadavg()[0]
    began = time.perf_counter()
    for _ in range(args.runs):  # alternated, so every program sees the same load
        for name, root in roots.items():
            seconds, count, cpu = start_once(TRACKER, root, "EncounterScreen")
            times[name].append(seconds)
            cpus[name].append(cpu)
            modules[name] = count
        seconds, count, cpu = start_once(MINIMAL, ROOT, "Screen")
        times["minimal"].append(seconds)
        cpus["minimal"].append(cpu)
        modules["minimal"] = count
    took = time.perf_counter() - began
    load = max(load, os.getloadavg()[0])
    minimal = statistics.median(times["minimal"])
    least_cpu = statistics.median(cpus["minimal"])
    rows = [
        "| 80x24 in tmux, to the first frame written (median of "
        f"{args.runs} fresh processes) | start | vs minimal Textual app | CPU | CPU vs minimal "
        "| modules loaded | `tracker dice 1d6`: modules |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, root in roots.items():
        median, cpu = statistics.median(times[name]), statistics.median(cpus[name])
        rows.append(
            f"| tracker, {name} | {median * 1000:.0f} ms | {median / minimal:.2f}x "
            f"| {cpu * 1000:.0f} ms | {cpu / least_cpu:.2f}x "
            f"| {modules[name]} | {dice_modules(root)} |"
        )
    least = modules["minimal"]
    rows.append(
        f"| minimal Textual app | {minimal * 1000:.0f} ms | 1.00x | {least_cpu * 1000:.0f} ms "
        f"| 1.00x | {least} | |"
    )
    text = "\n".join(rows)
    print(text)
    print(f"({args.runs} runs of each in {took:.0f} s; load average up to {load:.1f})")
    if args.write:
        write_block("startup", text)
    if args.instructions:
        counted = instruction_rows(roots)
        print(counted)
        if args.write:
            write_block("startup-instructions", counted)


def instruction_rows(roots: dict[str, Path]) -> str:
    """Each program's instructions to its first frame, and as times the minimal app's."""
    counts = {
        name: instructions_once(TRACKER, root, "EncounterScreen") for name, root in roots.items()
    }
    least = instructions_once(MINIMAL, ROOT, "Screen")
    rows = [
        "| 80x24 in tmux, to the first frame written (valgrind, once each) | instructions "
        "| vs minimal Textual app |",
        "|---|---:|---:|",
    ]
    for name, count in counts.items():
        rows.append(f"| tracker, {name} | {count / 1e6:.0f} M | {count / least:.2f}x |")
    rows.append(f"| minimal Textual app | {least / 1e6:.0f} M | 1.00x |")
    return "\n".join(rows)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()
