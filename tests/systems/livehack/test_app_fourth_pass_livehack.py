"""LiveHack's fourth pass (issue 39) by keys at 80x24: a held position growing, Take Ten by the
GM's leave in the grim test's dialog, the GM's override for one who cannot act, and the
Initiative dialog's Boon/Bane roll."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.systems.livehack.system import LiveHackRolled, LiveHackSheet
from tests.app.support import until
from tests.screen import screen_text
from tests.systems.livehack.test_app_livehack import (
    GRIM,
    HOLD,
    SMALL,
    duel,
    fight,
    make_app,
    menu,
    rows,
    tab_to,
)
from tracker.screens.form import FormScreen


def is_form(app) -> bool:
    return isinstance(app.screen, FormScreen)


async def test_a_position_held_twice_by_keys_grows_by_the_new_bonus(tmp_path: Path) -> None:
    # F4-01: Orla (+10) hits by 12 (+2) and holds it; her next attack gets the +2 by itself
    # and hits by 12 again (+2): held again, the position is +4 (it was +2).
    app = make_app(tmp_path, duel(), faces=[3, 1, 1, 1, 1, 1, 1, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r", "enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the first hit")
        await menu(pilot, HOLD)
        await pilot.press(*"on the stairs", "enter")
        await until(pilot, lambda: "+2 on the stairs" in rows(app, "Orla"), "held")
        await pilot.press("r", "enter")
        await until(pilot, lambda: "positional +2" in screen_text(app), "the second hit")
        assert "still held" in screen_text(app)
        await menu(pilot, HOLD)  # the description offered is the one held
        await pilot.press("enter")
        await until(pilot, lambda: "+4 on the stairs" in rows(app, "Orla"), "held again")
        assert "Orla holds +2 more, +4 positional bonus" in screen_text(app)


async def test_a_grim_tests_take_ten_waits_for_the_gms_leave_by_keys(tmp_path: Path) -> None:
    # F4-05: a grim test taken at ten is refused, in the dialog, until the GM allows it.
    history = fight(("Orla", "party", LiveHackSheet(will=2)), ("Goblin", "foes", LiveHackSheet()))
    app = make_app(tmp_path, history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await menu(pilot, GRIM)
        await until(pilot, lambda: is_form(app), "the grim test's dialog")
        await tab_to(pilot, "take")
        await pilot.press("right", "right")  # Roll → Take Zero → Take Ten
        await pilot.press("enter")
        await until(pilot, lambda: "Take Ten needs plenty of time" in screen_text(app))
        assert "Orla resists by rolling or taking" in screen_text(app)
        assert is_form(app) and app.session.state.last_roll is None
        await pilot.press("right")  # → Take Ten (GM allows)
        await until(pilot, lambda: "Take Ten (GM allows)" in screen_text(app))
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the grim test")
        roll = app.session.state.last_roll
        assert isinstance(roll, LiveHackRolled) and roll.defender.take == "ten"
        assert "take ten +10" in screen_text(app)


async def test_an_attack_by_the_dying_waits_for_the_gms_override_by_keys(tmp_path: Path) -> None:
    # F4-13: a dying Orla's attack is refused with one line; the GM's "Acts anyway" lets it go,
    # and the log says so.
    history = duel()
    history.commit(decide(history.state, AddCondition("c1", "Dying"), ScriptedDice([])), "down")
    app = make_app(tmp_path, history, faces=[1, 1, 1, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: is_form(app), "the roll dialog")
        await pilot.press("enter")
        await until(pilot, lambda: "Orla cannot act (Dying): no attack" in screen_text(app))
        assert is_form(app) and app.session.state.last_roll is None
        await tab_to(pilot, "gm_override")
        await pilot.press("right")  # No → Yes
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the roll")
        assert "GM override: Orla acts though Dying" in screen_text(app)


async def test_the_initiative_dialog_offers_the_boon_bane_roll(tmp_path: Path) -> None:
    # F4-07: the Initiative dialog names LiveHack's own roll, and rolls it.
    history = fight(
        ("Orla", "party", LiveHackSheet(dexterity=3)), ("Goblin", "foes", LiveHackSheet())
    )
    app = make_app(tmp_path, history, faces=[12, 5, 3, 2, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("i")
        await until(pilot, lambda: is_form(app), "the Initiative dialog")
        assert "1d12!-1d12!+3" in screen_text(app)  # was 1d20
        await pilot.press("enter")  # everyone without one, each one's own roll
        await until(pilot, lambda: app.session.state.combatant("c1").initiative is not None)
        assert [c.initiative for c in app.session.state.combatants] == [17, 1]
