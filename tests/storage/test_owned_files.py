"""Which files a save owns (``storage.owned_by_a_save``), the one answer a report or a save
written elsewhere asks before it writes: by what the file is, not only by the name given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.storage.support import fresh
from tracker.store import storage


def a_save(path: Path) -> Path:
    storage.write(path, fresh("X"))
    return path


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("x.fight", "is a save"),
        ("x.fight.journal", "is the journal of x.fight"),
        (".x.fight.lock", "is the lock file of x.fight"),
        (".x.fight.abcdefgh.tmp", "is a temporary file of x.fight"),
        (".x.fight.journal.abcdefgh.tmp", "is a temporary file of x.fight.journal"),
        ("x.fight.damaged-20260101-120000-2", "is a copy of x.fight kept aside"),
        ("x.fight.journal.stray-20260101-120000", "is a copy of x.fight.journal kept aside"),
    ],
)
def test_a_saves_files_are_known_by_name_before_they_exist(
    tmp_path: Path, name: str, said: str
) -> None:
    assert str(storage.owned_by_a_save(tmp_path / name)) == said


@pytest.mark.parametrize(
    "name", ["x.md", "x.fight.md", ".x.md.lock", "notes.journal", ".notes.abcdefgh.tmp", "x.lock"]
)
def test_names_no_save_owns_are_free(tmp_path: Path, name: str) -> None:
    (tmp_path / "notes").write_text("not a save")
    assert storage.owned_by_a_save(tmp_path / name) is None


def test_a_save_of_any_name_owns_its_files(tmp_path: Path) -> None:
    """A save need not end in .fight: what it holds says it is one."""
    notes = a_save(tmp_path / "notes")
    assert str(storage.owned_by_a_save(notes)) == "is a save"
    assert str(storage.owned_by_a_save(tmp_path / ".notes.lock")) == "is the lock file of notes"
    assert str(storage.owned_by_a_save(tmp_path / "notes.journal")) == "is the journal of notes"
    # ...and one about to be written is known by the caller: none of it exists yet.
    plan = tmp_path / "plan"
    owned = storage.owned_by_a_save(tmp_path / ".plan.lock", (plan,))
    assert str(owned) == "is the lock file of plan"


def test_a_link_or_another_name_is_the_file_it_names(tmp_path: Path) -> None:
    saves, elsewhere = tmp_path / "saves", tmp_path / "elsewhere"
    saves.mkdir()
    elsewhere.mkdir()
    save = a_save(saves / "x.fight")
    storage.SaveLock.take(save).release()  # the lock file stays, as it does
    (elsewhere / "dangling.md").symlink_to(saves / "x.fight.journal")  # not written yet
    (elsewhere / "through").symlink_to(saves)
    os.link(saves / ".x.fight.lock", elsewhere / "pid.txt")
    assert str(storage.owned_by_a_save(elsewhere / "dangling.md")) == "is the journal of x.fight"
    assert str(storage.owned_by_a_save(elsewhere / "through" / "x.fight")) == "is a save"
    # Another name in another folder: found among the files of the save it is checked for.
    assert storage.owned_by_a_save(elsewhere / "pid.txt") is None
    owned = storage.owned_by_a_save(elsewhere / "pid.txt", (save,))
    assert str(owned) == "is the lock file of x.fight"
    os.link(save, elsewhere / "copy.md")
    assert str(storage.owned_by_a_save(elsewhere / "copy.md")) == "is a save"


def test_odd_paths_are_answered_not_raised(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    for path in (loop, tmp_path / "a\x00b", tmp_path, Path("/dev/null")):
        assert storage.owned_by_a_save(path) is None
