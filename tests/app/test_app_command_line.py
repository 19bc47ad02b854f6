"""The `:` command line in the app, by keys: completion, history, suggestions, refusals."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from rules.dice import SeededDice
from rules.history import History
from rules.systems.livehack.demo import build as livehack_demo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.help import HelpScreen
from tracker.session import EncounterSession

BIG = (120, 40)


def make_app(tmp_path: Path, history: History | None = None) -> TrackerApp:
    session = EncounterSession(history or livehack_demo(), SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


def prompt_value(app: TrackerApp) -> str:
    return app.screen.query_one("#command-input", Input).value


async def type_line(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    """`:`, the line (pasted in one go: typing each key is tested above), then Enter."""
    await pilot.press("colon")
    pilot.app.screen.query_one("#command-input", Input).insert_text_at_cursor(line)
    await pilot.press("enter")
    await pilot.pause()


async def test_an_attack_typed_on_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("colon", *"attack Orla goblin-sneak +effort 2", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        last = app.session.state.last_roll
        assert last.attacker.combatant_id == "c1" and last.defender.combatant_id == "c3"  # type: ignore[union-attr]
        assert last.effort == 2  # type: ignore[union-attr]
        assert "Orla vs Goblin Sneak (vs Reflex)" in screen_text(app)


async def test_a_huge_effort_on_the_line_reports_the_efforts_own_bound(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = len(app.session.history.records)
        await pilot.press("colon", *"attack Orla goblin-sneak +effort 99999999999", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CommandLineScreen)
        text = screen_text(app)
        assert "Effort must be between 0 and 5" in text
        assert "1,000,000" not in text
        assert len(app.session.history.records) == before


async def test_tab_completes_and_cycles_and_the_right_arrow_takes_the_suggestion(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await pilot.press("colon", *"att", "tab")
        assert prompt_value(app) == "attack "
        await pilot.press(*"orla gob", "tab")
        assert prompt_value(app) == "attack orla goblin-sneak "
        await pilot.press("tab")
        assert prompt_value(app) == "attack orla goblin-boss "
        text = screen_text(app)
        assert "+effort" in text  # the hint lists the roll's fields
        await pilot.press(*"+ef")
        await pilot.pause()
        await pilot.press("right")  # Textual's suggestion, shown after the cursor
        assert prompt_value(app) == "attack orla goblin-boss +effort"
        await pilot.press("escape")
        assert isinstance(app.screen, EncounterScreen)
        assert app.session.state.last_roll == livehack_demo().state.last_roll  # nothing ran


async def test_a_typo_gets_a_suggestion_and_the_prompt_stays(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        before = len(app.session.history.records)
        await type_line(pilot, "atack orla goblin-sneak")
        assert isinstance(app.screen, CommandLineScreen)
        assert "no command 'atack': did you mean 'attack'?" in screen_text(app)
        # Fix it in place: the line is still there to edit.
        await pilot.press("home", "right", "t", "enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert len(app.session.history.records) == before + 1


async def test_a_refusal_of_the_rules_shows_their_message(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        before = len(app.session.history.records)
        await type_line(pilot, "apply")  # the demo's last roll is applied already
        assert isinstance(app.screen, CommandLineScreen)
        assert "already been applied" in screen_text(app)
        await pilot.press("ctrl+u")
        await pilot.press(*"uncond orla", "enter")
        await pilot.pause()
        assert "Orla has no conditions" in screen_text(app)
        assert len(app.session.history.records) == before


async def test_conditions_next_and_undo_by_steps(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG) as pilot:
        await type_line(pilot, "cond Brak discombobulated 2")
        brak = app.session.state.combatant("c2")
        assert [c.name for c in brak.conditions] == ["Discombobulated"]
        assert "Discombobulated" in screen_text(app)
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
        await type_line(pilot, "grim-test brak tortured")
        assert "Brak" in screen_text(app) and "Grim" in screen_text(app)
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
