"""What the storage tests share: a writer in its own process, stopped where it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def start(script: str, path: Path, says: str) -> subprocess.Popen[str]:
    """Run ``script`` on ``path`` in a new Python; return once it prints ``says`` (a line).

    Its stdin stays open: a script that reads it waits there until killed."""
    process = subprocess.Popen(
        [sys.executable, "-c", script, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == f"{says}\n"
    return process
