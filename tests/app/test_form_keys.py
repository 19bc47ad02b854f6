"""Moving about a dialog's fields by keys, at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from rules.dice import SeededDice
from tests.app.support import burst_handled, until
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.screens.form import FormScreen
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession
from tracker.widgets.choice import Choice

SMALL = (80, 24)


def on_screen(app: TrackerApp) -> bool:
    """The focused field is wholly inside what the dialog shows of its field list."""
    assert app.focused is not None
    placed = app.screen.find_widget(app.focused)
    return placed.region.intersection(placed.clip) == placed.region


async def roll_dialog(pilot: Pilot[None]) -> FormScreen:
    """``r`` pressed: the roll dialog, once what waits (if anything) is applied."""
    app = pilot.app
    await pilot.press("r")
    await burst_handled(pilot)
    if isinstance(app.screen, WaitingScreen):  # apply what waits, then it opens
        await pilot.press("d")
        await burst_handled(pilot)
    assert isinstance(app.screen, FormScreen)
    return app.screen


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_down_and_up_move_between_fields_and_keep_the_focused_one_in_view(
    tmp_path: Path, demo: str
) -> None:
    """Found by the walk (seed 885319991): ↓ scrolled the field list under the focused
    field, hiding it above the list's top at 80x24; now ↓ and ↑ move between fields."""
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await roll_dialog(pilot)
        for _ in range(12):  # round every field, the list scrolled as focus moves
            before = app.focused
            await pilot.press("down")
            await burst_handled(pilot)
            assert app.focused is not before, "↓ did not move to another field"
            assert on_screen(app), f"{app.focused} is not wholly on screen"
        await pilot.press("up")
        await burst_handled(pilot)
        assert on_screen(app)
        assert app.screen is dialog  # ↓ and ↑ never closed or submitted it


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_page_keys_scroll_the_fields_and_the_focus_goes_along(
    tmp_path: Path, demo: str
) -> None:
    """Found by the walk (seed 202940950): Page Down scrolled the field list and left the
    focused field above it at 80x24; now the focus moves to a field in view."""
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await roll_dialog(pilot)
        for key in ("tab", "pagedown", "pagedown", "end", "pageup", "home"):
            await pilot.press(key)
            await burst_handled(pilot)
            await until(pilot, lambda: on_screen(app), f"the focus in view after {key}")
        assert app.screen is dialog


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_a_dialog_opens_on_a_field_and_a_choice_changes_at_once(
    tmp_path: Path, demo: str
) -> None:
    """The Generic d20 Attack, all choices, opened on its field list: → did nothing until
    ↓ or Tab had reached the Action (seen in tmux at 80x24)."""
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        dialog = await roll_dialog(pilot)
        focused = app.focused
        if not dialog.query(".form-grid > Choice, .form-grid > Input"):
            return  # nothing to choose (a roll of every side at once): its button
        assert focused is not None and (focused.id or "").startswith("field-"), focused
        if isinstance(focused, Choice) and len(focused.options) > 1:
            before = focused.value
            await pilot.press("right")
            await burst_handled(pilot)
            assert focused.value != before
