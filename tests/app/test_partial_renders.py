"""tracker.terminal.partial_renders: a partial update renders less, and sends the very same
bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual.geometry import Region

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.app.support import add_combatant, make_app
from tracker.terminal import partial_renders, textual_internals
from tracker.terminal.textual_internals import Compositor

# Whether Textual's code is the code the patch was written for, and what happens when it is
# not: tests/app/test_textual_internals.py.


def test_tracker_app_installs_it() -> None:
    assert textual_internals.installed_chops() is partial_renders.render_chops


@pytest.mark.slow
async def test_every_partial_update_sends_what_textual_would(tmp_path: Path, monkeypatch) -> None:
    console = Console(force_terminal=True, color_system="truecolor", width=80)
    partial = Compositor.render_partial_update
    compared: list[bool] = []
    inside: list[bool] = []  # updates that end left of the screen's edge (a piece starts there)

    def both(self: Compositor):
        dirty = set(self._dirty_regions)
        inside.append(bool(dirty) and Region.from_union(list(dirty)).right < self.size.width)
        ours = partial(self)
        if ours is None:
            return None
        self._dirty_regions.update(dirty)
        with textual_internals.textuals_own_chops():
            textuals = partial(self)
        compared.append(ours.render_segments(console) == textuals.render_segments(console))
        return ours

    monkeypatch.setattr(Compositor, "render_partial_update", both)
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        for number in range(14):  # enough to scroll the log
            app.session.execute(AddNote(f"note {number}"))
            await pilot.pause()
        await pilot.press("r", "enter", "d", "down", "c")  # a roll, its result, a dialog
        await pilot.pause()
        await pilot.press("escape", "u", "question_mark")
        await pilot.pause()
        await pilot.press("escape", "tab", "up", "up")
        await pilot.pause()
    assert len(compared) > 20 and all(compared) and any(inside)


async def test_every_whole_frame_is_what_textual_would_draw(tmp_path: Path, monkeypatch) -> None:
    """A full update (the screen back from a dialog) and the screen dimmed behind a dialog
    are rendered by ``render_chops`` too: the same strips as Textual's."""
    console = Console(force_terminal=True, color_system="truecolor", width=80)
    full, strips = Compositor.render_full_update, Compositor.render_strips
    compared: dict[str, list[bool]] = {"full": [], "strips": []}

    def both_full(self: Compositor, simplify: bool = False):
        ours = full(self, simplify)
        with textual_internals.textuals_own_chops():
            textuals = full(self, simplify)
        compared["full"].append(ours.render_segments(console) == textuals.render_segments(console))
        return ours

    def both_strips(self: Compositor, size=None):
        ours = strips(self, size)
        with textual_internals.textuals_own_chops():
            textuals = strips(self, size)
        compared["strips"].append(ours == textuals)
        return ours

    monkeypatch.setattr(Compositor, "render_full_update", both_full)
    monkeypatch.setattr(Compositor, "render_strips", both_strips)
    app = make_app(tmp_path, SeededDice(3))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await add_combatant(pilot, "Orla", "party")
        await add_combatant(pilot, "Goblin")
        await pilot.press("r", "enter", "d", "r")  # a roll over the encounter, dimmed
        await pilot.pause()
        await pilot.press("escape", "question_mark")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert all(len(seen) > 2 and all(seen) for seen in compared.values()), compared
