"""What the command-line tests share: the real ``tracker`` command, run as a user runs it."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple


def tracker(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


class Measured(NamedTuple):
    """A ``tracker`` run, and what it cost: CPU and peak memory, its own, not the test's."""

    returncode: int
    stdout: str
    stderr: str
    cpu: float  # seconds, user and system
    peak_mb: float  # its largest resident size


# A run that should be over in a second is stopped well before it can take the machine (a
# crafted save once grew to 20 GB in a minute): these fail the test, they never hang it.
_CPU_SECONDS = 60
_MEMORY = 2 * 2**30
_WAIT = 120  # seconds


def _limited() -> None:  # pragma: no cover - runs in the child, before exec
    resource.setrlimit(resource.RLIMIT_CPU, (_CPU_SECONDS, _CPU_SECONDS))
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))


def measured(*args: str) -> Measured:
    """``tracker`` run as ``tracker()`` runs it, with what it cost read from the kernel
    (``wait4``: this child's usage alone), so a test can compare it with a plain run's."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "tracker", *args],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            preexec_fn=_limited,
        )
        # A run that waits rather than works (the app started with no terminal) is stopped
        # too, as ``tracker()``'s timeout stops it.
        timer = threading.Timer(_WAIT, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            process.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss / 1024,  # Linux gives kilobytes
        )
