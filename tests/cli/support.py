"""What the command-line tests share: the real ``tracker`` command, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def tracker(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )
