"""What the storage tests share: a new encounter of any system, and a writer in its own
process, stopped where it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rules.engine import new_encounter
from rules.history import History
from tests.picks import a_system


def fresh(name: str) -> History:
    """A new encounter named ``name``, empty: files hold every system's alike, so any will do."""
    return History(new_encounter(name, a_system()))


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
