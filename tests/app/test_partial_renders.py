"""tracker.partial_renders: a partial update renders less, and sends the very same bytes."""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

from rich.console import Console
from textual._compositor import Compositor

from rules.commands import AddNote
from rules.dice import SeededDice
from tests.app.test_app import add_combatant, make_app
from tracker import partial_renders

# Textual 8.2's Compositor._render_chops and _get_renders, which partial_renders replaces
# for partial updates: if this fails, Textual changed them; check partial_renders against them.
TEXTUAL_SOURCE_SHA = "4cc2b8efef1d2032624b06d6211427a116d6f45a39b6f5f10e91cf8a00abc72a"


def test_the_replaced_textual_code_is_the_one_it_was_written_for() -> None:
    source = inspect.getsource(partial_renders.TEXTUALS_RENDER_CHOPS) + inspect.getsource(
        Compositor._get_renders
    )
    assert hashlib.sha256(source.encode()).hexdigest() == TEXTUAL_SOURCE_SHA
    assert Compositor._render_chops is partial_renders._render_chops  # tracker.app installs it


async def test_every_partial_update_sends_what_textual_would(tmp_path: Path, monkeypatch) -> None:
    console = Console(force_terminal=True, color_system="truecolor", width=80)
    partial = Compositor.render_partial_update
    compared: list[bool] = []

    def both(self: Compositor):
        dirty = set(self._dirty_regions)
        ours = partial(self)
        if ours is None:
            return None
        self._dirty_regions.update(dirty)
        monkeypatch.setattr(Compositor, "_render_chops", partial_renders.TEXTUALS_RENDER_CHOPS)
        textuals = partial(self)
        monkeypatch.setattr(Compositor, "_render_chops", partial_renders._render_chops)
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
    assert len(compared) > 20 and all(compared)
