"""A dialog's choice of combatants at 80x24: letters typed jump to the first option starting
with them; those out of the fight come after the others."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from rules.commands import AddCombatant
from rules.dice import SeededDice
from tests.app.support import fight_of, press_at_once
from tests.picks import a_system, anything, falls_at_worst_track, joins_without_dice
from tests.serve.serve_helpers import fell
from tracker.app import TrackerApp
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession
from tracker.widgets import choice
from tracker.widgets.choice import Choice

SIZE = (80, 24)
NAMES = ("Orla", "Gorm", "Goblin")


def make_app(tmp_path: Path, system: str = "") -> TrackerApp:
    heroes = AddCombatant(name=NAMES[0], side="heroes")
    people = (heroes, *(AddCombatant(name=name) for name in NAMES[1:]))
    history = fight_of(system or a_system(anything), *people)
    return TrackerApp(
        EncounterSession(history, SeededDice(4), tmp_path / "f.fight"), saves=tmp_path
    )


async def on_a_choice_of_names(pilot: Pilot[None]) -> Choice:
    """The roll dialog (``r``), ↑ pressed until a choice of the combatants has the focus."""
    app = pilot.app
    await press_at_once(pilot, "r")
    assert isinstance(app.screen, FormScreen)
    for _ in range(len(app.screen.fields)):
        focused = app.focused
        if isinstance(focused, Choice) and {label for _, label in focused.options} >= set(NAMES):
            return focused
        await press_at_once(pilot, "up")
    raise AssertionError("the roll dialog has no choice of the combatants")


def chosen(field: Choice) -> str:
    return field.options[field.index][1]


async def test_letters_typed_on_a_choice_jump_to_the_first_option_starting_with_them(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        field = await on_a_choice_of_names(pilot)
        first_go = next(label for _, label in field.options if label.lower().startswith("go"))
        await press_at_once(pilot, "g", "o")
        assert chosen(field) == first_go
        await press_at_once(pilot, "g", "o", "b")
        assert chosen(field) == "Goblin"
        await press_at_once(pilot, "O", "R")  # any case
        assert chosen(field) == "Orla"


async def test_a_pause_starts_a_new_search(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = 100.0
    monkeypatch.setattr(choice, "monotonic", lambda: now)
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        field = await on_a_choice_of_names(pilot)
        await press_at_once(pilot, "g", "o", "r")
        assert chosen(field) == "Gorm"
        now += choice.PAUSE / 2  # quick: "gorm" goes on the same search
        await press_at_once(pilot, "m")
        assert chosen(field) == "Gorm"
        now += choice.PAUSE * 2  # a pause: "o" alone, not "gormo"
        await press_at_once(pilot, "o")
        assert chosen(field) == "Orla"


async def test_a_choice_of_combatants_offers_those_out_of_the_fight_last(tmp_path: Path) -> None:
    app = make_app(tmp_path, a_system(falls_at_worst_track, joins_without_dice))
    gorm = next(c.id for c in app.session.state.combatants if c.name == "Gorm")
    assert [c.name for c in app.session.state.combatants][-1] != "Gorm"
    fell(app.session, gorm)
    async with app.run_test(size=SIZE) as pilot:
        field = await on_a_choice_of_names(pilot)
        names = [label for _, label in field.options if label in NAMES]
        assert names[-1] == "Gorm"
        seen = []
        for _ in field.options:  # ← and → step through them in that order
            seen.append(chosen(field))
            await press_at_once(pilot, "right")
        start = seen.index(field.options[0][1])
        assert seen[start:] + seen[:start] == [label for _, label in field.options]
