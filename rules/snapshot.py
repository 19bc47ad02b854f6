"""The save format, as bytes: a versioned snapshot, and the journal frames that follow it.

A save is two files (``tracker.store.storage`` reads and writes them):

- the snapshot: ``MAGIC`` (8 bytes), a CRC-32 of the body (4 bytes, big-endian), then the
  body, a MessagePack ``PackedSnapshot``: header fields, the whole log (since format 5 in
  zlib-compressed blocks of ``BLOCK`` records), and the folded state;
- the journal: the records committed since that snapshot, one frame each (see
  ``encode_frame``), appended and flushed one at a time, not compressed.

Only the snapshot is compressed: it is written whole and atomically, so a crash leaves the
old one or the new one, never half a block, and each journal frame stays readable alone
with its own checksum (at most ``COMPACT_EVERY`` records, a few tens of kB, before they are
folded into a snapshot). The records compress about 30x; blocks a snapshot wrote or read are
kept (``RecordLog.packed``), so a compaction compresses only the newest records.

Whatever a file holds, the text read from it is made inert (``rules.text``) as it is decoded.

The checksums turn a flipped byte into a clear "damaged" error rather than a wrong fight,
and let a record torn by a crash be told from a good one.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import zlib
from collections.abc import Callable, Iterator
from functools import cache
from typing import Annotated, Any, Generic, NamedTuple, TypeVar, Union, cast

import msgspec
from msgspec import Meta, Struct

from rules.bounds import out_of_bounds
from rules.encounter import AnyEncounter, CombatantAdded, CombatantEdited, Encounter, NoState
from rules.errors import Rejected
from rules.events import CoreEvent
from rules.history import Applied, History, Record, RecordLog, Redone, Undone
from rules.registry import get_system
from rules.text import inert_value

T = TypeVar("T")
Rec = TypeVar("Rec")  # one system's Record union
Enc = TypeVar("Enc")  # one system's Encounter

MAGIC = b"CMBTRK\x00\x01"
FORMAT = 5
LAZY = 3  # the first format that stores the records in effect: opened without a replay
PLAIN = 4  # the last format whose records are stored as they are: ``Snapshot``'s document
PACKED = 5  # the first format whose records are stored in compressed blocks
_CRC = 4
JOURNAL_MAGIC = b"CMBTRKJ\x01"  # a journal's first bytes (format 4), then its save's id
ID_BYTES = 16
# Records in a save: five times the biggest fight measured (docs/contributing/performance.md), and
# few enough that opening one cannot take the memory of a machine.
MAX_RECORDS = 500_000
# The log's lists, refused as they are decoded when longer (before any of their items is).
Records = Annotated[list[T], Meta(max_length=MAX_RECORDS)]
Indices = Annotated[list[int], Meta(max_length=MAX_RECORDS)]
# Records a compressed block holds (the last may hold fewer): a block compresses about as
# well as the whole log (31x against 34x; zlib looks back 32 kB) and costs a few ms.
BLOCK = 1000
Blocks = Annotated[list[bytes], Meta(max_length=MAX_RECORDS // BLOCK + 1)]
# What a save's records may unpack to, all its blocks together: what a whole save could
# hold before they were compressed (tracker.store.storage.MAX_BYTES), so a save opens in no more
# memory than one did, and a block crafted to unpack to gigabytes is refused at this many.
MAX_UNPACKED = 64 * 1024 * 1024


class SnapshotError(Exception):
    """A save that cannot be read; the message says why, in a few words."""


class Header(Struct):
    """The fields read before anything else, so a newer file is refused before decoding it."""

    format: int
    system: str
    name: str
    record_count: int = -1  # absent before format 2
    save_id: bytes = b""  # absent before format 4: the journal names it (see journal_header)


class Snapshot(Struct, Generic[Rec, Enc]):
    format: int
    system: str
    name: str
    record_count: int  # the journal continues from this record number
    records: Records[Rec]
    state: Enc
    done: Indices  # indices of the records in effect (format 3)
    undone: Indices  # indices of undone records, newest last (format 3)
    save_id: bytes = b""  # format 4
    near: bytes = b""  # format 5, as PackedSnapshot's
    near_step: int = 0


class LazySnapshot(Struct, Generic[Enc]):
    """The same document, its records left as bytes, to be checked one by one (format 3-4;
    a format-5 save's records are unpacked into it)."""

    format: int
    system: str
    name: str
    record_count: int
    records: Records[msgspec.Raw]
    state: Enc
    done: Indices
    undone: Indices
    save_id: bytes = b""
    near: bytes = b""  # format 5, as PackedSnapshot's
    near_step: int = 0


class PackedSnapshot(Struct, Generic[Enc], omit_defaults=True):
    """A format-5 save as written: its records in compressed blocks (``pack``)."""

    format: int
    system: str
    name: str
    record_count: int
    packed: Blocks
    state: Enc
    done: Indices
    undone: Indices
    save_id: bytes = b""
    # The state after the ``near_step``-th record in effect, near the end (``History.near_end``),
    # compressed as a block is (b"": none, as in the first format-5 saves and a short
    # fight's): a long fight opens from it without folding its whole log first. Older
    # trackers pass it over.
    near: bytes = b""
    near_step: int = 0


# --- migrations: each takes a format-N document (plain dicts and lists) to format N+1 ---------


def _format_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    # Format 2 adds the journal; its frames are numbered from record_count.
    return {**doc, "format": 2, "record_count": len(doc.get("records", []))}


def _format_2_to_3(doc: dict[str, Any]) -> dict[str, Any]:
    # Format 3 stores which records are in effect, so opening need not replay the log.
    done: list[int] = []
    undone: list[int] = []
    for index, record in enumerate(doc.get("records", [])):
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "applied":
            done.append(index)
            undone.clear()
        elif kind == "undone" and len(done) > 1:
            undone.append(done.pop())
        elif kind == "redone" and undone:
            done.append(undone.pop())
    return {**doc, "format": 3, "done": done, "undone": undone}


def _format_3_to_4(doc: dict[str, Any]) -> dict[str, Any]:
    # Format 4 adds the save's id, which its journal repeats; an older save has none.
    return {**doc, "format": 4, "save_id": b""}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _format_1_to_2,
    2: _format_2_to_3,
    3: _format_3_to_4,
}


