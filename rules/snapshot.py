"""The save format: a versioned msgspec snapshot of an encounter, as bytes.

Layout: ``MAGIC`` (8 bytes), a CRC-32 of the body (4 bytes, big-endian), then the body:
a MessagePack ``Snapshot`` holding the header fields, the whole log and the folded state.
The checksum turns a flipped byte into a clear "damaged" error rather than a wrong fight.
"""

from __future__ import annotations

import zlib

import msgspec
from msgspec import Struct

from rules.encounter import Encounter
from rules.history import History, Record

MAGIC = b"CMBTRK\x00\x01"
FORMAT = 1
_CRC = 4


class SnapshotError(Exception):
    """A save that cannot be read; the message says why, in a few words."""


class Header(Struct):
    """The fields read before anything else, so a newer file is refused before decoding it."""

    format: int
    system: str
    name: str


class Snapshot(Struct):
    format: int
    system: str
    name: str
    records: list[Record]
    state: Encounter


_header_decoder = msgspec.msgpack.Decoder(Header)
_snapshot_decoder = msgspec.msgpack.Decoder(Snapshot)
_encoder = msgspec.msgpack.Encoder()


def encode(history: History) -> bytes:
    state = history.state
    body = _encoder.encode(
        Snapshot(
            format=FORMAT,
            system=state.system,
            name=state.name,
            records=history.records,
            state=state,
        )
    )
    return MAGIC + zlib.crc32(body).to_bytes(_CRC, "big") + body


def _body(data: bytes) -> bytes:
    if not data:
        raise SnapshotError("the file is empty")
    if not data.startswith(MAGIC):
        truncated = MAGIC.startswith(data)
        raise SnapshotError("the file is truncated" if truncated else "not a combat tracker save")
    if len(data) < len(MAGIC) + _CRC:
        raise SnapshotError("the file is truncated")
    body = data[len(MAGIC) + _CRC :]
    expected = int.from_bytes(data[len(MAGIC) : len(MAGIC) + _CRC], "big")
    if zlib.crc32(body) != expected:
        raise SnapshotError("the file is truncated or damaged (checksum mismatch)")
    return body


def read_header(data: bytes) -> Header:
    """Check the magic, checksum and version; raises SnapshotError."""
    body = _body(data)
    try:
        header = _header_decoder.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise SnapshotError(f"the file is damaged ({exc})") from None
    if header.format > FORMAT:
        raise SnapshotError(
            f"it was written by a newer tracker (format {header.format}; "
            f"this one reads up to format {FORMAT})"
        )
    return header


def decode(data: bytes) -> History:
    """The history a save holds; raises SnapshotError with a short reason."""
    read_header(data)
    try:
        snapshot = _snapshot_decoder.decode(_body(data))
        history = History.from_records(snapshot.records)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SnapshotError(f"the file is damaged ({exc})") from None
    except Exception as exc:  # any rule error while replaying: the file, not the app, is at fault
        raise SnapshotError(f"its event log cannot be replayed ({exc})") from None
    if history.state != snapshot.state:
        raise SnapshotError("its saved state does not match its event log")
    return history
