"""The app, played by keys through Textual's Pilot; assertions read the screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system
from tests.app.support import BIG, add_combatant, burst_handled, from_palette, make_app, until
from tests.contract.support import demo
from tests.picks import a_system, has_demo
from tests.screen import screen_text
from tracker.screens.encounter_screen import EncounterScreen


async def test_the_demo_fits_80_by_24(tmp_path: Path) -> None:
    state = demo(a_system(has_demo)).state
    app = make_app(tmp_path, history=demo(state.system))
    async with app.run_test(size=(80, 24)) as pilot:
        parts = (state.name, f"Round {state.round}", "Combatants", "Roll log", "Consequences")
        names = [c.name for c in state.combatants]

        def drawn() -> bool:  # the panes fill in over a few frames, the key bar last
            text = screen_text(app)
            shown = all(part in text for part in (*parts, *names))
            return shown and "r Roll" in text.splitlines()[-1]

        await until(pilot, drawn, "the demo drawn")
        assert "r Roll" in screen_text(app).splitlines()[-1]


async def test_names_are_text_not_markup(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "[red]Zed[/red]")
        await add_combatant(pilot, "[link=x]Y")
        text = screen_text(app)
        assert "[red]Zed[/red]" in text
        assert "[red]Zed[/red] joins the foes" in text
        assert "[link=x]Y" in text


async def test_a_refused_value_keeps_the_dialog_open(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("a", "enter")  # no name
        await pilot.pause()
        assert "a combatant needs a name" in screen_text(app)
        await pilot.press(*"Brak", "enter")
        await pilot.pause()
        assert "Brak joins the foes" in screen_text(app)


def refusal(call: Callable[[], object]) -> str:
    """The line the rules refuse ``call`` with (the app shows it as it is)."""
    with pytest.raises(Rejected) as refused:
        call()
    return refused.value.message


def refuses_a_lone_roll(name: str) -> bool:
    """A system whose roll (the r key) is refused before its dialog opens when only one
    combatant is there (another may open the dialog and refuse the roll in it)."""
    history = History(new_encounter("Cellar", name))
    history.commit(decide(history.state, AddCombatant(name="Solo"), SeededDice(1)))
    state, system = history.state, get_system(name)
    if "roll" not in [action.id for action in system.actions(state)]:
        return False
    try:
        system.action_form(state, "roll", state.combatants[0].id)
    except Rejected:
        return True
    return False


async def test_rolling_without_two_combatants_says_why(tmp_path: Path) -> None:
    app = make_app(
        tmp_path, history=History(new_encounter("Cellar", a_system(refuses_a_lone_roll)))
    )
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Solo")
        state, system = app.session.state, app.session.system
        await pilot.press("r")
        await pilot.pause()
        said = refusal(lambda: system.action_form(state, "roll", state.combatants[0].id))
        assert isinstance(app.screen, EncounterScreen)  # no dialog opened
        assert said in [notice.message for notice in app._notifications]
        assert said[:20] in screen_text(app)
        await pilot.press("d")
        await pilot.pause()
        said = refusal(lambda: decide(state, system.consequence_command(state), ScriptedDice([])))
        assert said in [notice.message for notice in app._notifications]
        assert said[:20] in screen_text(app)
        assert app.session.state == state


async def test_conditions_by_keys_expire_on_their_own(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await pilot.press("down")  # select Bob
        # Condition dialog: who, name, duration, rounds. Focus starts on the name.
        await pilot.press("c", *"Prone", "tab", "right", "enter")
        await pilot.pause()
        assert "Bob is Prone until the end of its next turn" in screen_text(app)
        await pilot.press("n")  # Bob's turn starts
        await pilot.pause()
        assert app.session.state.find("c2").conditions
        await pilot.press("n")  # Bob's turn ends
        await pilot.pause()
        assert "Bob is no longer Prone (expired)" in screen_text(app)
        assert not app.session.state.find("c2").conditions


async def test_remove_and_reorder_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        for name in ("Ann", "Bob", "Cy"):
            await add_combatant(pilot, name)
        await pilot.press("down", "down", "K")  # Cy moves above Bob
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Ann", "Cy", "Bob"]
        await pilot.press("x")
        await pilot.pause()
        assert "Remove Cy from the encounter?" in screen_text(app)
        await pilot.press("y")
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Ann", "Bob"]
        assert "Cy leaves the encounter" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_an_empty_encounter_says_how_to_add_a_combatant(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        lines = screen_text(app).splitlines()
        top = next(i for i, line in enumerate(lines) if "Combatants" in line)
        pane = "\n".join(lines[top : top + 4])  # the border, the column titles, the hint
        assert "press a to add a combatant" in pane
        await add_combatant(pilot, "Ann")
        assert "press a to add a combatant" not in screen_text(app)
        await pilot.press("u")
        await pilot.pause()
        assert "press a to add a combatant" in screen_text(app)


async def test_a_repeated_name_is_numbered_by_key_and_by_the_command_line(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await add_combatant(pilot, "Bandit")
        await add_combatant(pilot, "Bandit")
        names = [c.name for c in app.session.state.combatants]
        assert names == ["Bandit 1", "Bandit 2"]
        text = screen_text(app)
        assert "Bandit 1" in text and "Bandit 2" in text
        assert "Bandit is now Bandit 1" in text
        for _ in range(2):
            await pilot.press("colon", *"add Bandit", "enter")
            await pilot.pause()
        names = [c.name for c in app.session.state.combatants]
        assert names == ["Bandit 1", "Bandit 2", "Bandit 3", "Bandit 4"]
        await pilot.press("u", "u", "u")
        await pilot.pause()
        assert [c.name for c in app.session.state.combatants] == ["Bandit"]
        assert "Bandit 1" not in screen_text(app)


async def test_notes_and_edits_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await pilot.press("o", *"Door creaks", "enter")
        await pilot.pause()
        assert "Door creaks" in screen_text(app)
        await pilot.press("e")
        await pilot.press(*"Anna", "enter")  # the field's text is selected: typing replaces it
        await pilot.pause()
        assert app.session.state.combatants[0].name == "Anna"
        assert "Ann is now Anna" in screen_text(app)  # a rename says from what


async def test_help_lists_every_key(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        for description in ("Roll", "Apply result", "Next turn", "Undo", "Redo", "Drop condition"):
            assert description in text
        await pilot.press("escape")
        await pilot.pause()
        assert "Apply result" in screen_text(app)  # the footer again


@pytest.mark.parametrize("query", ["next turn", "Next"])
async def test_every_action_is_in_the_palette(tmp_path: Path, query: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await add_combatant(pilot, "Ann")
        await add_combatant(pilot, "Bob")
        await from_palette(pilot, query)
        await until(pilot, lambda: "▶ Bob's turn" in screen_text(app), "Bob's turn")


async def test_keys_typed_in_a_burst_land_in_their_fields(tmp_path: Path) -> None:
    # Over SSH, "Vex<Tab>party<Enter>" can arrive in one packet: every key is queued
    # before the first is handled. Tab must still move focus before "party" is typed.
    from textual import events

    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("a")
        await pilot.pause()
        for key in [*"Vex", "tab", *"party", "enter"]:
            character = "\t" if key == "tab" else "\r" if key == "enter" else key
            app.post_message(events.Key(key, character))
        await burst_handled(pilot)
        assert [(c.name, c.side) for c in app.session.state.combatants] == [("Vex", "party")]
