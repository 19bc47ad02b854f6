"""Replay: the timeline (seeking, turns, rounds, branching) and the replay screen by keys."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, fold
from rules.replay import Timeline
from tests.app.support import until
from tests.contract.support import demo
from tests.picks import a_system, has_demo, has_turn_order
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.store import storage

DEMO = demo(a_system(has_demo, has_turn_order))
EVENTS = DEMO.effective_events()


@settings(max_examples=60, deadline=None)
@given(every=st.integers(1, 20), position=st.integers(0, len(EVENTS) - 1))
def test_seeking_anywhere_gives_the_fold_of_the_prefix(every: int, position: int) -> None:
    timeline = Timeline(DEMO, every=every)
    assert timeline.state_at(position) == fold(EVENTS[: position + 1])


def test_the_last_position_is_the_live_state() -> None:
    timeline = Timeline(DEMO)
    assert len(timeline) == len(EVENTS)
    assert timeline.state_at(timeline.last) == DEMO.state


@settings(max_examples=30, deadline=None)
@given(position=st.integers(0, len(EVENTS) - 1))
def test_a_branch_holds_the_fight_up_to_that_point(position: int) -> None:
    branch = Timeline(DEMO).branch(position)
    expected = fold(EVENTS[: position + 1])
    assert branch.state.combatants == expected.combatants
    assert branch.state.round == expected.round
    assert branch.state.name == f"{DEMO.state.name} (branch)"
    assert branch.can_undo == (position > 0)


def replay_app(tmp_path: Path) -> TrackerApp:
    return TrackerApp(None, saves=tmp_path, replay=DEMO)


async def test_play_runs_to_the_end(tmp_path: Path) -> None:
    app = replay_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("home", "plus", "plus", "plus")  # 16 events a second
        await pilot.press("space")
        assert app.screen.playing  # (a pause here would already see it finish)
        # Wait for the end, however busy the machine: at 16/s it takes about a second.
        await until(pilot, lambda: not app.screen.playing, "the replay's end")
        text = screen_text(app)
        assert f"event {len(EVENTS)}/{len(EVENTS)}" in text and "paused" in text


async def test_branching_starts_a_new_encounter_in_a_new_file(tmp_path: Path) -> None:
    app = replay_app(tmp_path)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.press("7", "g", "b")
        await pilot.pause()
        text = screen_text(app)
        assert f"{DEMO.state.name} (branch)" in text
        assert "Branched into" in text
        await pilot.press("n")  # it plays like any encounter, and is saved as it goes
        await pilot.pause()
        saved = tmp_path / f"{storage.slug(DEMO.state.name + ' (branch)')}.fight"
        assert storage.read(saved).state == app.session.state
        branch = Timeline(DEMO).branch(6)  # event 7, then the next turn
        branch.commit(decide(branch.state, NextTurn(), ScriptedDice([])))
        assert storage.read(saved).state.current_id == branch.state.current_id


async def test_replay_from_inside_the_app_and_back(tmp_path: Path) -> None:
    from rules.dice import SeededDice
    from tracker.session import EncounterSession

    session = EncounterSession(demo(DEMO.state.system), SeededDice(1), tmp_path / "w.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("R")
        await pilot.pause()
        assert "Roll log (replay)" in screen_text(app)
        await pilot.press("left", "escape")
        await pilot.pause()
        text = screen_text(app)
        assert "Roll log (replay)" not in text and "Roll log" in text
        assert app.session is session  # closing a replay changes nothing


async def test_a_number_typed_fast_then_g_jumps(tmp_path: Path) -> None:
    # In a terminal, "12g" can arrive at once; the digits must not lose the race with g.
    from textual import events

    app = replay_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert len(EVENTS) >= 12
        for key in ("1", "2", "g"):
            app.post_message(events.Key(key, key))
        await pilot.pause()
        assert f"event 12/{len(EVENTS)}" in screen_text(app)
