"""Where the fight turned, by keys in the replay at 80x24: W, the progress bar then the chart
and the swings, 1 jumps the replay to the first swing and b branches from it; Esc stops the
forecasts at once and the replay still answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.history import History
from tests.app.support import until
from tests.picks import a_demo, plays_solo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.headless import forecast_pool
from tracker.screens import swings_screen
from tracker.screens.replay_screen import ReplayScreen
from tracker.screens.swings_screen import SwingsScreen
from tracker.store import storage

ROOT = Path(__file__).resolve().parents[2]
SMALL = (80, 24)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(swings_screen, "RUNS", 10)
    monkeypatch.setattr(forecast_pool, "default_jobs", lambda: 1)


def demo_save() -> History:
    return storage.read(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}")


async def test_w_draws_the_chart_and_1_jumps_to_the_first_swing_to_branch(
    tmp_path: Path,
) -> None:
    history = demo_save()
    app = TrackerApp(None, saves=tmp_path, replay=history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        await pilot.press("W")
        await until(pilot, lambda: isinstance(app.screen, SwingsScreen), "the swings")
        swings = app.screen
        assert isinstance(swings, SwingsScreen)
        await until(pilot, lambda: swings.found is not None, "the chart")
        text = screen_text(app)
        assert "100%│" in text and "  0%│" in text
        assert "1. Round " in text and " took the " in text
        lines = text.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert swings.found is not None
        first = swings.found.swings[0].position
        await pilot.press("1")
        await until(pilot, lambda: app.screen is replay, "back in the replay")
        assert isinstance(replay, ReplayScreen)
        assert replay.position == first
        assert f"event {first + 1}/" in screen_text(app)
        await pilot.press("b")
        await until(pilot, lambda: "(branch)" in screen_text(app), "the branch")


async def test_escape_stops_the_swings_at_once_and_the_replay_still_answers(
    tmp_path: Path,
) -> None:
    app = TrackerApp(None, saves=tmp_path, replay=demo_save())
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("W")
        await until(pilot, lambda: isinstance(app.screen, SwingsScreen), "the swings")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is replay, "the replay again")
        await app.workers.wait_for_complete()
        before = replay.position
        await pilot.press("left")
        await until(pilot, lambda: replay.position == before - 1, "a step back")
