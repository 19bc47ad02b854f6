"""Keys typed in a burst, right after the key that opens a prompt or a dialog, land in it.

Textual routes a key to the focused widget as the app reads it, and runs its binding only
once it has bubbled back: a burst's keys after `:` went to the encounter's table before the
prompt was up, and were lost. ``press_at_once`` puts a whole burst in the app's queue at once,
as a terminal does; ``pilot.press`` would wait between keys and never show it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Input, Static

from rules.commands import AddCombatant
from rules.dice import SeededDice
from tests.app.support import (
    PATIENCE,
    burst_handled,
    fight_of,
    keys_of,
    post_keys,
    press_at_once,
)
from tests.picks import a_system, keeps_added_order
from tests.screen import screen_text
from tests.serve.serve_helpers import until as until_true
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession
from tracker.terminal import typed_keys

SIZE = (80, 24)


def make_app(tmp_path: Path) -> TrackerApp:
    """Orla and a Goblin, whose turns an ``n`` let through would change."""
    people = (AddCombatant(name="Orla", side="heroes"), AddCombatant(name="Goblin"))
    history = fight_of(a_system(keeps_added_order), *people)
    session = EncounterSession(history, SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


def last_notes(app: TrackerApp) -> list[str]:
    """The notes the roll log shows (the fight has none of its own)."""
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


async def test_a_burst_waits_for_a_dialog_however_long_it_takes_to_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under load a dialog can take seconds to build: its first key once went on after a
    # second to the dialog being built, with nothing focused to type into ("ope bridge").
    monkeypatch.setattr(typed_keys, "STUCK", 0.01)
    built = asyncio.Event()
    looks = 0
    build = FormScreen.mount_composed_widgets
    stuck = typed_keys.TypedKeys._stuck

    async def slowly(self: FormScreen, widgets: list[Widget]) -> None:
        await built.wait()  # as long as the test says: a machine as slow as it likes
        await build(self, widgets)

    async def looking(self: typed_keys.TypedKeys) -> None:
        nonlocal looks
        looks += 1
        await stuck(self)

    monkeypatch.setattr(FormScreen, "mount_composed_widgets", slowly)
    monkeypatch.setattr(typed_keys.TypedKeys, "_stuck", looking)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        post_keys(pilot, "o", *keys_of("rope bridge"), "enter")
        try:
            # Not Pilot's pause: it waits for the dialog, not built until the test says.
            await until_true(lambda: looks >= 20, PATIENCE)  # the watchdog looked, and waits
            assert len(app.typed_keys.held) == len("rope bridge") + 1  # "r" and on wait
        finally:
            built.set()
        await burst_handled(pilot)
        assert last_notes(app) == ["rope bridge"]


async def test_keys_behind_a_key_whose_widget_closed_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The widget a key's callback waits in was taken out of the app: it will never come back.
    monkeypatch.setattr(typed_keys, "STUCK", 0.01)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.typed_keys.busy = True  # as if a key were on its way, in a widget now gone
        app.typed_keys.waiting = Static()
        await press_at_once(pilot, *keys_of(":note late"), "enter")
        assert last_notes(app) == ["late"]


async def test_a_key_never_seen_through_holds_the_others_a_minute_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A handler that never returns: after GIVE_UP the keys go on as Textual routes them.
    monkeypatch.setattr(typed_keys, "STUCK", 0.01)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.typed_keys.busy = True  # as if a key had been on its way for GIVE_UP seconds
        app.typed_keys.started = time.monotonic() - typed_keys.GIVE_UP - 1
        await press_at_once(pilot, *keys_of(":note late"), "enter")
        assert last_notes(app) == ["late"]
