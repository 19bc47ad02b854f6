"""The roll dialog is built once and reused: each opening asks afresh, with today's choices."""

from __future__ import annotations

from pathlib import Path

from rules.commands import AddCombatant
from rules.systems.livehack.system import LiveHackSheet
from tests.screen import screen_text
from tests.systems.livehack.test_app_livehack import BIG, fight, make_app
from tracker.screens.form import FormScreen
from tracker.widgets.choice import Choice
from tracker.widgets.roll_log import RollLog


async def test_a_reused_roll_dialog_forgets_what_was_typed_and_offers_new_combatants(
    tmp_path: Path,
) -> None:
    history = fight(("Ann", "party", LiveHackSheet()), ("Bob", "foes", LiveHackSheet()))
    app = make_app(tmp_path, history, faces=[6] * 40)
    async with app.run_test(size=BIG) as pilot:
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, FormScreen)
        await pilot.press(*"9" * 12, "enter")  # refused: too big a modifier
        await pilot.pause()
        assert "must be between" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()

        app.session.execute(AddCombatant(name="Cyd", sheet=LiveHackSheet()), "add Cyd")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert app.screen is dialog  # not built again
        text = screen_text(app)
        assert "must be between" not in text and "999" not in text
        await pilot.press("shift+tab", "shift+tab", "shift+tab")  # back to the attacker
        attacker = dialog.query_one("#field-attacker", Choice)
        assert app.focused is attacker
        seen = set()
        for _ in range(3):
            await pilot.press("right")
            seen.add(attacker.render().plain)
        assert any("Cyd" in shown for shown in seen)  # the new combatant is a choice now

        log = app.screen_stack[-2].query_one(RollLog)
        before = len(log.entries)
        await pilot.press("escape", "r")
        await pilot.pause()
        await pilot.press("enter")  # rolls with the reused dialog
        await pilot.pause()
        assert not isinstance(app.screen, FormScreen)
        assert len(log.entries) > before


async def test_a_reused_dialog_fits_a_terminal_made_smaller_while_it_was_closed(
    tmp_path: Path,
) -> None:
    history = fight(("Ann", "party", LiveHackSheet()), ("Bob", "foes", LiveHackSheet()))
    app = make_app(tmp_path, history)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert app.screen.has_class("-tall")
        await pilot.press("escape")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, FormScreen) and app.screen.has_class("-short")
        assert "Cancel" in screen_text(app)  # the short layout fits the buttons on screen