def migrate(doc: dict[str, Any]) -> dict[str, Any]:
    """Bring an older document up to ``PLAIN``, one step at a time (format 5 is format 4's
    document with its records packed: see ``pack`` and ``unpack``)."""
    while doc["format"] < PLAIN:
        doc = MIGRATIONS[doc["format"]](doc)
    return doc


# --- the records packed in compressed blocks (format 5) ------------------------------------

_LEVEL = 6  # zlib's default: level 1 compresses the log 23x, not 34x, in a third of the time
_block_decoder = msgspec.msgpack.Decoder(Records[msgspec.Raw])


def _deflate(records: list[Any]) -> bytes:
    return zlib.compress(_encoder.encode(records), _LEVEL)


def pack(records: list[Any], kept: list[bytes] | None = None) -> list[bytes]:
    """``records`` in compressed blocks of ``BLOCK`` (each a MessagePack array). ``kept``
    holds the blocks of the first records already compressed, and takes the new full ones:
    the log only grows, so a full block never changes."""
    kept = [] if kept is None else kept
    full = len(records) // BLOCK
    while len(kept) < full:
        start = len(kept) * BLOCK
        kept.append(_deflate(records[start : start + BLOCK]))
    rest = records[full * BLOCK :]
    return kept[:full] + ([_deflate(rest)] if rest else [])


def unpack(blocks: list[bytes]) -> tuple[list[msgspec.Raw], list[bytes]]:
    """The records in ``blocks``, as bytes, and the leading blocks of ``BLOCK`` records each
    (to be kept for the next ``pack``); SnapshotError for a block that is damaged, cut
    short, or unpacks past ``MAX_UNPACKED`` altogether."""
    raws: list[msgspec.Raw] = []
    kept: list[bytes] = []
    budget = MAX_UNPACKED
    for block in blocks:
        data = _inflate(block, budget)
        budget -= len(data)
        try:
            items = _block_decoder.decode(data)
        except msgspec.ValidationError as exc:
            raise SnapshotError(f"it holds more than a save may ({exc})") from None
        except msgspec.DecodeError as exc:
            raise SnapshotError(f"the file is damaged (a block of its records: {exc})") from None
        if not items:
            raise SnapshotError("the file is damaged (a block of its records holds none)")
        if len(kept) * BLOCK == len(raws) and len(items) == BLOCK:
            kept.append(block)
        raws.extend(items)
        if len(raws) > MAX_RECORDS:
            raise SnapshotError(f"it holds more records than a save may (at most {MAX_RECORDS:,})")
    return raws, kept


