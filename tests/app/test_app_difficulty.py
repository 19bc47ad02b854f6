"""A fight's difficulty in the app (issue 43): ``D`` and its palette entry, the library dialog
showing the fight with the chosen stat block added, a new encounter's notice; worked out in a
worker (the screen never waits), a progress bar after half a second, an old run stopped by a
new one. Each test waits on the difficulty line's state, never on a sleep."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, ProgressBar

from rules.dice import SeededDice
from rules.difficulty import BANDS
from rules.encounter import Encounter
from rules.history import History
from tests.app.support import from_palette, make_app, until
from tests.picks import a_demo, every_demo, plays_solo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.headless import forecast_pool
from tracker.headless.forecast_pool import Cancelled
from tracker.screens.difficulty_screen import DifficultyScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.library_screen import LibraryScreen
from tracker.session import EncounterSession
from tracker.store import storage
from tracker.widgets import difficulty_line
from tracker.widgets.difficulty_line import DifficultyLine

ROOT = Path(__file__).resolve().parents[2]
SMALL = (80, 24)


@pytest.fixture(autouse=True)
def one_job(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forecast_pool, "default_jobs", lambda: 1)


def demo_save() -> History:
    return storage.read(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}")


def app_on(tmp_path: Path, history: History | None = None, **kwargs: Any) -> TrackerApp:
    session = EncounterSession(history or demo_save(), SeededDice(1), tmp_path / "pit.fight")
    return TrackerApp(session, saves=tmp_path, **kwargs)


def line_of(app: TrackerApp) -> DifficultyLine:
    return app.screen.query_one(DifficultyLine)


def banded(text: str) -> bool:
    """Whether a difficulty line with a band is on ``text``."""
    return any(f"{band.value.capitalize()}: " in text for band in BANDS)


@pytest.mark.parametrize("stem", every_demo(plays_solo))
async def test_d_shows_the_fights_difficulty_line_and_esc_closes(tmp_path: Path, stem: str) -> None:
    app = app_on(tmp_path, storage.read(ROOT / "saves" / f"{stem}{storage.SUFFIX}"))
    records = len(app.session.history.records) if app.session else 0
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, DifficultyScreen), "the dialog")
        await until(pilot, lambda: line_of(app).status == "done", "the difficulty")
        text = screen_text(app)
        assert banded(text) and "a hero drops in" in text and "rounds" in text
        assert line_of(app).said[0] in text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
    assert app.session is not None and len(app.session.history.records) == records


async def test_the_palette_finds_difficulty(tmp_path: Path) -> None:
    app = app_on(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await from_palette(pilot, "Difficulty")
        await until(pilot, lambda: isinstance(app.screen, DifficultyScreen), "the dialog")
        await until(pilot, lambda: line_of(app).status == "done", "the difficulty")
        await pilot.press("escape")


class Held:
    """A stand-in for the batched forecast that waits until the test lets it go, or its run
    is stopped; it records each run's stop signal."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.cancels: list[threading.Event] = []

    def __call__(self, state: Encounter, seed: int, runs: int, workers: Any, progress: Any,
                 cancel: threading.Event, *rest: Any) -> Any:  # fmt: skip
        self.cancels.append(cancel)
        while not self.go.wait(0.01):
            if cancel.is_set():
                raise Cancelled
        progress(100)
        from rules.forecast import forecast as whole

        return whole(state, runs=100, seed=seed)


async def test_a_long_run_shows_a_progress_bar_and_the_screen_answers_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = Held()
    monkeypatch.setattr(difficulty_line, "run_difficulty", held)
    app = app_on(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, DifficultyScreen), "the dialog")
        bar = app.screen.query_one(ProgressBar)
        assert "working it out" in screen_text(app)
        await until(pilot, lambda: bar.display, "the progress bar after half a second")
        # The screen answers while the run goes on: r starts another, stopping this one.
        await pilot.press("r")
        await until(pilot, lambda: len(held.cancels) == 2, "the second run")
        assert held.cancels[0].is_set() and not held.cancels[1].is_set()
        held.go.set()
        await until(pilot, lambda: line_of(app).status == "done", "the difficulty")
        assert not bar.display and banded(screen_text(app))
        assert line_of(app).run_number == 2
        await pilot.press("escape")


async def test_closing_the_dialog_stops_its_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = Held()
    monkeypatch.setattr(difficulty_line, "run_difficulty", held)
    app = app_on(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("D")
        await until(pilot, lambda: held.cancels, "the run")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
        await until(pilot, lambda: held.cancels[0].is_set(), "the run stopped")


async def test_the_library_dialog_shows_the_fight_with_the_choice_added(tmp_path: Path) -> None:
    app = app_on(tmp_path, library=tmp_path / "lib")
    assert app.session is not None
    before = len(app.session.state.combatants)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        await until(pilot, lambda: line_of(app).status == "done", "the first difficulty")
        assert banded(screen_text(app))
        first = screen.previewed
        assert first is not None and len(first.combatants) == before + 1
        # Three of the choice: worked out again, for the fight with three more.
        picked = screen._picked()
        assert picked is not None
        screen.query_one("#filter", Input).insert_text_at_cursor(f"{picked.name} x3")
        await until(
            pilot,
            lambda: screen.previewed is not first and line_of(app).status == "done",
            "the difficulty with three",
        )
        assert screen.previewed is not None
        assert len(screen.previewed.combatants) == before + 3
        assert banded(screen_text(app))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
    assert len(app.session.state.combatants) == before  # nothing was added


async def test_a_new_encounter_notifies_its_difficulty(tmp_path: Path) -> None:
    app = app_on(tmp_path, difficulty=True)
    async with app.run_test(size=(120, 40)) as pilot:

        def notices() -> str:
            return "\n".join(n.message for n in app._notifications)  # private, tests only

        await until(pilot, lambda: banded(notices()), "the difficulty notice")
        assert notices().startswith("Difficulty: ")
        assert not app.screen.query("#difficulty-notice")  # the hidden line is gone


async def test_d_on_a_fight_with_nobody_yet_says_so_without_a_run(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("D")
        await until(pilot, lambda: isinstance(app.screen, DifficultyScreen), "the dialog")
        await until(pilot, lambda: line_of(app).status == "done", "the line")
        assert "Difficulty: no party yet" in screen_text(app)
        assert line_of(app).processes is None  # nothing was played: no workers started
        await pilot.press("escape")
