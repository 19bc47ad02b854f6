"""Keys typed in a burst, right after the key that opens a prompt or a dialog, land in it.

Textual routes a key to the focused widget as the app reads it, and runs its binding only
once it has bubbled back: a burst's keys after `:` went to the encounter's table before the
prompt was up, and were lost. ``press_at_once`` puts a whole burst in the app's queue at once,
as a terminal does; ``pilot.press`` would wait between keys and never show it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from rules.dice import SeededDice
from rules.systems.livehack.demo import build as livehack_demo
from tests.app.support import keys_of, press_at_once
from tests.screen import screen_text
from tracker import typed_keys
from tracker.app import TrackerApp
from tracker.screens.command_line import CommandLineScreen
from tracker.screens.encounter import EncounterScreen
from tracker.session import EncounterSession

SIZE = (80, 24)


def make_app(tmp_path: Path) -> TrackerApp:
    session = EncounterSession(livehack_demo(), SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


def last_notes(app: TrackerApp) -> list[str]:
    """The notes the roll log shows (the demo has none of its own)."""
    lines = screen_text(app).splitlines()
    return [line.split("✎ ")[1].split("  ")[0] for line in lines if "✎ " in line]


async def test_a_line_typed_in_one_burst_after_the_colon_runs(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await press_at_once(pilot, *keys_of(":note burst test"), "enter")
        assert isinstance(app.screen, EncounterScreen)
        assert last_notes(app) == ["burst test"]


async def test_lines_typed_in_one_burst_run_in_turn(tmp_path: Path) -> None:
    # After Enter the prompt closes: the next `:` opens a new one, not the encounter's keys.
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        before = app.session.state.round, app.session.state.current_id
        await press_at_once(pilot, *keys_of(":note one"), "enter", *keys_of(":note two"), "enter")
        assert isinstance(app.screen, EncounterScreen)
        assert last_notes(app) == ["one", "two"]
        # No `n` of the burst reached the encounter (next turn).
        assert (app.session.state.round, app.session.state.current_id) == before


async def test_a_dialog_opened_by_a_key_takes_the_burst_behind_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await press_at_once(pilot, "o", *keys_of("rope bridge"), "enter")  # the note dialog
        await press_at_once(pilot, "a", *"Zed", "enter")  # the add form (no library: at once)
        assert isinstance(app.screen, EncounterScreen)
        assert last_notes(app) == ["rope bridge"]
        assert "Zed joins the foes" in screen_text(app)


async def test_keys_wait_for_a_screen_opened_without_a_key(tmp_path: Path) -> None:
    # Pushed by code (not by a key the burst waits behind): the keys wait for its mount.
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, EncounterScreen)
        app.screen.action_command_line()
        await press_at_once(pilot, *"note")
        assert isinstance(app.screen, CommandLineScreen)
        assert app.screen.query_one(Input).value == "note"


async def test_a_key_never_seen_through_holds_the_others_only_a_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A widget on a key's way closed: the keys behind it go on as Textual routes them.
    monkeypatch.setattr(typed_keys, "STUCK", 0.2)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.typed_keys.busy = True  # as if a key were on its way, never to come back
        await press_at_once(pilot, *keys_of(":note late"), "enter")
        for _ in range(100):
            if not (app.typed_keys.held or app.typed_keys.busy):
                break
            await pilot.pause(0.02)
        await pilot.pause()
        assert last_notes(app) == ["late"]
