"""Plain dice and reports from the app, at 80x24, by keys."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from rules.dice import ScriptedDice, SeededDice
from rules.history import History
from rules.notation import answer
from rules.notation.exact import Budget
from rules.plain_dice import DiceRolled
from tests.app.support import from_palette, until
from tests.contract.support import demo
from tests.hostile_text import CONTROL_DICE, HOSTILE_DICE, unsafe, unsafe_strings
from tests.picks import a_system, every_system, has_demo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.session import EncounterSession

from .test_app_command_line import type_line

SMALL = (80, 24)


def make_app(tmp_path: Path, history: History | None = None, faces: list[int] | None = None):  # type: ignore[no-untyped-def]
    dice = ScriptedDice(faces) if faces is not None else SeededDice(2)
    history = history or demo(a_system(has_demo))
    session = EncounterSession(history, dice, tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path)


async def test_plain_dice_on_the_line(tmp_path: Path) -> None:
    app = make_app(tmp_path, faces=[4, 2, 1, 6, 3, 5])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, "roll 2d6+3")  # dice notation after :roll is dice
        assert isinstance(app.screen, EncounterScreen)
        assert "🎲 2d6+3: 4 2 + 3 = 9 · mean 10" in screen_text(app)
        await type_line(pilot, "dice 4d6kh3 >= 12")
        assert "4d6kh3 >= 12: (1) 6 3 5 = 14" in screen_text(app)
        rolled = [e for e in app.session.history.effective_events() if isinstance(e, DiceRolled)]
        assert [e.total for e in rolled] == [9, 14]
        await pilot.press("u")
        await pilot.pause()
        assert "🎲 4d6kh3" not in screen_text(app)


@pytest.mark.parametrize("system", every_system(has_demo))
async def test_hidden_dice_run_into_more_are_refused(tmp_path: Path, system: str) -> None:
    """Two lines typed as one, the GM's hidden dice first: read as the system's roll, its
    words were that roll's free text, shown to every seat (Pain Pool's served walk, seed
    509219). Refused in one line, nothing rolled; so is a system's roll that ends with the
    word, which no roll of the system's hides."""
    app = make_app(tmp_path, demo(system), faces=[4] * 40)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        before = len(app.session.history.records)
        for line in ("roll 1d20+4321 hidden:dice 3d6!", "dice 2d6 HIDDEN u", "roll d4 hiddenx"):
            await type_line(pilot, line)
            assert isinstance(app.screen, CommandLineScreen)  # refused: the line stays to mend
            assert "'hidden' ends a line of dice, with nothing after it" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        # A system's roll ending with the word: its words would be the roll's, seen by all.
        first = app.session.state.combatants[0].id
        for line in (f"roll {first} hidden", f"attack {first} Hidden"):
            await type_line(pilot, line)
            assert isinstance(app.screen, CommandLineScreen)
            assert "'hidden' is for plain dice" in screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        assert len(app.session.history.records) == before
        assert "1d20+4321" not in screen_text(app)


async def test_dice_bots_notation_on_the_line_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, faces=[1, 14, 3, 4, 2, 9, 2, 8, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("colon", *"dice 1d20ro1+5 >= 15", "enter")
        await pilot.pause()
        assert "🎲 1d20ro1+5 >= 15: 1→14 + 5 = 19 · made" in screen_text(app)  # the log wraps
        await type_line(pilot, "roll 2d6 [fire] + 1d4 [cold]")  # dice after :roll are dice
        assert "🎲 2d6 [fire] + 1d4 [cold]: 3 4 [fire]" in screen_text(app)
        assert "[cold] = 9 · mean 9.50" in screen_text(app)
        await type_line(pilot, "dice 4d10c>=8")
        assert "🎲 4d10c>=8: 9✓ 2 8✓ 1 = 2" in screen_text(app)
        before = len(app.session.history.records)
        await type_line(pilot, "dice 4d6k3")
        assert isinstance(app.screen, CommandLineScreen)
        assert "'k3' is read differently by dice bots" in screen_text(app)
        assert len(app.session.history.records) == before


async def test_a_chart_in_the_log_only_when_the_line_asks(tmp_path: Path) -> None:
    app = make_app(tmp_path, faces=[3, 4, 5, 2, 6, 1])
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, "roll 3d6")
        assert "🎲 3d6: 3 4 5 = 12 · mean 10.50" in screen_text(app)
        assert "12.5%" not in screen_text(app)  # no chart unless asked
        await type_line(pilot, "roll 3d6 chart")
        text = screen_text(app)
        assert "🎲 3d6: 2 6 1 = 9 · mean 10.50" in text
        assert "9-10 " + "█" * 20 + " 24.1%" in text and "17-18 █▌" in text  # fits 80x24


