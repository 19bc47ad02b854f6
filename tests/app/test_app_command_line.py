"""The `:` command line in the app, by keys: history, conditions, dialogs, plain text names
(a system's own commands on the line are tested in its own folder)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from rules.bounds import CONDITIONS, TEXT
from rules.commands import AddCombatant, AddCondition
from rules.dice import SeededDice
from rules.history import History
from tests.app.support import fight_of, until
from tests.picks import a_system, every_demo, keeps_added_order
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.line_commands.names import handles
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.help import HelpScreen
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(tmp_path: Path, history: History | None = None) -> TrackerApp:
    """Orla and Brak against a Goblin, in a system whose turns follow that order."""
    people = (("Orla", "heroes"), ("Brak", "heroes"), ("Goblin", "foes"))
    history = history or fight_of(
        a_system(keeps_added_order), *(AddCombatant(name=n, side=s) for n, s in people)
    )
    session = EncounterSession(history, SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


def prompt_value(app: TrackerApp) -> str:
    return app.screen.query_one("#command-input", Input).value


async def type_line(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    """`:`, the line (pasted in one go: typing each key is tested above), then Enter."""
    await pilot.press("colon")
    pilot.app.screen.query_one("#command-input", Input).insert_text_at_cursor(line)
    await pilot.press("enter")
    await pilot.pause()
    # A line whose odds take more than a moment is worked out in a thread: until it is done.
    await until(pilot, lambda: not getattr(pilot.app.screen, "working", False), "the line's odds")


async def test_conditions_next_and_undo_by_steps(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await type_line(pilot, "cond Brak Dazed 2")
        brak = app.session.state.combatant("c2")
        assert [c.name for c in brak.conditions] == ["Dazed"]
        assert "Dazed" in screen_text(app)
        await type_line(pilot, "next")
        assert app.session.state.current_id == "c2"
        await type_line(pilot, "undo 2")
        assert app.session.state.current_id == "c1"
        assert not app.session.state.combatant("c2").conditions
        await type_line(pilot, "redo")
        assert app.session.state.combatant("c2").conditions


async def test_history_with_up_and_down_and_across_restarts(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await type_line(pilot, "note first")
        await type_line(pilot, "note second")
        await pilot.press("colon", *"half")
        await pilot.press("up")
        assert prompt_value(app) == "note second"
        await pilot.press("up", "up")
        assert prompt_value(app) == "note first"
        await pilot.press("down", "down")
        assert prompt_value(app) == "half"  # back to the line being typed
        await pilot.press("escape")
    assert (tmp_path / ".command-history").read_text().splitlines() == ["note first", "note second"]

    again = make_app(tmp_path)
    async with again.run_test(size=BIG) as pilot:
        await pilot.press("colon", "up")
        assert prompt_value(again) == "note second"


async def test_palette_commands_and_dialogs_from_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await type_line(pilot, "help")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert ":  " in text and "Command line" in text and "Quick turn" in text
        await pilot.press("escape")
        await type_line(pilot, "roll")  # no words: the roll dialog, as r opens it
        assert isinstance(app.screen, FormScreen)
        await pilot.press("escape")
        await type_line(pilot, "help undo")
        assert "undo [N]: undo N steps" in screen_text(app)


async def test_a_name_like_markup_stays_text(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await type_line(pilot, "add [red] foes")
        await type_line(pilot, "cond red Prone")
        assert app.session.state.combatants[-1].name == "[red]"
        assert [c.name for c in app.session.state.combatants[-1].conditions] == ["Prone"]
        await pilot.press("colon", *"cond ")
        await pilot.pause()
        assert "red" in screen_text(app)
        await pilot.press("escape")
        assert "[red]" in screen_text(app)


async def test_a_condition_past_the_most_one_takes_is_refused_in_one_line(tmp_path: Path) -> None:
    people = (AddCombatant(name="Orla", side="heroes"), AddCombatant(name="Brak", side="heroes"))
    laden = (AddCondition("c2", f"Hex-{n}") for n in range(CONDITIONS))
    app = make_app(tmp_path, fight_of(a_system(keeps_added_order), *people, *laden))
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await type_line(pilot, "cond Brak Dazed")
        assert f"Brak has {CONDITIONS} conditions, the most one takes" in screen_text(app)
        assert len(app.session.state.combatant("c2").conditions) == CONDITIONS
        await pilot.press("escape")  # the refused line stays, to be mended: let it go
        await type_line(pilot, "cond Brak Hex-7")  # one it has is renewed, as before
        assert app.session.state.combatant("c2").conditions[-1].name == "Hex-7"


async def test_a_flood_typed_into_the_line_is_cut_at_what_a_text_may_hold(tmp_path: Path) -> None:
    """A line is at most a text's length: keys past it are cut as they come, a longer paste is
    not taken, so the prompt never works its hint and completions out over a page of keys
    again and again."""
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("colon")
        field = app.screen.query_one("#command-input", Input)
        field.insert_text_at_cursor("note " + "x" * (TEXT + 500))  # a paste past it: not taken
        await pilot.pause()
        assert field.value == ""
        field.insert_text_at_cursor("note " + "x" * (TEXT - 5))
        await pilot.press("y", "z")  # keys past it: cut as they come
        assert field.value == "note " + "x" * (TEXT - 5)


@pytest.mark.parametrize("demo", sorted(every_demo()))
async def test_the_empty_prompts_example_is_lines_this_fight_takes(
    tmp_path: Path, demo: str
) -> None:
    """The example the empty prompt shows is in the fight's own names and its system's own
    roll, and each of its lines, typed as shown, is taken (it showed LiveHack's `+effort` and
    the LiveHack demo's Orla and Brak in every fight)."""
    session = EncounterSession(DEMOS[demo](), SeededDice(2), tmp_path / "fight.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("colon")
        await until(pilot, lambda: isinstance(app.screen, CommandLineScreen), "the prompt")
        example = app.screen.query_one("#command-input", Input).placeholder
        assert example in screen_text(app)
        await pilot.press("escape")
        names = {handle for handle, _ in handles(app.session.state)}
        for shown in example.split(" · "):
            words = shown.split()
            if words[0] in ("attack", "cond"):
                assert set(words[1:3]) & names, shown  # named as the fight names them
            records = len(app.session.history.records)
            await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
            await type_line(pilot, shown)
            # Taken: the prompt gone (a refusal keeps it), and something done (a roll, a
            # condition, the turn passed, steps undone), or a question or dialog open for it.
            await until(
                pilot,
                lambda: not isinstance(app.screen, CommandLineScreen),
                f"{shown!r} taken, not refused",
            )
            asked = not isinstance(app.screen, EncounterScreen)  # a result to apply first...
            while not isinstance(app.screen, EncounterScreen):
                await pilot.press("escape")
                await pilot.pause()
            assert asked or len(app.session.history.records) != records, shown
