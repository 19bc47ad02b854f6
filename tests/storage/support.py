"""What the storage tests share: a new encounter of any system, a writer in its own process,
stopped where it says, and a save's document changed by hand as a crafted one is."""

from __future__ import annotations

import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import msgspec

from rules import snapshot
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


def body_of(path: Path) -> Any:
    """A save's document as plain MessagePack (dicts and lists), to be changed by hand."""
    return msgspec.msgpack.decode(path.read_bytes()[len(snapshot.MAGIC) + 4 :])


def rewrite(path: Path, body: Any) -> bytes:
    """``path`` holding ``body``, its checksum made good, as a crafted save's is; its bytes."""
    data = msgspec.msgpack.encode(body)
    path.write_bytes(snapshot.MAGIC + zlib.crc32(data).to_bytes(4, "big") + data)
    return path.read_bytes()
