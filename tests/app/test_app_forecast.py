"""The forecast by keys at 80x24: F, the progress bar then the charts, a what-if beside it,
Esc; the real encounter and its file are never touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.errors import Rejected
from rules.history import History
from tests.app.support import fight_of, until
from tests.picks import a_demo, a_system, plays_solo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.headless import forecast_pool
from tracker.screens import forecast_screen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.forecast_screen import ForecastScreen
from tracker.session import EncounterSession
from tracker.store import storage

ROOT = Path(__file__).resolve().parents[2]
SMALL = (80, 24)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forecast_screen, "RUNS", 40)
    monkeypatch.setattr(forecast_pool, "default_jobs", lambda: 1)


def demo_save() -> History:
    """A demo's bundled save, as read from its file: a fight the tracker can forecast."""
    return storage.read(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}")


async def settled(pilot, app: TrackerApp) -> str:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()
    return screen_text(app)


async def test_escape_while_it_runs_stops_it_and_the_table_is_back(tmp_path: Path) -> None:
    session = EncounterSession(demo_save(), SeededDice(1), tmp_path / "pit.fight")
    app = TrackerApp(session, saves=tmp_path)
    records = len(session.history.records)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("F", "escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        await app.workers.wait_for_complete()
        await pilot.press("o", *"still here", "enter")  # the table is usable: a note is taken
        await until(pilot, lambda: len(session.history.records) > records, "the note")


async def test_a_fight_the_rules_cannot_play_is_said_not_crashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the walk (seed 753775627): a Beer Run fighter left with no ability dice made
    the forecast's worker raise ``Rejected``, and the failed worker closed the GM's seat."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise Rejected("Mags has no ability dice to roll")

    monkeypatch.setattr(forecast_screen.forecast_pool, "run_forecast", refuse)
    app = TrackerApp(EncounterSession(demo_save(), SeededDice(1), None), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("F")
        await until(pilot, lambda: "No forecast:" in screen_text(app), "the refusal")
        assert "Mags has no ability dice to roll" in screen_text(app)
        assert isinstance(app.screen, ForecastScreen)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
    assert app.return_code in (None, 0)


def notices(app: TrackerApp) -> str:
    """The notifications shown (``screen_text`` gives them after the screen's rows)."""
    return "\n".join(screen_text(app).splitlines()[SMALL[1] :])


async def test_f_on_a_fight_of_one_side_is_refused_in_one_line_before_any_fight(
    tmp_path: Path,
) -> None:
    """Two goblins and nobody else: F once played every fight to the round cap ("foes 0.0%,
    no winner 100.0%, Length 50.0 rounds"); it says why not, and starts no worker."""
    goblins = [AddCombatant(name=n, side="foes") for n in ("Goblin 1", "Goblin 2")]
    history = fight_of(a_system(plays_solo), *goblins)
    app = TrackerApp(EncounterSession(history, SeededDice(1), None), saves=tmp_path)
    refusal = "No forecast: one side only (foes): a forecast needs two sides"
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("F")
        await until(pilot, lambda: refusal in screen_text(app), "the refusal")
        screen = app.screen
        assert isinstance(screen, ForecastScreen)
        assert screen.processes is None and not screen.running and not screen.shown
        text = screen_text(app)
        assert "Who wins" not in text and "no winner" not in text
        # A what-if still of one side (a copy of a goblin added) is refused the same way.
        await pilot.press("a")
        await until(pilot, lambda: len(screen.scratch.combatants) == 3, "the copy")
        app.clear_notifications()
        await until(pilot, lambda: refusal not in notices(app), "the notification cleared")
        await pilot.press("enter")  # refused again: the notification says it once more
        await until(pilot, lambda: refusal in notices(app), "refused again")
        assert screen.processes is None and not screen.running and not screen.shown
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the table")
