"""No result silently dropped, by keys at 80x24: a result still waiting to be applied is
shown, and ending a turn or starting a roll over it asks first (d applies, x discards with a
line in the log, Esc changes nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import forecast
from rules.dice import SeededDice
from rules.events import ConsequenceDiscarded
from rules.history import History
from rules.registry import get_system
from rules.testing import kit
from tests.app.support import until
from tests.contract.support import demo
from tests.picks import every_system, has_demo, plays_solo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession

SMALL = (80, 24)


def make_app(tmp_path: Path, history: History, seed: int) -> TrackerApp:
    session = EncounterSession(history, SeededDice(seed), tmp_path / "waiting.fight")
    return TrackerApp(session, saves=tmp_path)


def demo_app(tmp_path: Path, system: str) -> tuple[TrackerApp, tuple[str, ...]]:
    """The system's demo, and the keys that leave a result waiting: none if the demo ends on
    one, else its test kit's quick turn (rules.testing) rolled and its result not applied."""
    history, quick = demo(system), kit(system)
    waiting = get_system(system).pending(history.state)
    keys = () if waiting else (*quick.quick_keys, "t", "enter", "escape")
    return make_app(tmp_path, history, quick.quick_seed), keys


def discards(app: TrackerApp) -> list[ConsequenceDiscarded]:
    events = app.session.history.effective_events()
    return [e for e in events if isinstance(e, ConsequenceDiscarded)]


def where(app: TrackerApp) -> tuple[int, str | None]:
    state = app.session.state
    return state.round, state.current_id


async def answer_every_question(pilot, app: TrackerApp, key: str) -> int:  # type: ignore[no-untyped-def]
    """Press ``key`` while a question is open (one per waiting result); how many there were."""
    asked = 0
    while isinstance(app.screen, WaitingScreen):
        asked += 1
        assert asked < 10, "the question keeps coming back"
        await pilot.press(key)
        await pilot.pause()
    return asked


@pytest.mark.parametrize("system", every_system(has_demo))
async def test_n_over_a_waiting_result_asks_and_esc_changes_nothing(
    tmp_path: Path, system: str
) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        waiting = app.session.system.pending(app.session.state)
        assert waiting, "the setting-up keys leave nothing waiting"
        assert "waiting (d): " in screen_text(app)  # the Consequences pane (and the header)
        before, records = app.session.state, len(app.session.history.records)
        await pilot.press("n")
        # A screen just pushed is blank until its first frame.
        await until(pilot, lambda: "Not applied yet" in screen_text(app), "the question")
        assert isinstance(app.screen, WaitingScreen)
        text = screen_text(app)
        assert waiting in text
        doing = "end the turn" if app.session.system.uses_turn_order else "end the round"
        assert f"Apply it before you {doing}?" in text
        assert "d / Enter: apply it    x: discard it    Esc: back" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.session.state == before
        assert len(app.session.history.records) == records
        assert "waiting (d): " in screen_text(app)


@pytest.mark.parametrize("system", every_system(has_demo))
async def test_d_in_the_question_applies_then_the_turn_ends(tmp_path: Path, system: str) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        turn, records = where(app), len(app.session.history.records)
        await pilot.press("n")
        await pilot.pause()
        assert await answer_every_question(pilot, app, "d") >= 1
        state = app.session.state
        assert where(app) != turn, "the turn (or round) did not end after applying"
        assert not discards(app)
        # Nothing waits and nothing was discarded (d may roll what waited, and that roll may
        # leave nothing to apply: so not last_roll_applied).
        assert not state.last_roll_discarded
        assert len(app.session.history.records) >= records + 2  # what d did, then the turn
        assert app.session.system.pending(state) == ""
        assert "waiting (d): " not in screen_text(app)


@pytest.mark.parametrize("system", every_system(has_demo))
async def test_x_in_the_question_discards_with_a_line_in_the_log(
    tmp_path: Path, system: str
) -> None:
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        waiting = app.session.system.pending(app.session.state)
        turn = where(app)
        await pilot.press("n")
        await pilot.pause()
        asked = await answer_every_question(pilot, app, "x")
        assert where(app) != turn, "the turn (or round) did not end after discarding"
        assert [d.what for d in discards(app)][:1] == [waiting] and len(discards(app)) == asked
        text = screen_text(app)
        assert "⊘ Discarded, not applied: " in text  # the log
        assert "(discarded)" in text  # the Consequences pane, where "(applied)" would be
        assert "waiting (d): " not in text
        assert app.session.state.last_roll_discarded


@pytest.mark.parametrize("system", every_system(has_demo, plays_solo))
async def test_the_forecast_plays_on_from_a_waiting_result(tmp_path: Path, system: str) -> None:
    """A forecast from the table applies what the last roll left waiting, as ``d`` would,
    and plays on: a LiveHack hit the GM rolled left every run stopped where it stood, the
    fight unfinished at the round limit in each (the forecast said "no winner 100%")."""
    app, keys = demo_app(tmp_path, system)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        state = app.session.state
        assert app.session.system.pending(state)
    ends = [forecast.play_out(state, seed) for seed in range(20)]
    assert sum(ending.over for ending in ends) >= 10
