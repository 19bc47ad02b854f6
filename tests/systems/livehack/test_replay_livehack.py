"""Replay of LiveHack's demo: its turns and rounds on the timeline, and stepping through it by
keys (moved from tests/app/test_replay.py, which replays whichever demo suits)."""

from __future__ import annotations

from pathlib import Path

from rules.replay import Timeline
from rules.systems.livehack.demo import build as livehack_demo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.widgets.roll_log import RollLog

DEMO = livehack_demo()
EVENTS = DEMO.effective_events()


def replay_app(tmp_path: Path) -> TrackerApp:
    return TrackerApp(None, saves=tmp_path, replay=DEMO)


def test_turns_and_rounds() -> None:
    timeline = Timeline(DEMO)
    first_turn = timeline.next_turn(0)
    assert timeline.state_at(first_turn).current.name == "Brak"
    new_round = timeline.next_round(0)
    assert timeline.state_at(new_round).round == 2
    assert timeline.state_at(new_round - 1).round == 1
    assert timeline.previous_round(new_round) == 0
    assert timeline.next_round(new_round) == timeline.last
    assert timeline.previous_turn(first_turn) == 0


async def test_stepping_through_a_fight_by_keys(tmp_path: Path) -> None:
    app = replay_app(tmp_path)
    total = len(EVENTS)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        assert f"event {total}/{total} · round 2" in screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        text = screen_text(app)
        assert f"event 1/{total} · round 1" in text
        assert "▶ Encounter Goblin Warren begins" in text
        assert "Orla" not in text.split("Roll log")[0]  # nobody has joined yet
        await pilot.press("right", "right")
        await pilot.pause()
        assert "▶ Brak joins the party" in screen_text(app)
        await pilot.press("right_square_bracket")  # the next turn
        await pilot.pause()
        text = screen_text(app)
        assert "▶ Brak's turn" in text
        assert "▶ ▶" not in text  # the turn's own ▶ marks it as the current event too
        assert app.screen.query_one(RollLog).entries[-1] == "▶ Brak's turn"
        await pilot.press("right_curly_bracket")  # the next round
        await pilot.pause()
        assert "round 2" in screen_text(app) and "— Round 2 —" in screen_text(app)
        await pilot.press("left_curly_bracket", "left")
        await pilot.pause()
        assert "round 1" in screen_text(app)
        await pilot.press("7", "g")
        await pilot.pause()
        assert f"event 7/{total}" in screen_text(app)
        assert "Orla vs Goblin Sneak" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        assert f"event {total}/{total}" in screen_text(app)
