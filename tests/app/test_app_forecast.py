"""The forecast by keys at 80x24: F, the progress bar then the charts, a what-if beside it,
Esc; the real encounter and its file are never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.dice import SeededDice
from rules.errors import Rejected
from tests.app.support import until
from tests.screen import screen_text
from tracker import storage
from tracker.app import TrackerApp
from tracker.headless import forecast
from tracker.screens import forecast as forecast_screen
from tracker.screens.encounter import EncounterScreen
from tracker.screens.forecast import ForecastScreen
from tracker.session import EncounterSession

ROOT = Path(__file__).resolve().parents[2]
SMALL = (80, 24)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forecast_screen, "RUNS", 40)
    monkeypatch.setattr(forecast, "default_jobs", lambda: 1)


async def settled(pilot, app: TrackerApp) -> str:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen_text(app)


async def test_F_forecasts_then_a_what_if_beside_it_and_the_fight_is_untouched(tmp_path: Path):
    path = tmp_path / "warren.fight"
    history = storage.read(ROOT / "saves" / "demo-livehack.fight")
    storage.write(path, history)
    session = EncounterSession(history, SeededDice(1), path)
    app = TrackerApp(session, saves=tmp_path)
    before_bytes, before_records = path.read_bytes(), len(session.history.records)
    before_state = session.state
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("F")
        await pilot.pause()
        assert isinstance(app.screen, ForecastScreen)
        text = await settled(pilot, app)
        assert "Forecast: 40 fights by solo policy" in text
        assert "Now" in text and "party" in text and "█" in text
        assert "Length" in text and "Goblin Sneak" in text and "out  first" in text
        assert "What if: ◀ Orla (party, Always roll) ▶" in text
        await pilot.press("right", "right", "p")  # Goblin Sneak takes zero
        await pilot.press("left", "a")  # and Brak has a twin
        text = screen_text(app)
        assert "Goblin Sneak: Take zero; + another Brak" in text
        await pilot.press("enter")
        text = await settled(pilot, app)
        assert "What if: Goblin Sneak: Take zero, +" in text  # then wrapped
        assert "another Brak" in text
        assert text.count("no winner") == 2  # beside the first forecast
        assert "Brak 1" in text or "Brak 2" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert session.state == before_state
        assert len(session.history.records) == before_records
    assert path.read_bytes() == before_bytes


async def test_escape_while_it_runs_stops_it_and_the_table_is_back(tmp_path: Path) -> None:
    history = storage.read(ROOT / "saves" / "demo-pain-pool.fight")
    session = EncounterSession(history, SeededDice(1), tmp_path / "pit.fight")
    app = TrackerApp(session, saves=tmp_path)
    round_ = session.state.round
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("F", "escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        await app.workers.wait_for_complete()
        await pilot.press("n")  # the table is usable: the exchange ends
        await pilot.pause()
        assert session.state.round == round_ + 1


async def test_a_fight_the_rules_cannot_play_is_said_not_crashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the walk (seed 753775627): a Beer Run fighter left with no ability dice made
    the forecast's worker raise ``Rejected``, and the failed worker closed the GM's seat."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise Rejected("Mags has no ability dice to roll")

    monkeypatch.setattr(forecast_screen.forecast, "run_forecast", refuse)
    history = storage.read(ROOT / "saves" / "demo-livehack.fight")
    app = TrackerApp(EncounterSession(history, SeededDice(1), None), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("F")
        await until(pilot, lambda: "No forecast:" in screen_text(app), "the refusal")
        assert "Mags has no ability dice to roll" in screen_text(app)
        assert isinstance(app.screen, ForecastScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
    assert app.return_code in (None, 0)
