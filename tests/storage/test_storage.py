"""Saves on disk: atomic writes, one clear line for each bad file, and files never touched."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rules import snapshot
from rules.commands import NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from tests.contract.headless_checks import check_demo_stem
from tests.contract.support import demo
from tests.helpers import people
from tests.picks import a_system, has_demo
from tracker.store import storage
from tracker.store.defaults import systems

SYSTEM = a_system(has_demo)
DEMO = f"{check_demo_stem(SYSTEM)}.fight"  # its file name in saves/


def a_demo() -> History:
    """A fresh copy of the picked system's demo: a real fight, with rolls and a log."""
    return demo(SYSTEM)


def test_write_then_read_gives_the_same_encounter(tmp_path: Path) -> None:
    history = a_demo()
    path = tmp_path / "fight.fight"
    storage.write(path, history)
    again = storage.read(path)
    assert again.state == history.state
    assert again.records == history.records


def test_write_leaves_no_temporary_files_and_replaces_atomically(tmp_path: Path) -> None:
    path = tmp_path / "a.fight"
    storage.write(path, people(1))
    storage.write(path, people(2))
    assert [p.name for p in tmp_path.iterdir()] == ["a.fight"]
    assert len(storage.read(path).state.combatants) == 2


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.fight"
    storage.write(path, people(1))
    before = path.read_bytes()

    def broken_replace(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(storage.SaveError, match="could not save"):
        storage.write(path, people(3))
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.fight"]


def _newer_file() -> bytes:
    import zlib

    import msgspec

    body = msgspec.msgpack.encode({"format": snapshot.FORMAT + 1, "system": SYSTEM, "name": "x"})
    return snapshot.MAGIC + zlib.crc32(body).to_bytes(4, "big") + body


BAD_FILES = {
    "empty": (b"", "the file is empty"),
    "truncated": (None, "truncated"),
    "flipped byte": (None, "damaged"),
    "foreign text": (b"# my notes\nnot a save at all\n", "not a combat tracker save"),
    "json": (b'{"format": 1}', "not a combat tracker save"),
    "newer": (
        _newer_file(),
        f"newer tracker (format {snapshot.FORMAT + 1}; this one reads up to format "
        f"{snapshot.FORMAT})",
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_each_bad_file_gives_one_clear_line_and_is_left_alone(tmp_path: Path, kind: str) -> None:
    good = snapshot.encode(a_demo())
    data, expected = BAD_FILES[kind]
    if kind == "truncated":
        data = good[: len(good) // 2]
    elif kind == "flipped byte":
        data = bytearray(good)
        data[len(data) // 2] ^= 0xFF
        data = bytes(data)
    path = tmp_path / f"{kind}.fight"
    path.write_bytes(data)
    stamp = path.stat().st_mtime_ns
    with pytest.raises(storage.SaveError) as caught:
        storage.read(path)
    message = str(caught.value)
    assert expected in message
    assert message.startswith(str(path))
    assert "\n" not in message
    assert path.read_bytes() == data and path.stat().st_mtime_ns == stamp


def test_a_folder_and_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(storage.SaveError, match="is a folder"):
        storage.read(tmp_path)
    with pytest.raises(storage.SaveError, match="no such file"):
        storage.read(tmp_path / "nope.fight")


def test_no_permission(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.fight"
    path.write_bytes(b"x")

    def denied(*args: object) -> int:
        raise PermissionError(13, "Permission denied")

    # Tests may run as root, which reads any file: simulate the refusal instead.
    monkeypatch.setattr(storage.os, "open", denied)
    with pytest.raises(storage.SaveError, match="permission denied"):
        storage.read(path)


def test_free_path_never_reuses_a_name(tmp_path: Path) -> None:
    first = storage.free_path(tmp_path, "Goblin Warren!")
    assert first.name == "goblin-warren.fight"
    first.write_bytes(b"taken")
    assert storage.free_path(tmp_path, "Goblin Warren").name == "goblin-warren-2.fight"
    assert storage.free_path(tmp_path, "???").name == "encounter.fight"


def test_demos_are_played_as_copies(tmp_path: Path) -> None:
    saved = tmp_path / DEMO
    storage.write(saved, a_demo())
    original = saved.read_bytes()
    copy = storage.free_path(tmp_path, a_demo().state.name)  # named for the fight, not the file
    opened = storage.play_copy_of_demo(saved, tmp_path)
    assert opened.path == copy != saved
    assert opened.history.state == a_demo().state
    assert saved.read_bytes() == original
    assert storage.saves_by_recency(tmp_path) == [opened.path]


def test_the_listing_tells_a_demo_from_its_copy_even_once_played_on(tmp_path: Path) -> None:
    saved = tmp_path / DEMO
    storage.write(saved, a_demo())
    opened = storage.play_copy_of_demo(saved, tmp_path)
    copy = opened.path.name
    played = opened.history
    played.commit(decide(played.state, NextTurn(), SeededDice(1)), "next")
    played.undo()
    storage.write(opened.path, played)  # compacted, with more records than the demo
    lookalike = History(new_encounter(played.state.name, SYSTEM))  # the name, not the log
    storage.write(tmp_path / "other.fight", lookalike)
    listed = {item.path.name: item for item in storage.list_saves(tmp_path)}
    assert listed[DEMO].demo and not listed[DEMO].copy_of
    assert listed[copy].copy_of == DEMO
    assert not listed[copy].demo
    assert not listed["other.fight"].copy_of and not listed["other.fight"].demo


def _relabelled(system: str) -> bytes:
    """The picked system's demo's save with another system named in its header."""
    import zlib

    import msgspec

    good = snapshot.encode(a_demo())
    doc = msgspec.msgpack.decode(good[len(snapshot.MAGIC) + 4 :])
    body = msgspec.msgpack.encode({**doc, "system": system})
    return snapshot.MAGIC + zlib.crc32(body).to_bytes(4, "big") + body


ANOTHER = next((name for name in systems() if name != SYSTEM), "")


@pytest.mark.parametrize(
    ("system", "expected"),
    [
        (ANOTHER, f"it says it is a {ANOTHER} save but holds '{SYSTEM}."),
        ("nosuch", "it is for a rule system this tracker does not know ('nosuch')"),
    ],
)
def test_a_save_of_one_system_is_not_decoded_as_another(
    tmp_path: Path, system: str, expected: str
) -> None:
    if not system:
        pytest.skip("a single system is registered: there is no other to name")
    path = tmp_path / "relabelled.fight"
    data = _relabelled(system)
    path.write_bytes(data)
    with pytest.raises(storage.SaveError) as raised:
        storage.read(path)
    message = str(raised.value)
    assert expected in message
    assert "\n" not in message
    assert path.read_bytes() == data
