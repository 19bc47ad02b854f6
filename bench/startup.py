"""Start-up in a real terminal: the tracker on its demo against a minimal Textual app.

Run: ``.venv/bin/python bench/startup.py [--runs N] [--before DIR] [--write]``. Each start is
a fresh process in tmux at 80x24 (``bench/terminal.py``), timed from the process's start
(read from Linux's /proc) to its first frame written to the terminal that shows the demo's
encounter (the minimal app: its label and footer); the programs alternate run by run, so all
see the same load, and the ratio to the minimal app is what to compare. ``--before DIR``
times an older checkout (a ``git worktree`` of main) beside this one. It also counts the
modules loaded at that first frame, and those ``tracker dice 1d6`` loads.
``--write`` puts the table into docs/contributing/performance.md.
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
        "from tracker.store.defaults import systems; from rules.registry import part; "
        "print(part(systems()[0], 'demo').STEM)"
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
        home = terminal.folder / "home"
        saves = home / "saves"
        saves.mkdir(parents=True)
        shutil.copy(demo_of_cached(root), saves / "bench.fight")
        code = hook(terminal.frames.path, PROBE, stop=1, stop_word=word) + script.format(
            saves=str(saves), demo=str(demo_of_cached(root))
        )
        terminal.start([sys.executable, "-c", code], python_env(root, home))
        frame = terminal.frames.wait(lambda shown: shown == word, after=0.0)
        start, _ = terminal.frames.read()
        assert start is not None
        return frame[0] - start, frame[2], frame[3]
    finally:
        terminal.kill()


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
        "--write", action="store_true", help="update docs/contributing/performance.md"
    )
    args = parser.parse_args()
    if not have_tmux():
        raise SystemExit("bench/startup.py needs tmux")

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


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()
