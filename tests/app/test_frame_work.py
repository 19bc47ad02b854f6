"""A change redraws only what it changes: a turn neither lays the screen out nor redraws
the consequences pane (on a served table, every seat would do both)."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from rules.commands import AddNote, NextTurn
from rules.dice import SeededDice
from tests.app.support import add_combatant, make_app, until
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.widgets.roll_log import RollLog
from tracker.widgets.thresholds import ThresholdsPane


def settled(app: TrackerApp) -> bool:
    """The encounter screen at rest: the log at its end with its thumb caught up (it may lag a
    layout, see RollLog), and the key bar drawn."""
    if not isinstance(app.screen, EncounterScreen):
        return False
    log = app.screen.query_one(RollLog)
    caught_up = log.vertical_scrollbar.window_virtual_size == log.virtual_size.height
    at_rest = log.show_vertical_scrollbar and caught_up and log.is_vertical_scroll_end
    return at_rest and "r Roll" in screen_text(app).splitlines()[-1]


async def test_a_turn_redraws_neither_the_layout_nor_the_consequences(
    tmp_path: Path, monkeypatch
) -> None:
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        await pilot.press("r", "enter")  # a roll: the pane marks its tier
        for number in range(14):  # the log scrolls (its scrollbar comes once, laid out)
            app.session.execute(AddNote(f"note {number}"))
        # All of that drawn and laid out before counting: the scrollbar shown, its thumb
        # caught up, the key bar back after the roll's dialog.
        # The turn clock comes with the first turn passed: laid out once a session, first.
        app.session.execute(NextTurn())
        await until(pilot, lambda: settled(app), "the notes laid out")
        layouts: list[Screen] = []
        drawn: list[object] = []
        layout = Screen._refresh_layout
        update = ThresholdsPane.update

        def counting_layout(self, *args, **kwargs):
            layouts.append(self)
            return layout(self, *args, **kwargs)

        def counting_update(self, *args, **kwargs):
            drawn.append(args)
            return update(self, *args, **kwargs)

        monkeypatch.setattr(Screen, "_refresh_layout", counting_layout)
        monkeypatch.setattr(ThresholdsPane, "update", counting_update)
        pane = screen_text(app)
        for _ in range(3):
            app.session.execute(NextTurn())
            await pilot.pause()
        turn = f"▶ {app.session.state.current.name}'s turn"
        # All three turns seen through (what they set off included) before counting.
        await until(pilot, lambda: settled(app) and turn in screen_text(app), "the turns drawn")
        text = screen_text(app)
        header = text.splitlines()[0]  # shows the new turn
        assert header != pane.splitlines()[0]
        assert f"▶ {app.session.state.current.name}'s turn" in header
        assert layouts == [] and drawn == []
        assert [line[46:] for line in text.splitlines()[10:20]] == [
            line[46:] for line in pane.splitlines()[10:20]
        ]
        await pilot.press("r", "enter")  # another roll is drawn (its odds, then its tier)
        await until(pilot, lambda: drawn, "the roll drawn in the consequences pane")
