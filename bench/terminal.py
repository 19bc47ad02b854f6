"""A real terminal for the benchmarks: a program in tmux at 80x24, and the frames it wrote.

The program runs a Textual app whose ``_display`` is wrapped (``FRAMES_HOOK``): after each
frame has been turned into the terminal's bytes and handed to the driver's writer (what
``App._display`` does in a real terminal, and skips headless), it appends a line to a file:
the ``time.perf_counter`` at that moment (CLOCK_MONOTONIC on Linux: the same clock in every
process), what the frame shows (a probe's word) and how many modules were loaded. The bench
sends keys with ``tmux send-keys`` and reads the file, so a key is timed from just before it
is sent to the frame that shows what it did, written. tmux runs on a socket of its own in a
temporary folder: the user's tmux is never touched.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

# Put before a script's own code, with ``{frames!r}`` (the file) and ``{probe}`` (an
# expression of ``app`` and ``screen``: what a frame shows) filled in. It wraps every app's
# ``_display`` (the class's, so an app made anywhere is timed) and ends the process, without
# waiting for its exit, after ``{stop}`` frames showing ``{stop_word!r}`` (0: never). It
# wraps it as the program first imports textual.app, not before: imported here, Textual would
# load outside the program's own start (the tracker loads it with its collector off).
FRAMES_HOOK = """
import os as _os, sys as _sys, time as _time

_FRAMES = open({frames!r}, "a", buffering=1)
_SEEN = [0]

def _process_start():
    with open(f"/proc/{{_os.getpid()}}/stat") as stat:
        ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as uptime:
        since_boot = float(uptime.read().split()[0])
    return _time.perf_counter() - (since_boot - ticks / _os.sysconf("SC_CLK_TCK"))

_FRAMES.write(f"start {{_process_start():.6f}}\\n")
_display = None

def _timed_display(app, screen, renderable):
    _display(app, screen, renderable)
    if renderable is None or app._driver is None or app.is_headless:
        return
    at = _time.perf_counter()
    try:
        word = {probe}
    except Exception:
        word = "?"
    cpu = _time.process_time()
    _FRAMES.write(f"{{at:.6f}} {{word}} {{len(_sys.modules)}} {{cpu:.6f}}\\n")
    if {stop} and word == {stop_word!r}:
        _SEEN[0] += 1
        if _SEEN[0] >= {stop}:
            _FRAMES.close()
            _os._exit(0)

class _WrapDisplay:
    def find_spec(self, name, path=None, target=None):
        if name != "textual.app":
            return None
        _sys.meta_path.remove(self)
        spec = next(filter(None, (f.find_spec(name, path, target) for f in _sys.meta_path)))
        run = spec.loader.exec_module

        def exec_module(module):
            global _display
            run(module)
            _display = module.App._display
            module.App._display = _timed_display

        spec.loader.exec_module = exec_module
        return spec

_sys.meta_path.insert(0, _WrapDisplay())
"""


def hook(frames: Path, probe: str, stop: int = 0, stop_word: str = "") -> str:
    return FRAMES_HOOK.format(frames=str(frames), probe=probe, stop=stop, stop_word=stop_word)


class Frames:
    """The frames a program wrote so far: (time, word, modules loaded, the process's CPU
    seconds so far) each."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> tuple[float | None, list[tuple[float, str, int, float]]]:
        """The process's start, and its frames."""
        start: float | None = None
        frames: list[tuple[float, str, int, float]] = []
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return None, []
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "start":
                start = float(parts[1])
            elif len(parts) == 4:
                frames.append((float(parts[0]), parts[1], int(parts[2]), float(parts[3])))
        return start, frames

    def wait(
        self, shown: Callable[[str], bool], after: float, patience: float = 120.0
    ) -> tuple[float, str, int, float]:
        """The first frame written after ``after`` whose word ``shown`` accepts."""
        deadline = time.monotonic() + patience
        while True:
            for frame in self.read()[1]:
                if frame[0] > after and shown(frame[1]):
                    return frame
            if time.monotonic() > deadline:
                raise SystemExit(f"no frame showed it in {patience:g} s: {self.read()[1][-3:]}")
            time.sleep(0.002)

    def quiet(self, for_seconds: float = 0.3, patience: float = 30.0) -> None:
        """Once no frame has been written for ``for_seconds`` (a thumb catching up; a cursor
        blinks every 0.5 s), or after ``patience``."""
        deadline = time.monotonic() + patience
        last = None
        since = time.monotonic()
        while time.monotonic() < deadline:
            frames = self.read()[1]
            newest = frames[-1][0] if frames else None
            if newest != last:
                last, since = newest, time.monotonic()
            elif time.monotonic() - since >= for_seconds:
                return
            time.sleep(0.05)


class Terminal:
    """One tmux server and its session, at ``width`` x ``height``; ``kill`` ends it."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tracker-bench-"))
        self.socket = str(self.folder / "tmux")
        self.size = (width, height)
        self.frames = Frames(self.folder / "frames")
        self.pid: int | None = None  # the program's, once started

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=30
        )
        return done.stdout

    def start(self, command: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        width, height = self.size
        line = shlex.join(command)
        if env:
            line = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " exec " + line
        else:
            line = "exec " + line
        # Started in the terminal's own folder: a script's first path entry is its folder, so
        # the checkout under test is the one PYTHONPATH names, not the one the bench runs in.
        self.run(
            "new-session", "-d", "-s", "b", "-c", str(self.folder),
            "-x", str(width), "-y", str(height), line,
        )  # fmt: skip
        pid = self.run("display-message", "-p", "-t", "b", "#{pane_pid}").strip()
        self.pid = int(pid) if pid.isdigit() else None

    def cpu(self) -> float:
        """The program's CPU seconds so far, as the kernel counts them (in its ticks, 10 ms:
        to be used where no frame of the program's own stamps it)."""
        try:
            with open(f"/proc/{self.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def send(self, key: str) -> float:
        """Send ``key``; the time just before it went."""
        at = time.perf_counter()
        self.run("send-keys", "-t", "b", key)
        return at

    def kill(self) -> None:
        self.run("kill-server")
        # The tracker saves as its terminal goes away: its folder is removed once it is gone.
        deadline = time.monotonic() + 30
        while self.pid is not None and Path(f"/proc/{self.pid}").exists():
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        shutil.rmtree(self.folder, ignore_errors=True)


def have_tmux() -> bool:
    return shutil.which("tmux") is not None


def python_env(root: Path, home: Path) -> dict[str, str]:
    """What a started program sees: this checkout first on the path, its own user folders."""
    return {
        "PYTHONPATH": str(root),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }
