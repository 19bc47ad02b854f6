"""A real session at 80x24, by keys: ten combatants on screen, a pane zoomed, dialogs and menus
that say they scroll, the time left on conditions, and typos refused with a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Label

from rules.registry import get_system
from tests.app.support import keys_of, until
from tests.app.test_app_command_line import type_line
from tests.app.test_layout import SMALL, crowd, demo_app
from tests.screen import screen_text
from tracker.demos import DEMOS
from tracker.line_commands.names import slug
from tracker.screens.action_menu import ActionMenuScreen
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.help import HelpScreen
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.encounter_header import waiting_text
from tracker.widgets.roll_log import RollLog

FIRST = sorted(DEMOS)[0]  # any demo will do where the system does not matter


async def ten_combatants(pilot) -> None:  # type: ignore[no-untyped-def]
    """The demo's fight grown to ten, added on the command line as a GM would."""
    app = pilot.app
    more = 10 - len(app.session.state.combatants)
    if more > 0:  # a demo may hold ten already (the line refuses a group of none)
        await pilot.press("colon", *keys_of(f"add Extra foes x{more}"), "enter")
    await until(pilot, lambda: len(app.session.state.combatants) == 10, "ten combatants")


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_ten_combatants_are_all_on_screen_with_the_log(tmp_path: Path, demo: str) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await ten_combatants(pilot)
        await pilot.press(*keys_of("o"), *keys_of("last words"), "enter")
        await until(pilot, lambda: "✎ last words" in screen_text(app), "the note in the log")
        text = screen_text(app)
        rows = text.split("┏━ Combatants")[1].split("┗")[0]
        for combatant in app.session.state.combatants:
            assert combatant.name[:8] in rows, f"{combatant.name} is off the screen"
        pane = app.screen.query_one(CombatantsPane)
        assert not pane.show_vertical_scrollbar  # nothing hidden below
        log = app.screen.query_one(RollLog)
        assert log.size.height >= 4  # the log still reads a few lines
        assert "Consequences" in text


async def test_z_gives_the_focused_pane_the_whole_screen_and_back(tmp_path: Path) -> None:
    app = demo_app(FIRST, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await ten_combatants(pilot)
        await pilot.press("z")
        text = screen_text(app)
        assert "Roll log" not in text and "Consequences" not in text
        assert text.splitlines()[0].startswith("┏━ Combatants")  # over the header too
        await pilot.press("z")
        assert "Roll log" in screen_text(app)
        await pilot.press("tab", "z")  # the log, zoomed
        text = screen_text(app)
        assert "Roll log" in text and "Combatants" not in text
        await pilot.press("z")
        assert "Combatants" in screen_text(app)


async def test_the_zoom_key_is_in_the_help_and_the_palette(tmp_path: Path) -> None:
    from tests.app.support import from_palette

    app = demo_app(FIRST, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help")
        await until(pilot, lambda: "▼ more below" in screen_text(app), "the help's sign")
        await pilot.press("end")
        await until(pilot, lambda: "Zoom the pane" in screen_text(app), "z in the help")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
        await from_palette(pilot, "zoom the pane")
        await until(pilot, lambda: "Roll log" not in screen_text(app), "the pane zoomed")


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_the_header_keeps_the_encounters_name(tmp_path: Path, demo: str) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await crowd(pilot, demo)  # what waits, the solo sides: a header of two lines or more
        header = "\n".join(screen_text(app).splitlines()[:2])
        assert app.session.state.name in header


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_a_menu_that_scrolls_says_so(tmp_path: Path, demo: str) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, ActionMenuScreen), "the menu")
        menu = app.screen.query_one("#menu")
        await until(pilot, lambda: menu.size.height > 0, "the menu laid out")
        if not menu.max_scroll_y:
            assert "more below" not in screen_text(app)
            return
        await until(pilot, lambda: "▼ more below" in screen_text(app), "the sign")
        await pilot.press("end")
        await until(pilot, lambda: "▲ more above" in screen_text(app), "the sign, at its end")


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_a_long_form_says_it_scrolls_and_cuts_no_label(tmp_path: Path, demo: str) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("r")
        if not isinstance(app.screen, FormScreen):  # a result waits: discard it first
            await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        form = app.screen
        fields = form.query_one("#fields")
        await until(pilot, lambda: form.query_one("#buttons").size.height, "the dialog laid out")
        text = screen_text(app)
        assert "Cancel" in text  # the buttons on screen
        if fields.max_scroll_y:
            await until(pilot, lambda: "more below" in screen_text(app), "the sign")
        for label in fields.query(Label):
            if fields.region.contains_region(label.region):
                assert str(label.render()).strip() in text.replace("\n", " ")


async def test_a_conditions_time_left_counts_down_in_the_pane(tmp_path: Path) -> None:
    app = demo_app(FIRST, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        first = app.session.state.combatants[0]
        await type_line(pilot, f'cond {first.id} "On fire" 3')
        await until(pilot, lambda: "On fire 3r" in screen_text(app), "3 rounds left")
        start = app.session.state.round
        while app.session.state.round == start:
            await type_line(pilot, "next")
            if not isinstance(app.screen, EncounterScreen | CommandLineScreen):
                await pilot.press("enter")  # a question on the way: its default
        await until(pilot, lambda: "On fire 2r" in screen_text(app), "2 rounds left")
        await type_line(pilot, f"cond {first.id} Blessed next-turn")
        await until(pilot, lambda: "Blessed 1t" in screen_text(app), "until its next turn")


def names_people(demo: str) -> bool:
    """The demo's roll names who rolls against whom (Beer Run's round names nobody)."""
    state = DEMOS[demo]().state
    fields = get_system(state.system).action_form(state, "roll", None)
    return any(state.find(value) for f in fields for value, _label in f.choices)


@pytest.mark.parametrize("demo", [demo for demo in sorted(DEMOS) if names_people(demo)])
async def test_a_typo_in_a_name_is_not_read_as_another_field(tmp_path: Path, demo: str) -> None:
    app = demo_app(demo, tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        first, last = app.session.state.combatants[0], app.session.state.combatants[-1]
        before = len(app.session.history.records)
        typo = slug(first.name) + "a"  # the name as typed without quotes ("Bog Goblin": bog-goblin)
        await type_line(pilot, f"roll {typo} {last.id}")
        wanted = f"no combatant '{typo}': did you mean '{first.name}'?"
        await until(pilot, lambda: wanted in screen_text(app), "the suggestion")
        assert isinstance(app.screen, CommandLineScreen)
        assert len(app.session.history.records) == before


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_what_waits_too_long_for_a_line_costs_the_header_nothing(
    tmp_path: Path, demo: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What waits wraps onto a line of its own; the encounter's name and the system's title,
    which could not save that line by giving way, stay on the first."""
    app = demo_app(demo, tmp_path)
    system = get_system(app.session.state.system)
    waiting = "a result " + "with many words to it " * 4 + "to apply"
    monkeypatch.setattr(system, "pending", lambda state: waiting)
    async with app.run_test(size=SMALL) as pilot:
        state = app.session.state

        def header() -> str:
            rows = screen_text(app).split("┏━ Combatants")[0].splitlines()
            return " ".join(row.strip() for row in rows)

        await until(pilot, lambda: waiting_text(waiting) in header(), "what waits, whole")
        first = screen_text(app).splitlines()[0]
        assert f"⚔ {state.name}  ·  {system.title}  ·  Round {state.round}" in first
