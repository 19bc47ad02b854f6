"""`q` with changes that could not be saved asks first: try again, save elsewhere, or quit
anyway; nothing is lost without the user saying so."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from rules.dice import SeededDice
from rules.engine import new_encounter
from rules.history import History
from tests.app.support import add_combatant
from tests.picks import a_system
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from tracker.store import files, storage


@contextlib.contextmanager
def read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The folder made read-only: no new file (so no snapshot) can be written in it."""
    folder.chmod(0o555)
    with monkeypatch.context() as patch:
        if os.geteuid() == 0:  # root writes in a read-only folder: refuse as the kernel would
            real = tempfile.mkstemp

            def refused(*args: Any, dir: Any = None, **kwargs: Any) -> tuple[int, str]:
                if Path(dir) == folder:
                    raise PermissionError(13, "Permission denied")
                return real(*args, dir=dir, **kwargs)

            patch.setattr(files.tempfile, "mkstemp", refused)
        try:
            yield
        finally:
            folder.chmod(0o755)


@pytest.fixture
def typed_folder() -> Iterator[Path]:
    """A folder whose path the tests type key by key: short (pytest's ``tmp_path`` is some
    70 characters, seconds of keys each time it is typed)."""
    with tempfile.TemporaryDirectory(prefix="q") as folder:
        yield Path(folder)


def app_in(folder: Path) -> TrackerApp:
    folder.mkdir()
    opened = storage.create(folder, History(new_encounter("Cellar", a_system())))
    session, error = EncounterSession.resume(opened, SeededDice(1))
    assert error is None
    return TrackerApp(session, saves=folder)


def names_in(path: Path) -> list[str]:
    return [c.name for c in storage.read(path).state.combatants]


async def change_then_quit(pilot: Any) -> None:
    """Add a combatant (the journal takes it), then press q (the snapshot cannot be written)."""
    await add_combatant(pilot, "Ann")
    await pilot.press("q")
    await pilot.pause()


async def test_q_asks_and_try_again_saves_once_the_folder_is_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    path = app.session.path  # type: ignore[union-attr]  # the app was made with a session
    async with app.run_test(size=(80, 24)) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await change_then_quit(pilot)
            text = screen_text(app)
            assert "Changes not saved" in text and "Permission denied" in text
            assert "r: try again" in text and "Q: quit anyway" in text
            await pilot.press("r")  # still read-only: asked again
            await pilot.pause()
            assert app.is_running and "Changes not saved" in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert not app.is_running
    assert app.left_unsaved is None
    assert names_in(path) == ["Ann"]


async def test_escape_goes_back_to_the_encounter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await change_then_quit(pilot)
            await pilot.press("escape")
            await pilot.pause()
            assert app.is_running
            assert "Changes not saved" not in screen_text(app)
            assert "Ann" in screen_text(app)


async def test_save_elsewhere_writes_the_encounter_to_a_new_file(
    tmp_path: Path, typed_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    taken = typed_folder / "taken.fight"
    taken.write_bytes(b"someone's")
    elsewhere = typed_folder / "elsewhere.fight"
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await change_then_quit(pilot)
            await pilot.press("e")
            await pilot.pause()
            assert "Save to (a new file)" in screen_text(app)
            await pilot.press("ctrl+u", *str(taken), "enter")  # never over an existing file
            await pilot.pause()
            assert "is already there" in screen_text(app)
            assert app.screen.query_one(Input).value == str(taken)  # to edit, not to retype
            await pilot.press("ctrl+u", *str(elsewhere), "enter")
            await pilot.pause()
            assert not app.is_running
    assert taken.read_bytes() == b"someone's"
    assert names_in(elsewhere) == ["Ann"]
    assert app.left_unsaved is not None and f"saved to {elsewhere} instead" in app.left_unsaved


async def test_save_elsewhere_never_takes_the_name_of_a_saves_own_file(
    tmp_path: Path, typed_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #46: another save's journal, not written yet, is that save's all the same."""
    app = app_in(tmp_path / "saves")
    other = typed_folder / "other.fight"
    storage.write(other, History(new_encounter("Other", a_system())))
    its_journal = storage.journal_path(other)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await change_then_quit(pilot)
            await pilot.press("e")
            await pilot.pause()
            await pilot.press("ctrl+u", *str(its_journal), "enter")
            await pilot.pause()
            assert "other.fight.journal is the journal of other.fight" in screen_text(app)
            assert app.is_running and not its_journal.exists()
            await pilot.press("ctrl+u", *str(typed_folder / "kept.fight"), "enter")
            await pilot.pause()
            assert not app.is_running
    assert names_in(typed_folder / "kept.fight") == ["Ann"]
    assert storage.load(other).notice is None


async def test_quit_anyway_quits_and_says_what_was_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await change_then_quit(pilot)
            await pilot.press("q")  # not "quit anyway": a second q by habit loses nothing
            await pilot.pause()
            assert app.is_running
            await pilot.press("Q")
            await pilot.pause()
            assert not app.is_running
    assert app.left_unsaved is not None
    assert app.left_unsaved.startswith("quit without saving: ")


async def test_q_with_everything_saved_quits_at_once(tmp_path: Path) -> None:
    app = app_in(tmp_path / "saves")
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Ann")
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    assert app.left_unsaved is None


def other_save(folder: Path) -> Path:
    folder.mkdir()
    opened = storage.create(folder, History(new_encounter("Crypt", a_system())))
    assert opened.lock is not None
    opened.lock.release()
    return opened.path


async def test_opening_another_encounter_over_unsaved_changes_asks_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    path = app.session.path  # type: ignore[union-attr]  # the app was made with a session
    other = other_save(tmp_path / "other")
    async with app.run_test(size=(80, 24)) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await add_combatant(pilot, "Ann")
            app.open_path(other)  # as the saves browser (ctrl+o) does
            await pilot.pause()
            text = screen_text(app)
            assert "Changes not saved" in text
            assert "Opening another encounter now loses them" in text
            assert "Q: leave them" in text
            await pilot.press("escape")  # back: still the Cellar, the Crypt not held
            await pilot.pause()
            assert app.session.state.name == "Cellar"  # type: ignore[union-attr]
            storage.open_save(other).lock.release()  # type: ignore[union-attr]  # free
        app.open_path(other)  # the folder writable again: saved, then opened
        await pilot.pause()
        assert app.session.state.name == "Crypt"  # type: ignore[union-attr]
    assert app.left_unsaved is None
    assert names_in(path) == ["Ann"]


async def test_leaving_unsaved_changes_for_another_encounter_is_said_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = app_in(tmp_path / "saves")
    other = other_save(tmp_path / "other")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        with read_only(tmp_path / "saves", monkeypatch):
            await add_combatant(pilot, "Ann")
            app.open_path(other)
            await pilot.pause()
            await pilot.press("Q")
            await pilot.pause()
            assert app.session.state.name == "Crypt"  # type: ignore[union-attr]
            await pilot.pause()
            assert "Not saved: opened another encounter" in screen_text(app)  # said at once
    assert app.left_unsaved is None  # a later quit is clean: nothing to say then
