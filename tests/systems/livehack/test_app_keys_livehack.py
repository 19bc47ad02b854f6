"""LiveHack by keys in the app: a short fight, its actions menu, an Eclipse (moved from
tests/app/test_app.py, which tests the app's own keys on whichever system suits)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import DiceSource, ScriptedDice
from rules.engine import new_encounter
from rules.history import History
from tests.app import support
from tests.app.support import BIG, add_combatant, until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.store import storage


def make_app(
    tmp_path: Path, dice: DiceSource | None = None, history: History | None = None
) -> TrackerApp:
    """tests/app/support.py's app, on a blank LiveHack cellar unless given an encounter."""
    return support.make_app(tmp_path, dice, history or History(new_encounter("Cellar", "livehack")))


async def test_a_short_fight_by_keys(tmp_path: Path) -> None:
    # Orla: boon 10, bane 2 -> +8; Goblin: boon 3, bane 4 -> -1. Margin 9: the 5-9 tier.
    # The damage roll: Orla +1 rolled over, boon 6, bane 1; Goblin 0: margin 6.
    app = make_app(tmp_path, ScriptedDice([10, 2, 3, 4, 6, 1, 1, 1]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        text = screen_text(app)
        assert [(c.name, c.side) for c in app.session.state.combatants] == [
            ("Orla", "party"),
            ("Goblin", "foes"),
        ]
        assert "Orla" in text and "party" in text and "Goblin" in text
        assert "▶ Orla's turn" in text

        await pilot.press("r", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Orla vs Goblin (vs Reflex) 8 vs -1 HIT, margin +9" in text
        assert "boon [10] - bane [2]" in text
        assert "◆ 5-9" in text

        await pilot.press("d", "d")  # the hit's damage roll, then its damage table
        await pilot.pause()
        text = screen_text(app)
        assert "Goblin takes 2 levels of Wounds" in text
        assert "Discombobulated" in text

        await pilot.press("n")
        await pilot.pause()
        assert "▶ Goblin's turn" in screen_text(app)

        await pilot.press("u")
        await pilot.pause()
        assert "▶ Orla's turn" in screen_text(app)
        state = app.session.state

    # Everything was saved as it happened: reopening shows the same encounter.
    reopened = storage.read(tmp_path / "cellar.fight")
    assert reopened.state == state
    app2 = make_app(tmp_path, history=reopened)
    async with app2.run_test(size=BIG) as pilot:
        text = screen_text(app2)
        assert "▶ Orla's turn" in text
        assert "Discombobulated" in text
        assert "Orla vs Goblin (vs Reflex) 8 vs -1 HIT, margin +9" in text
        await pilot.press("ctrl+r")  # redo the undone turn
        await pilot.pause()
        assert "▶ Goblin's turn" in screen_text(app2)


async def test_system_actions_menu_and_live_preview(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([5, 5, 5, 5]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("s")
        await pilot.pause()
        assert "LiveHack actions" in screen_text(app)
        await pilot.press("enter")  # the first action: the opposed roll
        await pilot.pause()
        text = screen_text(app)
        assert "Opposed roll" in text
        assert "Ann +0 vs Bob Reflex +0, before the dice" in text
        await pilot.press(*"3")  # the attacker's extra modifier: the preview follows
        await pilot.pause()
        assert "Ann +3 vs Bob Reflex +0, before the dice" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "Ann vs Bob (vs Reflex) 3 vs 0 HIT, margin +3" in screen_text(app)


async def test_an_eclipse_is_announced(tmp_path: Path) -> None:
    # Ann's boon 12 then 1, her bane 12 then 1: an Eclipse. Bob rolls 1 and 1.
    app = make_app(tmp_path, ScriptedDice([12, 1, 12, 1, 1, 1]))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("r", "enter")
        told = "Eclipse for Ann! Something completely bizarre happens"
        await until(pilot, lambda: told in screen_text(app), "the Eclipse's notice")
        text = screen_text(app)
        assert "ECLIPSE" in text
        assert "Eclipse for Ann! Something completely bizarre happens" in text
