"""One writer per save: a second process is refused with the holder's PID, and the lock
dies with its holder, even one killed with SIGKILL."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.cli.support import tracker
from tests.storage.support import fresh, start
from tracker.session import EncounterSession
from tracker.store import storage

HOLDER = """
import sys
from pathlib import Path

from rules.dice import SeededDice
from tracker.store import storage
from tracker.session import EncounterSession

session, error = EncounterSession.resume(storage.open_save(Path(sys.argv[1])), SeededDice(1))
assert error is None, error
print("holding", flush=True)
sys.stdin.read()  # until the test closes stdin, or kills us
"""


def a_save(folder: Path) -> Path:
    path = folder / "held.fight"
    storage.write(path, fresh("Held"))
    return path


def test_a_second_writer_is_refused_and_the_lock_dies_with_a_killed_holder(
    tmp_path: Path,
) -> None:
    path = a_save(tmp_path)
    holder = start(HOLDER, path, "holding")
    try:
        second = tracker("--saves", str(tmp_path), "open", str(path))
        assert second.returncode == 2
        assert second.stderr == f"tracker: {path}: is already open by PID {holder.pid}\n"
        with pytest.raises(storage.SaveLocked, match=f"PID {holder.pid}"):
            storage.open_save(path)
        # Reading is not writing: a report of the held save is still made.
        assert tracker("export", str(path)).returncode == 0
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    opened = storage.open_save(path)  # the kernel dropped the dead holder's lock
    session, error = EncounterSession.resume(opened, SeededDice(1))
    assert error is None
    session.execute(AddNote("after the crash"))
    assert session.close() is None


def test_two_opens_in_one_process_conflict_and_closing_releases(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    first = storage.open_save(path)
    with pytest.raises(storage.SaveLocked, match=f"already open by PID {os.getpid()}"):
        storage.open_save(path)
    session, _ = EncounterSession.resume(first, SeededDice(1))
    assert session.close() is None
    again = storage.open_save(path)
    assert again.lock is not None and again.lock.held


def test_new_saves_demo_copies_and_branches_are_locked_too(tmp_path: Path) -> None:
    created = storage.create(tmp_path, fresh("Fresh"))
    assert created.path == tmp_path / "fresh.fight" and created.path.exists()
    with pytest.raises(storage.SaveLocked):
        storage.open_save(created.path)
    # The next new encounter of the same name does not wait on the held one: a new file.
    other = storage.create(tmp_path, fresh("Fresh"))
    assert other.path == tmp_path / "fresh-2.fight"


def test_the_lock_file_is_hidden_from_the_saves_list(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    storage.open_save(path)
    assert storage.lock_path(path).exists()
    assert [listing.path for listing in storage.list_saves(tmp_path)] == [path]


def test_a_lock_file_that_is_not_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = a_save(tmp_path)
    storage.lock_path(path).symlink_to("/dev/null")
    with pytest.raises(storage.SaveError, match="cannot be locked") as refused:
        storage.open_save(path)
    assert "\n" not in str(refused.value)