def _inflate(block: bytes, budget: int, what: str = "a block of its records") -> bytes:
    """A block unpacked, never to more than ``budget`` bytes: unpacking stops one byte
    past it, however much a crafted block would make. ``what``: the block, as errors name it."""
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(block, budget + 1)  # 0 would mean no bound: never passed
    except zlib.error as exc:
        raise SnapshotError(f"the file is damaged ({what} cannot be unpacked: {exc})") from None
    if len(data) > budget:
        raise SnapshotError(
            f"its records unpack to more than a save may hold (at most {MAX_UNPACKED // 2**20} MB)"
        )
    if not inflater.eof:
        raise SnapshotError(f"the file is damaged ({what} is cut short)")
    if inflater.unused_data:
        raise SnapshotError(f"the file is damaged ({what} runs on past its end)")
    return data


# --- snapshots -------------------------------------------------------------------------------

_header_decoder = msgspec.msgpack.Decoder(Header)
_encoder = msgspec.msgpack.Encoder()


class Codec(NamedTuple):
    """The concrete types and decoders of one system's saves."""

    snapshot_type: Any
    snapshot: msgspec.msgpack.Decoder[Any]
    lazy: msgspec.msgpack.Decoder[Any]
    packed: msgspec.msgpack.Decoder[Any]
    record: msgspec.msgpack.Decoder[Any]
    records: msgspec.msgpack.Decoder[Any]  # a list of records, at once (``_decoded``)
    entry: msgspec.msgpack.Decoder[Any]
    state: msgspec.msgpack.Decoder[Any]  # an Encounter alone (a forecast's worker gets one)


def _union(types: tuple[Any, ...]) -> Any:
    unique = tuple(dict.fromkeys(types))
    return unique[0] if len(unique) == 1 else Union[unique]  # noqa: UP007 - built at run time


def _of(generic: Any, *params: Any) -> Any:
    """``generic[params]`` with types known only at run time (mypy checks static ones)."""
    return generic[params if len(params) > 1 else params[0]]


@cache
def codec(system_name: str) -> Codec:
    """The decoders for saves of ``system_name``: the core's generic Structs given that
    system's sheet, event, roll and state types. Built once per system, on first use."""
    try:
        system = get_system(system_name)
    except Rejected:
        raise SnapshotError(
            f"it is for a rule system this tracker does not know ({system_name!r})"
        ) from None
    sheet = _union(system.sheet_types)
    event = _union(
        (CoreEvent, _of(CombatantAdded, sheet), _of(CombatantEdited, sheet), *system.event_types)
    )
    roll = _union(system.roll_event_types)
    encounter = _of(Encounter, sheet, roll, _union((system.state_type, NoState)))
    record = _union((_of(Applied, event), Undone, Redone))
    snapshot = _of(Snapshot, record, encounter)
    return Codec(
        snapshot_type=snapshot,
        snapshot=msgspec.msgpack.Decoder(snapshot),
        lazy=msgspec.msgpack.Decoder(_of(LazySnapshot, encounter)),
        packed=msgspec.msgpack.Decoder(PackedSnapshot[msgspec.Raw]),  # the state: ``_lazy``
        record=msgspec.msgpack.Decoder(record),
        records=msgspec.msgpack.Decoder(list[record]),  # type: ignore[valid-type]
        entry=msgspec.msgpack.Decoder(_of(Entry, record)),
        state=msgspec.msgpack.Decoder(encounter),
    )


def encode(history: History, save_id: bytes = b"") -> bytes:
    """The snapshot's bytes; ``save_id`` ties its journal to it (``journal_header``)."""
    state = history.state
    near_step, near = history.near_end() or (0, None)
    packed_near = b"" if near is None else zlib.compress(_encoder.encode(near), _LEVEL)
    body = _encoder.encode(
        PackedSnapshot(
            format=FORMAT,
            system=state.system,
            name=state.name,
            record_count=len(history.records),
            packed=pack(history.records.encodable(), history.records.packed),
            state=state,
            done=history.done_indices(),
            undone=history.undone_indices(),
            save_id=save_id,
            near=packed_near,
            near_step=near_step,
        )
    )
    return MAGIC + zlib.crc32(body).to_bytes(_CRC, "big") + body


