"""A real terminal for the end-to-end tests: the tracker in a detached tmux session on a
socket of its own in a temporary folder (the user's tmux is never touched), driven by keys."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest


class Tmux:
    """One tmux server and session; ``kill`` ends the server, whatever happened."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="tracker-e2e-"))
        self.socket = str(self.folder / "tmux")
        self.session = "t"
        self.pid: int | None = None  # the program's, once started

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        return done.stdout

    def start(self, command: Sequence[str], width: int = 80, height: int = 24) -> None:
        line = shlex.join(command)
        self.run("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height), line)
        pid = self.run("display-message", "-p", "-t", self.session, "#{pane_pid}").strip()
        self.pid = int(pid) if pid.isdigit() else None
        # Keep the pane after the program exits, so a crash still shows its last screen.
        self.run("set-option", "-t", self.session, "remain-on-exit", "on")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.run("send-keys", "-t", self.session, key)

    def burst(self, *keys: str) -> None:
        """All in one ``send-keys``: the program reads them at once, as from a fast typist."""
        self.run("send-keys", "-t", self.session, *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", self.session, "-l", text)

    def capture(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session)

    def resize(self, width: int, height: int) -> None:
        self.run("resize-window", "-t", self.session, "-x", str(width), "-y", str(height))

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """The screen once ``text`` shows on it; fails with the last screen after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture()
            if text in screen:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never showed; the last screen:\n{screen}")
            time.sleep(0.1)

    def changed(self, before: str, timeout: float = 5.0, quiet: float = 0.2) -> str:
        """The screen once it differs from ``before`` and has settled; ``before`` if it never
        changes within ``timeout`` (a busy program may not draw at once)."""
        deadline = time.monotonic() + timeout
        while self.capture() == before:
            if time.monotonic() > deadline:
                return before
            time.sleep(0.05)
        return self.settle(quiet)

    def settle(self, quiet: float = 0.2, timeout: float = 5.0) -> str:
        """The screen once it has stopped changing for ``quiet`` seconds and the program is
        idle (``working``): on a busy machine a screen may stand still for a second while
        the program, starved, has yet to draw what a key set off (a dialog opening)."""
        deadline = time.monotonic() + timeout
        screen = self.capture()
        still_since = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = self.capture()
            if now != screen:
                screen, still_since = now, time.monotonic()
            elif time.monotonic() - still_since >= quiet:
                if not self.working():
                    break
                still_since = time.monotonic()  # still at work: a quiet spell more
        return screen

    def working(self) -> bool:
        """Whether a thread of the program (or of a process it started) is running or waits
        for a core, as Linux's /proc tells; False once it has ended, or where there is no
        /proc to read."""
        if self.pid is None:
            return False
        return any(state in "RD" for state in _thread_states(_tree(self.pid)))

    def kill(self) -> None:
        self.run("kill-server")
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    """A real terminal, killed after the test even when it fails (tests/e2e/conftest.py
    offers it to the folder; a test elsewhere imports it from here)."""
    terminal = Tmux()
    try:
        yield terminal
    finally:
        terminal.kill()


def _tree(root: int) -> list[int]:
    """``root`` and every process under it."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended while read
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def _thread_states(pids: list[int]) -> Iterator[str]:
    """The state letter (R running, S sleeping...) of each thread of ``pids``."""
    for pid in pids:
        for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
            try:
                yield stat.read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
