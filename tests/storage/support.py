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
    """A save's document as plain MessagePack (dicts and lists), to be changed by hand; its
    records unpacked, as format 4 held them (``rewrite`` packs them again)."""
    body = msgspec.msgpack.decode(path.read_bytes()[len(snapshot.MAGIC) + 4 :])
    if "packed" in body:
        raws, _ = snapshot.unpack(body.pop("packed"))
        body["records"] = [msgspec.msgpack.decode(raw) for raw in raws]
    return body


def blocks_of(path: Path) -> list[bytes]:
    """The compressed blocks of a format-5 save's records, as they are in the file."""
    blocks: list[bytes] = msgspec.msgpack.decode(path.read_bytes()[len(snapshot.MAGIC) + 4 :])[
        "packed"
    ]
    return blocks


def rewrite(path: Path, body: Any) -> bytes:
    """``path`` holding ``body``, its records packed when its format packs them and its
    checksum made good, as a crafted save's is; its bytes."""
    path.write_bytes(wrapped(body))
    return path.read_bytes()


def wrapped(body: Any) -> bytes:
    """A save's bytes holding ``body`` (a document of plain values, as ``body_of`` gives)."""
    if isinstance(body, dict) and body.get("format", 0) >= snapshot.PACKED and "records" in body:
        body = {**body, "packed": snapshot.pack(body["records"])}
        del body["records"]
    data = msgspec.msgpack.encode(body)
    return snapshot.MAGIC + zlib.crc32(data).to_bytes(4, "big") + data
