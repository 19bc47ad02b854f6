"""A change redraws only what it changes: a turn neither lays the screen out nor redraws
the consequences pane (on a served table, every seat would do both)."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from rules.commands import AddNote, NextTurn
from rules.dice import SeededDice
from tests.app.support import add_combatant, make_app
from tests.screen import screen_text
from tracker.widgets.thresholds import ThresholdsPane


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
        await pilot.pause(0.3)
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
        text = screen_text(app)
        header = text.splitlines()[0]  # shows the new turn
        assert header != pane.splitlines()[0]
        assert f"▶ {app.session.state.current.name}'s turn" in header
        assert layouts == [] and drawn == []
        assert [line[46:] for line in text.splitlines()[10:20]] == [
            line[46:] for line in pane.splitlines()[10:20]
        ]
        await pilot.press("r", "enter")  # another roll is drawn (its odds, then its tier)
        await pilot.pause(0.3)
        assert drawn
