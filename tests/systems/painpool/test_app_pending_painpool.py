"""Pain Pool in the app, by keys at 80x24: a solo answer's damage waits for its boons before
the next roll (moved from tests/app/test_app_pending.py)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from rules.systems.painpool.demo import build as painpool_demo
from tests.app.test_app_pending import SMALL, make_app
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen


def demo_app(tmp_path: Path) -> tuple[TrackerApp, tuple[str, ...]]:
    """The demo, the dice seed and the keys that leave a result waiting."""
    # Tokens off the Juggernaut wait.
    return make_app(tmp_path, painpool_demo(), 7), ("t", "enter", "escape")


async def test_pain_pool_a_solo_answer_waits_for_its_damage_before_the_next_roll(
    tmp_path: Path,
) -> None:
    """The regression: after the solo Juggernaut strikes back, rolling for the Professor used
    to replace the open roll, and Bullet's 3 damage was never taken."""
    app, _ = demo_app(tmp_path)
    app.session.dice = SeededDice(16)  # Bullet wins, then loses the Juggernaut's answer
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("S", "down", "right", "enter")  # the tracker plays the challenge
        await pilot.pause()
        await pilot.press("r", "enter", "d")  # Bullet's attack, applied: the answer comes
        await pilot.pause()
        assert app.session.system.pending(app.session.state) == "Bullet takes 3 damage"
        assert "waiting (d): Bullet takes 3" in screen_text(app)
        await pilot.press("down", "r")  # the Professor's turn to roll
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        assert "Bullet takes 3 damage" in screen_text(app)
        await pilot.press("d")  # applying it is choosing the boons: Take damage opens
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "Take damage" in screen_text(app)
        await pilot.press("2", "tab", "1", "enter")
        await pilot.pause()
        state = app.session.state
        assert state.last_roll_applied and app.session.system.pending(state) == ""
        assert isinstance(app.screen, FormScreen)  # then the roll dialog, for the Professor
        assert "Roll the pools" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.last_roll.hero_id == "c2"  # type: ignore[union-attr]
        bullet = app.session.state.combatant("c1").sheet
        assert sum(b.usable for b in bullet.boons) == 4  # 7 levels, less the 3 taken
