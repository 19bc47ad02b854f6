"""The save format: a round trip, and a clear SnapshotError for every kind of bad data."""

import zlib

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import snapshot
from rules.commands import AddCombatant, AddCondition, AddNote, NextTurn
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.errors import Rejected
from rules.events import EncounterCreated, TurnAdvanced
from rules.history import Applied, History, Undone
from rules.registry import get_system
from rules.snapshot import (
    FORMAT,
    MAGIC,
    PackedSnapshot,
    Snapshot,
    SnapshotError,
    decode,
    encode,
    open_lazily,
    pack,
    read_header,
)
from tests.helpers import (
    a_demo_sheet,
    a_scripted_system,
    advance,
    encounter,
    roll_to_apply,
    run,
)
from tests.storage.support import wrapped

FAST = settings(max_examples=100, deadline=None)
SYSTEM = a_scripted_system()


def eventful():
    """A history using every kind of record and most kinds of event."""
    sheet = a_demo_sheet(SYSTEM)
    history = encounter(sheet, None, names=["Ann", "Orc"], system=SYSTEM)
    run(history, AddCombatant(name="[red]Rat[/red]", side="vermin", gm_only=True))
    run(history, AddCondition("c2", "Prone", Duration("rounds", 2)))
    run(history, AddCondition("c3", "Dazed", Duration("end-of-next-turn")))
    seed = roll_to_apply(history)
    system = get_system(SYSTEM)
    for _ in range(5):  # what the roll leaves, applied in full
        if not history.state.last_roll_applied:
            run(history, system.consequence_command(history.state), SeededDice(seed))
    run(history, AddNote("ouch ✎ ünïcode", "c2"))
    advance(history, 3)
    history.undo()
    history.undo()
    history.redo()
    return history


HISTORY = eventful()
DATA = encode(HISTORY)


def wrap(body: bytes) -> bytes:
    """A file with the right magic and a correct checksum around any body."""
    return MAGIC + zlib.crc32(body).to_bytes(4, "big") + body


def written(document: Snapshot) -> bytes:
    """A file holding ``document`` as the tracker writes it: its records packed."""
    fields = msgspec.structs.asdict(document)
    fields["packed"] = pack(fields.pop("records"))
    return wrap(msgspec.msgpack.encode(PackedSnapshot(**fields)))


def fails(data) -> str:
    with pytest.raises(SnapshotError) as caught:
        decode(data)
    message = str(caught.value)
    assert message
    assert "\n" not in message
    return message


# --- the round trip ---------------------------------------------------------------------------


def test_round_trip_keeps_state_and_records():
    restored = decode(DATA)
    assert restored.state == HISTORY.state
    assert restored.records == HISTORY.records
    assert (restored.can_undo, restored.can_redo) == (HISTORY.can_undo, HISTORY.can_redo)


def test_the_fixture_is_rich():
    state = HISTORY.state
    assert state.last_roll_applied
    assert any(c.conditions for c in state.combatants)
    assert any(isinstance(r, Undone) for r in HISTORY.records)
    assert HISTORY.can_redo


def test_a_restored_history_carries_on_like_the_original():
    restored = decode(DATA)
    restored.undo()
    original = eventful()
    original.undo()
    assert restored.state == original.state
    run(restored, NextTurn())
    run(original, NextTurn())
    assert restored.state == original.state


def test_a_fresh_encounter_round_trips():
    history = encounter()
    assert decode(encode(history)).state == history.state


def test_encoding_is_deterministic():
    assert encode(eventful()) == DATA


def test_the_header_is_readable_on_its_own():
    header = read_header(DATA)
    assert (header.format, header.system, header.name) == (FORMAT, SYSTEM, "Test fight")


def test_the_layout_is_magic_checksum_body():
    assert DATA.startswith(MAGIC)
    body = DATA[len(MAGIC) + 4 :]
    assert int.from_bytes(DATA[len(MAGIC) : len(MAGIC) + 4], "big") == zlib.crc32(body)
    assert msgspec.msgpack.decode(body)["format"] == FORMAT


# --- bad data ---------------------------------------------------------------------------------


def test_empty_bytes():
    assert "empty" in fails(b"")


@pytest.mark.parametrize("cut", [1, 4, 7, 8, 10, 11, 12, 13, 100, -100, -1])
def test_truncated_files(cut):
    assert "truncated" in fails(DATA[:cut])


@FAST
@given(st.data())
def test_one_flipped_byte_anywhere_is_caught(data):
    index = data.draw(st.integers(0, len(DATA) - 1), label="index")
    mask = data.draw(st.integers(1, 255), label="mask")
    damaged = bytearray(DATA)
    damaged[index] ^= mask
    message = fails(bytes(damaged))
    assert "not a combat tracker save" in message or "damaged" in message