def _body(data: bytes) -> memoryview:
    if not data:
        raise SnapshotError("the file is empty")
    if not data.startswith(MAGIC):
        truncated = MAGIC.startswith(data)
        raise SnapshotError("the file is truncated" if truncated else "not a combat tracker save")
    if len(data) < len(MAGIC) + _CRC:
        raise SnapshotError("the file is truncated")
    body = memoryview(data)[len(MAGIC) + _CRC :]  # not a copy: a save may be 64 MB
    expected = int.from_bytes(data[len(MAGIC) : len(MAGIC) + _CRC], "big")
    if zlib.crc32(body) != expected:
        raise SnapshotError("the file is truncated or damaged (checksum mismatch)")
    return body


def read_header(data: bytes) -> Header:
    """Check the magic, checksum and version; raises SnapshotError."""
    body = _body(data)
    try:
        header = inert_value(_header_decoder.decode(body))
    except (msgspec.DecodeError, RecursionError) as exc:
        raise SnapshotError(f"the file is damaged ({exc})") from None
    if header.format > FORMAT:
        raise SnapshotError(
            f"it was written by a newer tracker (format {header.format}; "
            f"this one reads up to format {FORMAT})"
        )
    if header.format < 1:
        raise SnapshotError(f"it has an impossible format number ({header.format})")
    if header.record_count > MAX_RECORDS:
        raise SnapshotError(
            f"it holds {header.record_count:,} records, more than a save may "
            f"(at most {MAX_RECORDS:,})"
        )
    if header.save_id and len(header.save_id) != ID_BYTES:
        raise SnapshotError("the file is damaged (its id is not one the tracker writes)")
    return header


def _not_understood(exc: msgspec.ValidationError, system: str) -> SnapshotError:
    text = str(exc)
    if "<= " in text:  # a bound of the save format's types: a long name, too many of a thing
        return SnapshotError(f"it holds more than a save may ({text})")
    if "Invalid value" in text and text.rstrip("`").endswith(".type"):
        foreign = text.split("'")[1] if text.count("'") >= 2 else ""
        if foreign and "." in foreign and not foreign.startswith(f"{system}."):
            # A tag of another system: the header and the body disagree.
            return SnapshotError(f"it says it is a {system} save but holds {foreign!r} ({text})")
        return SnapshotError(f"it holds a kind of event this tracker does not know ({text})")
    return SnapshotError(f"the file is damaged ({text})")


def decode_snapshot(data: bytes) -> Snapshot[Record, AnyEncounter]:
    """The snapshot in a save's bytes, migrated to the current format."""
    header = read_header(data)
    body = _body(data)
    types = codec(header.system)
    try:
        if header.format >= PACKED:
            lazy, _ = _lazy(header, body, types)
            records = [types.record.decode(raw) for raw in lazy.records]
            snapshot = types.snapshot_type(**{**msgspec.structs.asdict(lazy), "records": records})
        elif header.format == PLAIN:
            snapshot = types.snapshot.decode(body)
        else:
            snapshot = msgspec.convert(migrate(msgspec.msgpack.decode(body)), types.snapshot_type)
        return cast("Snapshot[Record, AnyEncounter]", _within_bounds(inert_value(snapshot)))
    except msgspec.ValidationError as exc:
        raise _not_understood(exc, header.system) from None
    except (msgspec.DecodeError, RecursionError, KeyError, TypeError) as exc:
        raise SnapshotError(f"the file is damaged ({exc})") from None


def open_lazily(data: bytes, more: list[Record] | None = None, read_later: bool = False) -> History:
    """The history in a save, fast: the log is not replayed.

    Every record is decoded once, to check it (a checksum only catches accidents: a crafted
    save has a good one), and kept: reading it later decodes nothing again (its texts are
    made inert when it is first read). The snapshot's state
    is used as stored once its records in effect are checked to fit; ``decode`` refolds it.
    Records from the journal are then applied one by one, as they were when first made.

    ``read_later``: a save that keeps a state near its end opens with only the records after
    it decoded; the rest are decoded and checked when first asked for (``RecordLog.read``,
    which raises SnapshotError for one that is not a record). A long fight's first frame
    draws from the newest alone.
    """
    header = read_header(data)
    if header.format < LAZY:
        # An older save is replayed under today's rules: its log, not its stored state,
        # is what it means (the rules may have learnt to track more since).
        return history_of(decode_snapshot(data), more, verify=False)
    types = codec(header.system)
    try:
        with _reading(header.system):
            lazy, kept = _lazy(header, _body(data), types)
            log = _record_log(lazy, types, header.system, read_later)
            log.packed = kept
            near = None
            if lazy.near:
                unpacked = _inflate(lazy.near, MAX_UNPACKED, "the state it keeps near its end")
                state = _within_bounds(types.state.decode(unpacked), unpacked)
                near = (lazy.near_step, inert_value(state))
            history = History.restore(log, lazy.done, lazy.undone, inert_value(lazy.state), near)
            for record in more or []:
                history._replay(record)
    except SnapshotError:
        raise
    except Exception as exc:  # any rule error while replaying: the file, not the app, is at fault
        raise SnapshotError(f"its event log cannot be replayed ({exc})") from None
    return history


