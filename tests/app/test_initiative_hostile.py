"""Hostile `:init` lines at 80x24, by keys: huge dice, a number past every bound, a check, dice
with control characters, names of markup and control characters, and everyone's roll in a
200-combatant fight. Each gets one clear, inert line, or does what it says, and nothing is
lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import SeededDice
from tests.app.support import fight_of, make_app, until
from tests.app.test_app_command_line import type_line
from tests.app.test_initiative import WITH_ORDER, fight, initiative, line, order, pane
from tests.app.test_layout import SMALL
from tests.hostile_text import CONTROL_DICE, HOSTILE_DICE, unsafe, unsafe_strings
from tests.screen import screen_text
from tracker.screens.command_prompt import CommandLineScreen

HOSTILE = "\x1b]0;PWNED\x07\u202e\x9b31m\x00"  # a retitle, a bidi override, a C1 CSI, a NUL

# Each line refused with (a part of) what it is told; the prompt stays, to fix the line.
REFUSED = (
    ("init roll 1000d1000000", "initiative: 1000d1000000: roll 0 to 100 dice, not 1,000"),
    ("init roll 99999999d6", "at most 100 dice at once"),
    ("init Orla 99999999999999999999", "an initiative must be between"),
    ("init Orla -99999999", "not -99,999,999"),
    ("init Orla 1d20>=15", "not a check"),
    ("init roll 1d6 2d6", "usage: init roll [DICE] [each]"),
    ("init Orla 12 13", "usage: init"),
    *((f"init roll {dice}", told) for dice, told in HOSTILE_DICE),
)


@pytest.mark.parametrize(("text", "told"), REFUSED)
async def test_a_hostile_init_line_gets_one_line_and_changes_nothing(
    tmp_path: Path, text: str, told: str
) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "add Orla party")
        await line(pilot, "add Goblin x2")
        records = len(app.session.history.records)
        state = app.session.state
        await type_line(pilot, text)
        await until(pilot, lambda: told in screen_text(app), f"the line saying {told!r}")
        assert isinstance(app.screen, CommandLineScreen)
        assert not unsafe(screen_text(app), "\n")
        assert len(app.session.history.records) == records and app.session.state == state


@pytest.mark.parametrize("dice", CONTROL_DICE)
async def test_control_characters_in_init_dice_show_nothing_unsafe(
    tmp_path: Path, dice: str
) -> None:
    app = fight(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "add Orla party")
        await type_line(pilot, f"init Orla {dice}")
        await type_line(pilot, f"init roll {dice}")
        assert not unsafe(screen_text(app), "\n")
        assert not unsafe_strings(list(app.session.history.records))


async def test_names_of_markup_and_control_characters_roll_and_show_as_typed(
    tmp_path: Path,
) -> None:
    marked = "[bold red]Boss[/]"
    history = fight_of(
        WITH_ORDER.name,
        AddCombatant(name=marked, side="foes"),
        AddCombatant(name=f"Gh{HOSTILE}ost", side="foes"),  # the rules take the controls out
        AddCombatant(name="Orla", side="party"),
    )
    app = make_app(tmp_path, SeededDice(5), history)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, "init roll each")
        assert None not in initiative(app).values()
        await until(pilot, lambda: f"{marked}: initiative" in screen_text(app), "the name as is")
        assert any(marked in row for row in pane(app))  # markup shown, not obeyed
        assert not unsafe(screen_text(app), "\n")
        assert not unsafe_strings(list(app.session.history.records))


async def test_init_roll_for_two_hundred_combatants_loses_no_one(tmp_path: Path) -> None:
    count = 200
    history = fight_of(
        WITH_ORDER.name, *(AddCombatant(name=f"Rat {n}", side="foes") for n in range(count))
    )
    app = make_app(tmp_path, SeededDice(11), history)
    ids = {c.id for c in history.state.combatants}
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, "init roll each")
        state = app.session.state
        assert {c.id for c in state.combatants} == ids  # every one, once
        ranks = [c.initiative for c in state.combatants]
        assert None not in ranks and ranks == sorted(ranks, reverse=True)  # type: ignore[type-var]
        assert state.current_id == state.combatants[0].id  # the top acts first
        await until(pilot, lambda: "sorted by initiative" in screen_text(app), "the sort logged")
        await pilot.press("u")  # one step undoes all two hundred rolls and the sort
        await until(pilot, lambda: set(initiative(app).values()) == {None}, "the rolls undone")
        assert order(app) == [f"Rat {n}" for n in range(count)]
