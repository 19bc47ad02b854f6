"""Where the fight turned (the replay's ``W``) on Pain Pool's demo, whose party is the
heroes: its title gives them their chance as "the heroes' chance", not "the heroes's"."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.systems.painpool.demo import build as painpool_demo
from tests.app.support import until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.headless import forecast_pool
from tracker.screens import swings_screen
from tracker.screens.replay_screen import ReplayScreen
from tracker.screens.swings_screen import SwingsScreen
from tracker.session import EncounterSession


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(swings_screen, "RUNS", 10)
    monkeypatch.setattr(forecast_pool, "default_jobs", lambda: 1)


async def test_r_then_w_names_the_heroes_chance(tmp_path: Path) -> None:
    session = EncounterSession(painpool_demo(), SeededDice(1), tmp_path / "demo.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("W")
        await until(pilot, lambda: isinstance(app.screen, SwingsScreen), "the swings")
        swings = app.screen
        assert isinstance(swings, SwingsScreen)
        await until(pilot, lambda: swings.found is not None, "the chart")
        text = screen_text(app)
        assert "Where the fight turned · the heroes' chance, seed " in text
        assert "heroes's" not in text