@pytest.mark.parametrize("index", [0, 7, 8, 11, 12, len(DATA) // 2, len(DATA) - 1])
def test_a_flipped_byte_at_the_edges_of_each_part(index):
    damaged = bytearray(DATA)
    damaged[index] ^= 0x01
    fails(bytes(damaged))


def test_a_json_document():
    assert "not a combat tracker save" in fails(b'{"format": 1, "system": "%s"}' % SYSTEM.encode())


@FAST
@given(st.binary(max_size=300))
def test_random_bytes(junk):
    fails(junk)


@FAST
@given(st.binary(max_size=300))
def test_random_body_with_a_valid_checksum(junk):
    fails(wrap(junk))


def newer_file(format_: int) -> bytes:
    state = HISTORY.state
    newer = Snapshot(
        format=format_,
        system=state.system,
        name=state.name,
        record_count=len(HISTORY.records),
        records=list(HISTORY.records),
        state=state,
        done=HISTORY.done_indices(),
        undone=HISTORY.undone_indices(),
    )
    return written(newer)


def test_the_re_encoding_trick_reproduces_a_real_file():
    assert newer_file(FORMAT) == DATA


def test_a_newer_format_is_refused():
    message = fails(newer_file(FORMAT + 1))
    assert "newer" in message
    assert f"format {FORMAT + 1}" in message
    with pytest.raises(SnapshotError, match="newer"):
        read_header(newer_file(FORMAT + 1))


def test_a_much_newer_format_with_an_unknown_shape_is_refused_as_newer():
    body = msgspec.msgpack.encode({"format": 99, "system": "x", "name": "y", "v99": [1, 2]})
    assert "newer" in fails(wrap(body))


FOREIGN = [
    {"hello": "world"},
    [1, 2, 3],
    None,
    "CMBTRK",
    {"format": "1", "system": SYSTEM, "name": "x"},
    {"format": 1, "system": SYSTEM, "name": "x"},
    {"format": 1, "system": SYSTEM, "name": "x", "records": "nope", "state": 3},
    {
        "format": 1,
        "system": SYSTEM,
        "name": "x",
        "records": [{"type": "no-such-record"}],
        "state": {"name": "x", "system": SYSTEM},
    },
]


@pytest.mark.parametrize("document", FOREIGN)
def test_a_foreign_msgpack_document_with_a_valid_checksum(document):
    message = fails(wrap(msgspec.msgpack.encode(document)))
    assert "damaged" in message or "does not know" in message


def test_an_unknown_kind_of_event_is_named() -> None:
    document = {
        "format": FORMAT,
        "system": SYSTEM,
        "name": "x",
        "record_count": 1,
        "records": [{"type": "applied", "events": [{"type": "summon-dragon"}]}],
        "state": {"name": "x", "system": SYSTEM},
        "done": [0],
        "undone": [],
    }
    message = fails(wrapped(document))  # its records packed, as format 5 holds them
    assert "a kind of event this tracker does not know" in message
    assert "summon-dragon" in message


def test_trailing_bytes_after_a_valid_body():
    fails(wrap(DATA[len(MAGIC) + 4 :] + b"\x00"))


def test_a_log_that_cannot_be_replayed():
    created = EncounterCreated("x", SYSTEM)
    records = [Applied((created,)), Undone()]
    state = History(created).state
    data = written(
        Snapshot(
            format=FORMAT,
            system=SYSTEM,
            name="x",
            record_count=2,
            records=records,
            state=state,
            done=[0],
            undone=[],
        )
    )
    assert "cannot be replayed" in fails(data)


def test_a_save_of_an_unknown_rule_system():
    state = HISTORY.state
    created = EncounterCreated(state.name, "no-such-system")
    foreign = Snapshot(
        format=FORMAT,
        system="no-such-system",
        name=state.name,
        record_count=len(HISTORY.records),
        records=[Applied((created,)), *HISTORY.records[1:]],
        state=state,
        done=HISTORY.done_indices(),
        undone=HISTORY.undone_indices(),
    )
    fails(written(foreign))


def test_a_state_that_does_not_match_the_log():
    other = encounter(None, system=SYSTEM)
    forged = Snapshot(
        format=FORMAT,
        system=SYSTEM,
        name="Test fight",
        record_count=len(HISTORY.records),
        records=list(HISTORY.records),
        state=other.state,
        done=HISTORY.done_indices(),
        undone=HISTORY.undone_indices(),
    )
    assert "does not match" in fails(written(forged))


MSGPACK_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=10)
    | st.binary(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["format", "system", "name", "records", "state", "type", "events"])
            | st.text(max_size=5),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@FAST
@given(
    records=st.lists(MSGPACK_VALUES, max_size=3),
    state=MSGPACK_VALUES,
    format_=st.integers(-3, FORMAT),
)
def test_well_formed_msgpack_of_the_wrong_shape(records, state, format_):
    document = {
        "format": format_,
        "system": SYSTEM,
        "name": "x",
        "records": records,
        "state": state,
    }
    fails(wrap(msgspec.msgpack.encode(document)))


def test_deeply_nested_msgpack_is_a_snapshot_error():
    body = b"\x81\xa1x" + b"\x91" * 100_000 + b"\xc0"  # {"x": [[[...[nil]...]]]}
    fails(wrap(body))


@pytest.mark.parametrize("typed", ["1" + "0" * 20, "-" + "9" * 19, "1000000", "-1000000"])
def test_a_sheet_typed_into_a_form_can_always_be_saved(typed):
    history = encounter(system=SYSTEM)
    system = get_system(SYSTEM)
    blank = system.new_sheet()
    typed_in = [field.key for field in system.sheet_form(blank) if field.kind != "choice"]
    assert typed_in, f"{SYSTEM}'s sheet has no field to type in"
    for key in typed_in:
        try:
            sheet = system.sheet_from_form({key: typed}, blank)
            run(history, AddCombatant(name="Huge", sheet=sheet))
        except Rejected:
            continue  # refusing the number at the form keeps the save safe too
    assert decode(encode(history)).state == history.state


# --- the stamp: a float in every record, bounded as it is decoded -------------------------------


def stamped(*events: object) -> History:
    """The eventful history with a record of ``events`` more, each record stamped."""
    history = History(HISTORY.records[0].events[0])
    for number, record in enumerate(list(HISTORY.records)[1:], start=1):
        if isinstance(record, Applied):
            record = Applied(record.events, record.label, 1000.0 + number)
        history._replay(record)
    if events:
        history.commit(events, "crafted", 99_999.5)
    return history


def test_a_stamped_record_is_not_walked_for_its_stamp(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[object] = []

    def counted(value: object) -> str | None:
        walked.append(value)
        return None

    monkeypatch.setattr("rules.snapshot.out_of_bounds", counted)
    history = open_lazily(encode(stamped()))
    assert [r.at for r in history.records if isinstance(r, Applied)][1:4] == [1001, 1002, 1003]
    assert all(type(value).__name__.startswith("Encounter") for value in walked), walked


@pytest.mark.parametrize("hostile", [False, True])
def test_a_refold_finishes_every_record_as_reading_each_would(hostile: bool) -> None:
    from rules.events import NoteAdded
    from tests.hostile_text import EVERY, unsafe_strings

    note = NoteAdded(text=EVERY if hostile else "a plain note")
    data = encode(stamped(note))
    one_by_one = list(open_lazily(data).records)
    refolded = open_lazily(data)
    refolded.refold()
    assert refolded.records._unfinished.count(1) == 0  # all finished, at once
    assert list(refolded.records) == one_by_one
    assert unsafe_strings(one_by_one) == [] and (one_by_one[-1].events != (note,)) == hostile


def test_a_stamped_record_holding_a_number_no_input_could_is_still_refused() -> None:
    crafted = encode(stamped(TurnAdvanced(round=10**15, actor_id=None)))
    with pytest.raises(SnapshotError, match="what no input could"):
        open_lazily(crafted)


@pytest.mark.parametrize("crafted", [False, True])
def test_a_record_written_otherwise_is_checked_on_its_own(
    crafted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose fields come in another order than the tracker writes them (so it does
    not encode back to its bytes) opens as it would, and is walked, stamp and all: the whole
    log is checked at once only when every record encodes back to its bytes."""
    alone: list[object] = []
    unstamped = snapshot._unstamped
    monkeypatch.setattr(snapshot, "_unstamped", lambda raw, r: alone.append(r) or unstamped(raw, r))
    history = stamped(TurnAdvanced(round=10**15 if crafted else 3, actor_id=None))
    records: list[object] = list(history.records)
    fields = msgspec.to_builtins(records[-1])
    records[-1] = dict(reversed(list(fields.items())))  # the stamp first, the tag last
    state = stamped().state  # in bounds: only the record can be refused
    document = Snapshot(
        format=FORMAT,
        system=SYSTEM,
        name="Test fight",
        record_count=len(records),
        records=records,
        state=state,
        done=[*stamped().done_indices(), len(records) - 1],
        undone=[],
    )
    if crafted:
        with pytest.raises(SnapshotError, match="what no input could"):
            open_lazily(written(document))
    else:
        assert list(open_lazily(written(document)).records) == list(history.records)
    assert len(alone) == len(records)  # each on its own
    alone.clear()
    open_lazily(encode(stamped()))
    assert not alone  # as the tracker writes them: all at once