@contextlib.contextmanager
def _reading(system: str) -> Iterator[None]:
    """msgspec's errors decoding a save of ``system`` raised as SnapshotError."""
    try:
        yield
    except msgspec.ValidationError as exc:
        raise _not_understood(exc, system) from None
    except (msgspec.DecodeError, RecursionError) as exc:
        raise SnapshotError(f"the file is damaged ({exc})") from None


def _lazy(header: Header, body: memoryview, types: Codec) -> tuple[LazySnapshot[Any], list[bytes]]:
    """The document of a save of format 3 or later, its records as bytes, and the blocks
    to keep for the next ``pack``; its state found to hold nothing out of bounds. The
    state is decoded from its own bytes: one with no byte of a wide value is not walked
    (walking 200 combatants was 10 ms)."""
    if header.format < PACKED:
        lazy = types.lazy.decode(body)
        _within_bounds(lazy.state)
        return lazy, []
    packed = types.packed.decode(body)
    state = _within_bounds(types.state.decode(packed.state), packed.state)
    raws, kept = unpack(packed.packed)
    fields = {**msgspec.structs.asdict(packed), "records": raws, "state": state}
    del fields["packed"]
    return LazySnapshot(**fields), kept


def _record_log(
    lazy: LazySnapshot[Any], types: Codec, system: str, read_later: bool = False
) -> RecordLog:
    """The records, each decoded as one of the system's, once the records in effect and
    undone are found to be ones that can be (raises msgspec's errors or SnapshotError). They
    are kept: once they were dropped and decoded again when read, so that a long fight's
    replay decoded every record twice. ``read_later``: those before the state kept near the
    end (``open_lazily``) are decoded and checked when first asked for."""
    raws, count = lazy.records, len(lazy.records)
    if count != lazy.record_count:
        raise SnapshotError("the file is damaged (its record count does not match its log)")
    named = lazy.done + lazy.undone
    if named and not 0 <= min(named) <= max(named) < count:
        raise SnapshotError("the file is damaged (it names records its log does not hold)")
    if not count:
        raise _not_all_changes()
    if len(set(lazy.done + lazy.undone)) != len(lazy.done) + len(lazy.undone):
        raise SnapshotError("the file is damaged (a record is in effect twice)")
    later = _read_later(lazy) if read_later else range(1, 1)
    read = _decoded(raws[: later.start] + raws[later.stop :], types)  # in one call
    first, last = read[: later.start], read[later.start :]
    _all_changes(first, lazy)
    _all_changes(last, lazy, later.stop)

    def unread() -> list[Record]:
        with _reading(system):
            older = _decoded(raws[later.start : later.stop], types)
        _all_changes(older, lazy, later.start)
        return older

    records: list[Record | None] = [*first, *[None] * len(later), *last]
    return RecordLog(records, inert_value, unread if later else None)


def _read_later(lazy: LazySnapshot[Any]) -> range:
    """The records a long fight may open without: those before the one in effect whose
    state it keeps near its end (none undone among them)."""
    if not (lazy.near and 0 < lazy.near_step < len(lazy.done) - 1):
        return range(1, 1)
    return range(1, max(1, min([lazy.done[lazy.near_step], *lazy.undone])))


def _all_changes(records: list[Record], lazy: LazySnapshot[Any], first: int = 0) -> None:
    """SnapshotError unless each of ``records`` (the log's from its ``first``-th) that the log
    opens with, or holds in effect or undone, is a change (``Applied``)."""
    others = {first + at for at, record in enumerate(records) if not isinstance(record, Applied)}
    if 0 in others or not others.isdisjoint(lazy.done) or not others.isdisjoint(lazy.undone):
        raise _not_all_changes()


