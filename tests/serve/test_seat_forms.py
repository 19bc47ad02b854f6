"""A seat's dialogs at 80x24: what a player is refused is said, and the buttons stay on screen."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from textual.widgets import Button

from rules.dice import SeededDice
from rules.errors import Rejected
from tests.app.support import burst_handled, until
from tests.screen import screen_text
from tracker.demos import DEMOS
from tracker.screens.form import FormScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession

SMALL = (80, 24)


def quiet(app: TableApp) -> bool:
    """No worker still running: the dialog's odds are in."""
    return all(worker.is_finished for worker in app.workers)


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_a_players_refused_roll_keeps_the_buttons_on_screen(
    tmp_path: Path, demo: str
) -> None:
    """Found by the walk (seed 477090283): "You do not act for ..." took a row under the
    odds, and the Roll and Cancel buttons fell off the foot of an 80x24 seat."""
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    with contextlib.suppress(Rejected):  # the GM applies what the demo left waiting
        session.execute(session.system.consequence_command(session.state))
    table = Table(session)
    # Given no combatant yet: her dialog opens for whoever acts (one given combatants opens
    # for her own alone, tests/serve/test_seat_choices.py), and is refused.
    table.assign("Alice", frozenset())
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        await burst_handled(pilot)
        if not isinstance(app.screen, FormScreen):
            pytest.skip("its roll is no dialog of a player's (every side rolls at once)")
        await until(pilot, lambda: quiet(app), "the dialog's odds")
        dialog = app.screen
        await pilot.press("enter")
        await until(pilot, lambda: "You do not act for" in screen_text(app), "the refusal")
        assert app.screen is dialog
        for button in dialog.query(Button):
            placed = dialog.find_widget(button)
            assert placed.region.intersection(placed.clip) == placed.region, str(button.label)
            assert placed.region.bottom <= SMALL[1], str(button.label)
