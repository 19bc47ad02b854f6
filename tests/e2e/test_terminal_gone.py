"""A tracker whose terminal goes away saves and ends (issue 45): it once read its hung-up
terminal in a loop that never waited, using a good part of a core until ended by hand.

The real program at 80x24: in tmux, whose server is killed (the terminal closes), or
hung up with the terminal still there; and on a pty of its own that is not its controlling
terminal, so that closing it sends no SIGHUP at all: the program sees only its terminal go
(the case that spun). Each time it ends within a bound, and the save's snapshot alone (the
journal beside it set aside) holds the fight's last change: the tracker saved as it ended.
"""

from __future__ import annotations

import fcntl
import os
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from rules import registry
from tests.e2e.tmux import Tmux, _tree
from tests.picks import a_system, has_demo, has_turn_order
from tracker.store import storage
from tracker.terminal import hangup

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to drive"
)

TRACKER = Path(sys.executable).parent / "tracker"
BOUND = 30.0  # seconds for the program to end (it checks its terminal every second)


def a_demo(tmp_path: Path) -> tuple[list[str], int]:
    """The command that opens a system's demo, and how many records the demo has."""
    part = registry.part(a_system(has_demo, has_turn_order), "demo")
    assert part is not None
    demo = tmp_path / "demos" / f"{part.STEM}{storage.SUFFIX}"
    demo.parent.mkdir()
    history = part.build()
    storage.write(demo, history)
    command = [str(TRACKER), "--saves", str(tmp_path), "--seed", "1", "open", str(demo)]
    return command, len(history.records)


def start_under_a_shell(tmux: Tmux, tmp_path: Path) -> tuple[int, Path, int]:
    """The tracker on a system's demo, a turn moved on: its pid, its save and how many
    records the demo had."""
    command, records = a_demo(tmp_path)
    # "; true": the shell waits for the tracker rather than becoming it.
    tmux.start(["sh", "-c", shlex.join(command) + "; true"])
    before = tmux.wait_for("Round")
    tmux.keys("n")
    tmux.changed(before)
    [save] = tmp_path.glob(f"*{storage.SUFFIX}")  # the demo's copy, played
    assert tmux.pid is not None
    [pid] = [p for p in _tree(tmux.pid) if p != tmux.pid and "tracker" in cmdline(p)]
    return pid, save, records


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def ended(pid: int) -> bool:
    """Whether the process is gone (or a zombie: it has ended, its parent not yet told)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"


def wait_ended(pid: int) -> None:
    deadline = time.monotonic() + BOUND
    while not ended(pid):
        assert time.monotonic() < deadline, f"still running {BOUND:g} s after: {cmdline(pid)}"
        time.sleep(0.1)


def saved_records(save: Path, tmp_path: Path) -> int:
    """Records in the snapshot alone: the journal beside the save is not read."""
    alone = tmp_path / "alone" / save.name
    alone.parent.mkdir()
    shutil.copyfile(save, alone)
    return len(storage.load(alone).history.records)


def test_a_tracker_whose_terminal_closes_saves_and_ends(tmux: Tmux, tmp_path: Path) -> None:
    pid, save, records = start_under_a_shell(tmux, tmp_path)
    tmux.run("kill-server")  # the terminal goes away; the shell, hung up, ends
    wait_ended(pid)
    assert saved_records(save, tmp_path) > records


def test_a_hung_up_tracker_saves_and_ends(tmux: Tmux, tmp_path: Path) -> None:
    pid, save, records = start_under_a_shell(tmux, tmp_path)
    os.kill(pid, signal.SIGHUP)
    wait_ended(pid)
    assert saved_records(save, tmp_path) > records


def on_a_pty(command: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    """``command`` started on an 80x24 pty of its own, and the pty's master end. The program
    has a session of its own without a controlling terminal: no SIGHUP when the pty closes."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    program = subprocess.Popen(
        command, stdin=slave, stdout=slave, stderr=slave, start_new_session=True, env=env
    )
    os.close(slave)
    return program, master


def test_a_tracker_whose_terminal_closes_without_a_hangup_saves_and_ends(tmp_path: Path) -> None:
    command, records = a_demo(tmp_path)
    program, master = on_a_pty(command)
    shown = bytearray()
    stop = threading.Event()

    def drain() -> None:  # the program's output read as it comes, so it never blocks
        while not stop.is_set():
            try:
                ready, _, _ = select.select([master], [], [], 0.1)
                if ready:
                    shown.extend(os.read(master, 65536))
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + BOUND
        while b"Round" not in shown:
            assert time.monotonic() < deadline and program.poll() is None, bytes(shown[-500:])
            time.sleep(0.1)
        [save] = tmp_path.glob(f"*{storage.SUFFIX}")  # the demo's copy, played
        os.write(master, b"n")
        while len(storage.load(save).history.records) <= records:  # journalled
            assert time.monotonic() < deadline, "the turn never moved on"
            time.sleep(0.1)
        stop.set()
        reader.join()
        os.close(master)  # the terminal goes away
        program.wait(timeout=BOUND)
    finally:
        stop.set()
        if program.poll() is None:
            program.kill()
            program.wait()
    assert saved_records(save, tmp_path) > records


def test_a_tracker_stuck_on_a_terminal_that_stopped_reading_ends_once_it_goes(
    tmp_path: Path,
) -> None:
    # A terminal that stops reading (a stalled link) fills the pty, then Textual's output
    # queue: the program's loop waits for room. When the terminal then goes, Textual's
    # output thread dies on its write's error and the loop would wait for ever, holding the
    # save's lock; the last-resort watch ends the process, every change in the journal.
    command, records = a_demo(tmp_path)
    program, master = on_a_pty(command)
    try:
        shown = bytearray()
        deadline = time.monotonic() + BOUND
        while b"Round" not in shown:
            assert time.monotonic() < deadline and program.poll() is None, bytes(shown[-500:])
            if select.select([master], [], [], 0.1)[0]:
                shown.extend(os.read(master, 65536))
        [save] = tmp_path.glob(f"*{storage.SUFFIX}")  # the demo's copy, played
        # From now on nothing is read: turns move on (a frame each) until the loop is stuck,
        # which the journal shows (no more records as keys keep coming).
        journalled, since = records, time.monotonic()
        while time.monotonic() - since < 2.0:
            assert time.monotonic() < deadline, "the program never got stuck"
            os.write(master, b"n")
            time.sleep(0.02)
            now = len(storage.load(save).history.records)
            if now != journalled:
                journalled, since = now, time.monotonic()
        assert journalled > records and program.poll() is None
        os.close(master)  # the terminal goes away
        program.wait(timeout=BOUND)
    finally:
        if program.poll() is None:
            program.kill()
            program.wait()
    assert program.returncode == hangup.HUNG_UP
    # Nothing lost: every change seen journalled is in the save (a last key may have been
    # taken as the terminal went).
    assert len(storage.load(save).history.records) >= journalled
    opened = storage.open_save(save)  # its lock went with it (else: SaveLocked)
    assert opened.lock is not None
    opened.lock.release()