def _not_all_changes() -> SnapshotError:
    return SnapshotError("the file is damaged (its records in effect are not all changes)")


def _decoded(raws: list[msgspec.Raw], types: Codec) -> list[Record]:
    """``raws`` decoded, once none holds a text, number or list out of bounds (else
    SnapshotError; msgspec's errors for one that is no record).

    As the tracker writes them, every record encodes back to its bytes: then the whole log
    is decoded in one call, and found to encode back in one more (a call a record was a
    third of a long fight's reading), so each stamped record is known to end with its stamp.
    Otherwise (a save written by hand) each is checked alone, and a log that does not
    decode as one is decoded a record at a time, for the error of the record at fault.
    """
    data = b"".join(raws)
    ends = list(itertools.accumulate(map(len, raws)))
    whole = _array_head(len(raws)) + data
    try:
        records: list[Record] = types.records.decode(whole)
    except (msgspec.DecodeError, RecursionError):
        records = []
    if records and _encoder.encode(records) == whole:
        marked = bytearray(data.translate(_WIDE))
        for end, record in zip(ends, records, strict=True):
            if isinstance(record, Applied) and record.at is not None:
                marked[end - _STAMP : end] = _UNMARKED
    else:
        records = records or [types.record.decode(raw) for raw in raws]
        unstamped = [_unstamped(raw, record) for raw, record in zip(raws, records, strict=True)]
        ends = list(itertools.accumulate(map(len, unstamped)))
        marked = bytearray(b"".join(unstamped).translate(_WIDE))
    for n in _wide(marked, ends):
        _within_bounds(records[n])
    return records


def _array_head(count: int) -> bytes:
    """MessagePack's head of an array of ``count`` items."""
    if count < 16:
        return bytes([0x90 | count])
    if count < 1 << 16:
        return b"\xdc" + count.to_bytes(2, "big")
    return b"\xdd" + count.to_bytes(4, "big")


# MessagePack's floats, its 32- and 64-bit integers, its strings of 256 bytes or more and its
# arrays and maps of 65,536 items or more: a record with none of these bytes holds no text,
# number or list out of bounds (rules.bounds.SAVED_COUNT is more), and is not walked.
_WIDE = bytes(int(byte in b"\xca\xcb\xce\xcf\xd2\xd3\xda\xdb\xdd\xdf") for byte in range(256))


_STAMP = 9  # a stamp as the tracker writes it: a float64's marker and its 8 bytes
_UNMARKED = bytes(_STAMP)


def _unstamped(raw: msgspec.Raw, record: Record) -> msgspec.Raw | memoryview:
    """``raw`` without its stamp, where it is known to end with it: a float, so one of those
    bytes, in nearly every record, though it was bounded as it was decoded (``Applied.at``).
    Known only when ``record`` encodes back to ``raw`` exactly, which puts the stamp last
    (walking every stamped record was a third of the time a 20,000-record save took to read)."""
    if isinstance(record, Applied) and record.at is not None:
        view = memoryview(raw)
        if _encoder.encode(record) == view:
            return view[:-_STAMP]
    return raw


def _wide(marked: bytes | bytearray, ends: list[int]) -> set[int]:
    """Which records hold one of those bytes, given the records' bytes each translated to
    1 where one is and 0 elsewhere (``_WIDE``), and where each record ends: found in C, one
    jump a record found (a search a record took as long as the rest of the check, a regular
    expression half)."""
    found: set[int] = set()
    at = marked.find(1)
    while at >= 0:
        record = bisect.bisect_right(ends, at)
        found.add(record)
        at = marked.find(1, ends[record])
    return found


def _within_bounds(value: T, raw: bytes | msgspec.Raw | None = None) -> T:
    """``value`` (decoded from ``raw``, if given) if it holds no text or number beyond what
    input may (``rules.bounds``); else SnapshotError."""
    if raw is not None and not bytes(raw).translate(_WIDE).count(1):
        return value
    beyond = out_of_bounds(value)
    if beyond is not None:
        raise SnapshotError(f"it holds what no input could: {beyond}")
    return value


