"""Format 5: a save's records in compressed blocks (issue 45, item 7).

A save is many times smaller; an older save still opens, and becomes format 5 only when
its own session writes it; a compaction compresses only the newest records; and a block
that is cut short, flipped or crafted to unpack to gigabytes gets one clear line, never a
traceback, and never more memory than a save may take.
"""

from __future__ import annotations

import tracemalloc
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import snapshot
from rules.commands import AddNote
from rules.dice import SeededDice
from rules.history import History
from tests.cli.support import tracker
from tests.helpers import run
from tests.storage.support import blocks_of, body_of, fresh, rewrite, wrapped
from tracker.session import EncounterSession
from tracker.store import storage

RECORDS = 2 * snapshot.BLOCK + 300  # two full blocks and a part


def noted(count: int) -> History:
    history = fresh("Packed")
    for number in range(count - 1):
        run(history, AddNote(f"note {number}: the fight goes on"))
    return history


@pytest.fixture(scope="module")
def long_history() -> History:
    return noted(RECORDS)


@pytest.fixture
def long_save(tmp_path: Path, long_history: History) -> Path:
    path = tmp_path / "long.fight"
    storage.write(path, long_history)
    return path


def as_format_4(path: Path) -> bytes:
    """The save at ``path`` rewritten as format 4 wrote it: its records as they are."""
    body = body_of(path)
    body["format"] = snapshot.PLAIN
    return rewrite(path, body)


def test_a_save_is_written_packed_and_many_times_smaller(long_save: Path) -> None:
    packed = long_save.stat().st_size
    assert snapshot.read_header(long_save.read_bytes()).format == snapshot.FORMAT == 5
    plain = len(as_format_4(long_save))
    assert plain > 10 * packed


def test_a_format_4_save_opens_unchanged_and_its_session_writes_it_as_format_5(
    long_save: Path, long_history: History
) -> None:
    old = as_format_4(long_save)
    history = storage.read(long_save)
    assert list(history.records) == list(long_history.records)
    assert history.state == long_history.state
    assert long_save.read_bytes() == old  # read, never written
    session, error = EncounterSession.resume(storage.open_save(long_save), SeededDice(1))
    assert error is None
    session.execute(AddNote("carried on"))
    assert session.close() is None
    assert snapshot.read_header(long_save.read_bytes()).format == 5
    again = storage.read(long_save)
    assert list(again.records)[:-1] == list(long_history.records)
    assert len(long_save.read_bytes()) * 10 < len(old)


def test_a_compaction_compresses_only_the_newest_records(
    long_save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = blocks_of(long_save)
    compressed: list[int] = []
    deflate = snapshot._deflate

    def counting(records: list[Any]) -> bytes:
        compressed.append(len(records))
        return deflate(records)

    monkeypatch.setattr(snapshot, "_deflate", counting)
    session, _ = EncounterSession.resume(storage.open_save(long_save), SeededDice(1))
    session.execute(AddNote("one more"))
    assert session.save() is None
    assert compressed == [RECORDS + 1 - 2 * snapshot.BLOCK]  # the last block alone
    assert blocks_of(long_save)[:2] == blocks[:2]  # the full blocks, as they were
    session.close()


# --- a damaged or crafted block: one line ---------------------------------------------------


def with_blocks(path: Path, change: Any) -> bytes:
    """The save at ``path`` with its blocks changed by ``change``, its checksum made good."""
    body = msgspec.msgpack.decode(path.read_bytes()[len(snapshot.MAGIC) + 4 :])
    body["packed"] = change(body["packed"])
    path.write_bytes(wrapped(body))
    return path.read_bytes()


@cache
def zeros_packed(size: int) -> bytes:
    """``size`` zero bytes, compressed a megabyte at a time (a bomb of a few kB)."""
    packer = zlib.compressobj(9)
    chunk = bytes(2**20)
    parts = [packer.compress(chunk) for _ in range(size // len(chunk))]
    return b"".join([*parts, packer.flush()])


def spread(blocks: list[bytes]) -> list[bytes]:
    """Blocks of records of 4 kB each, together past what a save may unpack to."""
    record = msgspec.msgpack.encode(bytes(4096))
    many = msgspec.msgpack.encode([msgspec.Raw(record)] * 1000)  # 4 MB a block
    return [*blocks, *[zlib.compress(many)] * (snapshot.MAX_UNPACKED // len(many) + 1)]


CRAFTED = {
    "cut short": (lambda blocks: [blocks[0][: len(blocks[0]) // 2], *blocks[1:]], "cut short"),
    "flipped": (
        lambda blocks: [blocks[0][:100] + bytes([blocks[0][100] ^ 0x10]) + blocks[0][101:]],
        "cannot be unpacked",
    ),
    "run on": (lambda blocks: [blocks[0] + b"more", *blocks[1:]], "runs on past its end"),
    "empty": (lambda blocks: [zlib.compress(b"\x90"), *blocks], "holds none"),
    "not records": (lambda blocks: [zlib.compress(b"\xc1"), *blocks], "damaged"),
    "a bomb": (
        lambda blocks: [zeros_packed(snapshot.MAX_UNPACKED + 2**20)],
        "unpack to more than a save may hold",
    ),
    "a bomb spread": (spread, "unpack to more than a save may hold"),
}


@pytest.mark.parametrize("kind", list(CRAFTED))
def test_a_damaged_or_crafted_block_is_refused_in_one_line(long_save: Path, kind: str) -> None:
    change, why = CRAFTED[kind]
    before = with_blocks(long_save, change)
    with pytest.raises(storage.SaveError, match=why) as caught:
        storage.load(long_save)
    assert "\n" not in str(caught.value)
    assert long_save.read_bytes() == before


@pytest.mark.parametrize("kind", ["cut short", "a bomb"])
def test_the_command_line_says_so_in_one_line(long_save: Path, kind: str) -> None:
    change, why = CRAFTED[kind]
    before = with_blocks(long_save, change)
    done = tracker("--saves", str(long_save.parent), "open", str(long_save))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"tracker: {long_save}: ")
    assert why in done.stderr and "Traceback" not in done.stderr
    assert long_save.read_bytes() == before


def test_a_bomb_is_unpacked_no_further_than_a_save_may_hold(
    long_save: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block of 65 MB of zeros, with saves bounded at 1 MB: refused, having held at most
    about that much."""
    bomb = zeros_packed(snapshot.MAX_UNPACKED + 2**20)  # the bomb above
    monkeypatch.setattr(snapshot, "MAX_UNPACKED", 2**20)
    with_blocks(long_save, lambda blocks: [bomb])
    data = long_save.read_bytes()
    tracemalloc.start()
    try:
        with pytest.raises(snapshot.SnapshotError, match="at most 1 MB"):
            snapshot.open_lazily(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20


SMALL = snapshot.encode(noted(40))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_any_flipped_bit_in_a_block_with_its_checksum_made_good_is_refused(data: Any) -> None:
    body = msgspec.msgpack.decode(SMALL[len(snapshot.MAGIC) + 4 :])
    block = bytearray(body["packed"][0])
    index = data.draw(st.integers(0, len(block) - 1), label="index")
    block[index] ^= 1 << data.draw(st.integers(0, 7), label="bit")
    body["packed"] = [bytes(block)]
    crafted = wrapped(body)
    try:
        history = snapshot.open_lazily(crafted)
    except snapshot.SnapshotError as exc:
        assert "\n" not in str(exc)
    else:  # a flip zlib cannot see: it must have changed nothing read
        assert list(history.records) == list(snapshot.open_lazily(SMALL).records)
