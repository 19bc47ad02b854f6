"""LiveHack's own commands on the app's `:` line, on its demo: attacks, effort, completion
and refusals (moved from tests/app/test_app_command_line.py, which tests the line itself)."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from rules.systems.livehack.demo import build as livehack_demo
from tests.app.test_app_command_line import BIG, prompt_value, type_line
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession


def make_app(tmp_path: Path) -> TrackerApp:
    session = EncounterSession(livehack_demo(), SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


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


async def test_a_system_action_by_its_title_from_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=BIG, notifications=True) as pilot:
        await type_line(pilot, "grim-test brak tortured")
        assert "Brak" in screen_text(app) and "Grim" in screen_text(app)


async def test_an_attack_finds_people_by_a_prefix_and_asks_when_it_fits_two(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = len(app.session.history.records)
        await type_line(pilot, "attack orla gob")  # Goblin Sneak and Goblin Boss both fit
        assert isinstance(app.screen, CommandLineScreen)
        assert "did you mean 'Goblin Sneak' or 'Goblin Boss'?" in screen_text(app)
        assert len(app.session.history.records) == before
        await pilot.press("escape")
        await type_line(pilot, "attack or goblin-s +effort 2")  # prefixes only one name has
        assert isinstance(app.screen, EncounterScreen)
        last = app.session.state.last_roll
        assert last.attacker.combatant_id == "c1" and last.defender.combatant_id == "c3"  # type: ignore[union-attr]