def history_of(
    snapshot: Snapshot[Record, AnyEncounter], more: list[Record] | None = None, verify: bool = True
) -> History:
    """Replay a snapshot's log (and records from its journal) into a History.

    ``verify`` checks the replayed state against the one the snapshot stored.
    """
    try:
        history = History.from_records([*snapshot.records, *(more or [])])
    except Exception as exc:  # any rule error while replaying: the file, not the app, is at fault
        raise SnapshotError(f"its event log cannot be replayed ({exc})") from None
    if verify and not more and history.state != snapshot.state:
        raise SnapshotError("its saved state does not match its event log")
    return history


def decode(data: bytes) -> History:
    """The history a snapshot holds (without a journal), fully checked; raises SnapshotError."""
    current = read_header(data).format >= LAZY  # a stored state to check the log against
    return history_of(decode_snapshot(data), verify=current)


# --- journal frames ----------------------------------------------------------------------------
#
# A frame: length of the payload (4 bytes), CRC-32 of the payload (4 bytes), payload. The
# payload is a MessagePack Entry: the record's number in the log, and the record.


class Entry(Struct, Generic[Rec], array_like=True):
    number: int
    record: Rec


_FRAME_HEAD = 8


def encode_frame(number: int, record: Record) -> bytes:
    payload = _encoder.encode(Entry(number, record))
    return len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big") + payload


class Frames(Struct):
    """The records a journal holds, and what was wrong with its end, if anything."""

    entries: list[Entry[Record]]
    problem: str | None = None
    good_bytes: int = 0  # how much of the journal holds whole, valid frames


def decode_frames(data: bytes, system: str) -> Frames:
    """Every valid frame from the start (records of ``system``); stops at the first torn or
    damaged one. More than ``MAX_RECORDS`` (a snapshot is written every 500) is a crafted
    journal, refused (SnapshotError) before the rest is decoded."""
    decoder = codec(system).entry
    entries: list[Entry[Record]] = []
    offset = 0
    while offset < len(data):
        if len(entries) >= MAX_RECORDS:
            raise SnapshotError(
                f"its journal holds more records than a save may (at most {MAX_RECORDS:,})"
            )
        head = data[offset : offset + _FRAME_HEAD]
        size = int.from_bytes(head[:4], "big")
        payload = data[offset + _FRAME_HEAD : offset + _FRAME_HEAD + size]
        if len(head) < _FRAME_HEAD or len(payload) < size:
            return Frames(entries, "its last record was cut short (a crash while saving)", offset)
        if zlib.crc32(payload) != int.from_bytes(head[4:], "big"):
            return Frames(entries, f"its journal is damaged after record {len(entries)}", offset)
        try:
            entries.append(_within_bounds(inert_value(decoder.decode(payload)), payload))
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, SnapshotError) as exc:
            return Frames(entries, f"its journal holds a record it cannot read ({exc})", offset)
        offset += _FRAME_HEAD + size
    return Frames(entries, None, offset)


def journal_header(save_id: bytes) -> bytes:
    """A journal's first bytes: the id of the save it continues (none for a save written
    before format 4, whose journal is frames alone)."""
    return JOURNAL_MAGIC + save_id if save_id else b""


def journal_owner(data: bytes) -> tuple[bytes | None, bytes]:
    """The id of the save a journal belongs to (``b""``: a save of format 3 or before; None:
    the journal holds nothing yet, or a header cut short), and the frames after it."""
    head = len(JOURNAL_MAGIC) + ID_BYTES
    if data.startswith(JOURNAL_MAGIC):
        return (None, b"") if len(data) < head else (data[len(JOURNAL_MAGIC) : head], data[head:])
    if JOURNAL_MAGIC.startswith(data):  # empty, or a header cut short by a crash
        return None, b""
    return b"", data


def records_in(data: bytes) -> int:
    """How many records a snapshot holds (where the journal takes over)."""
    header = read_header(data)
    if header.record_count >= 0:
        return header.record_count
    return len(decode_snapshot(data).records)  # an old format: read it all


def continue_log(start: int, frames: Frames) -> tuple[list[Record], str | None]:
    """The journal's records that follow the snapshot's ``start`` records; a gap ends them."""
    records: list[Record] = []
    expected = start
    problem = frames.problem
    for entry in frames.entries:
        if entry.number < expected:
            continue  # already in the snapshot: the journal was not yet cleared when it stopped
        if entry.number != expected:
            problem = f"its journal skips from record {expected} to {entry.number}"
            break
        records.append(entry.record)
        expected += 1
    return records, problem
