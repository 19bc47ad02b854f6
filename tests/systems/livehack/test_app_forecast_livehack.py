"""LiveHack's forecast by keys at 80x24: F, the progress bar then the charts, a what-if beside
it (its demo's fighters), Esc; the real encounter and its file are never touched."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from rules.systems.livehack.demo import STEM
from tests.app.test_app_forecast import ROOT, SMALL, quick, settled
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.forecast_screen import ForecastScreen
from tracker.session import EncounterSession
from tracker.store import storage

__all__ = ["quick"]  # the forty-run forecast, used here too


async def test_F_forecasts_then_a_what_if_beside_it_and_the_fight_is_untouched(tmp_path: Path):
    path = tmp_path / "warren.fight"
    history = storage.read(ROOT / "saves" / f"{STEM}{storage.SUFFIX}")
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