async def test_bad_dice_keep_the_prompt_open_with_one_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        before = len(app.session.history.records)
        await type_line(pilot, "roll 200d6")
        assert isinstance(app.screen, CommandLineScreen)
        assert "200d6: roll 0 to 100 dice, not 200" in screen_text(app)
        await pilot.press("ctrl+u", *"dice 2d6+", "enter")
        await pilot.pause()
        assert "'2d6+' ends too soon" in screen_text(app)
        assert len(app.session.history.records) == before


async def test_a_roll_whose_odds_take_a_while_is_worked_out_off_the_apps_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46: a line whose odds take more than a moment is tried on the loop for a
    moment only, worked out in a thread (the table goes on meanwhile), then rolled."""
    on_the_loop: list[bool] = []
    real = answer._worked_out

    def spied(text: str, budget: Budget | None = None) -> answer.Odds:
        on_the_loop.append(threading.current_thread() is threading.main_thread())
        return real(text, budget)

    monkeypatch.setattr(answer, "_WORKED", {})
    monkeypatch.setattr(answer, "_worked_out", spied)
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, "roll 1d1000*1d500")
        assert isinstance(app.screen, EncounterScreen)
        rolled = [e for e in app.session.history.effective_events() if isinstance(e, DiceRolled)]
        assert [e.notation for e in rolled] == ["1d1000*1d500"]
        assert "1d1000*1d500" in screen_text(app)
        await type_line(pilot, "roll 1d1000*1d500")  # known now: rolled at once
    assert on_the_loop == [True, False]


@pytest.mark.parametrize(("line", "told"), HOSTILE_DICE)
async def test_hostile_dice_get_one_inert_line_and_change_nothing(
    tmp_path: Path, line: str, told: str
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        before = len(app.session.history.records)
        await type_line(pilot, f"roll {line}")
        assert isinstance(app.screen, CommandLineScreen)
        text = screen_text(app)
        assert told in text and not unsafe(text, "\n")
        assert len(app.session.history.records) == before


@pytest.mark.parametrize("line", CONTROL_DICE)
async def test_control_characters_in_dice_show_nothing_unsafe(tmp_path: Path, line: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, f"roll {line}")
        assert not unsafe(screen_text(app), "\n")
        assert not unsafe_strings(list(app.session.history.records))  # the roll's event too


async def test_export_from_the_line_and_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, "export")
        report = tmp_path / "warren-report.md"
        assert report.read_text().startswith("# ")
        await until(pilot, lambda: "Report written: warren-report.md" in screen_text(app))
        await type_line(pilot, "export json round2")
        data = json.loads((tmp_path / "round2.json").read_text())
        assert data["encounter"] == app.session.state.name and data["gm"] is True
        await type_line(pilot, "export ../elsewhere.md")
        assert isinstance(app.screen, CommandLineScreen)  # the prompt stays, to fix the name
        assert not (tmp_path.parent / "elsewhere.md").exists()
        assert "give a file name, not a path" in screen_text(app)
        await pilot.press("ctrl+u", *"export md warren.fight", "enter")
        await pilot.pause()
        assert "that is a save's name" in screen_text(app)
        await pilot.press("escape")
        (tmp_path / "warren-report.json").unlink(missing_ok=True)
        await from_palette(pilot, "export json")
        written = tmp_path / "warren-report.json"  # written whole (atomically), or not yet
        await until(pilot, written.exists, "the palette's export")
        assert json.loads(written.read_text())
