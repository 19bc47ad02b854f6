"""The local app draws text inert: a fight holding raw control characters (a hand-made save)
shows none of them, in any pane, the header, a dialog or the replay; a paste is inert too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input

from rules.dice import SeededDice
from rules.history import History
from tests.app.support import make_app, until
from tests.hostile_text import CONTROLS, SEQUENCES, SPOOFING, hostile_text, raw_fight, unsafe
from tests.screen import screen_text
from tests.threaded import InThread
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.replay_screen import ReplayScreen
from tracker.session import EncounterSession


async def until_shown(pilot: Pilot[None], kind: type[Screen[object]]) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, kind), f"no {kind.__name__} shown")


async def screens_of(pilot: Pilot[None], session: EncounterSession, all: bool = True) -> list[str]:
    """The encounter, the edit dialog of the combatant holding the text (the first, selected),
    and the replay at its last event: each as the terminal shows it."""
    app = pilot.app
    await app.push_screen(EncounterScreen(session))
    await pilot.pause()
    shown = [screen_text(app)]
    if not all:
        app.pop_screen()
        return shown
    await pilot.press("e")
    await until_shown(pilot, FormScreen)
    shown.append(screen_text(app))
    await pilot.press("escape")
    await pilot.press("R")
    await until_shown(pilot, ReplayScreen)
    await pilot.press("end")
    await pilot.pause()
    shown.append(screen_text(app))
    await pilot.press("escape")
    await until_shown(pilot, EncounterScreen)
    app.pop_screen()
    return shown


async def test_every_control_character_in_a_fight_is_drawn_inert(tmp_path: Path) -> None:
    text = CONTROLS + SPOOFING
    history = raw_fight("".join(SEQUENCES[:3]), text, text)
    app = make_app(tmp_path, history=raw_fight("", "", ""))
    async with app.run_test(size=(80, 24)) as pilot:
        shown = await screens_of(pilot, EncounterSession(history, SeededDice(1)))
    for screen in shown:
        assert unsafe(screen, allowed="\n") == []
    # What is left of each sequence is plain text on the screen: it did nothing.
    assert "Orla ]0;PWNED(0c" in shown[0]
    assert "Edit Orla ]0;PWNED(0c" in shown[1] and "(replay)" in shown[2]


@pytest.fixture(scope="module")
def one_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InThread[Pilot[None]]]:
    app = make_app(tmp_path_factory.mktemp("inert"), history=raw_fight("", "", ""))
    with InThread(lambda: app.run_test(size=(80, 24))) as running:
        yield running


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(hostile_text, min_size=3, max_size=3))
def test_hostile_names_notes_and_conditions_are_drawn_inert(
    one_app: InThread[Pilot[None]], texts: list[str]
) -> None:
    name, note, condition = texts
    session = EncounterSession(raw_fight(name, note, condition), SeededDice(1))
    # The dialog and the replay draw the same text as the encounter: the test above has them.
    for screen in one_app.run(lambda pilot: screens_of(pilot, session, all=False)):
        assert unsafe(screen, allowed="\n") == []


async def test_a_paste_is_inert_in_the_input_it_lands_in(tmp_path: Path) -> None:
    app = make_app(tmp_path, history=raw_fight("", "", ""))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        # As a terminal's bracketed paste arrives: to the app, which hands it to the focus.
        app.post_message(events.Paste("Vex\x1b]0;PWNED\x07moor\u202e" + " " * 32 + "\x1bc"))
        await pilot.pause()
        typed = app.screen.query_one(Input)
        assert typed.value == "Vex]0;PWNEDmoor" + " " * 32 + "c"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.session is not None
        assert app.session.state.combatants[-1].name == "Vex]0;PWNEDmoor c"


def test_the_history_is_raw_for_these_tests() -> None:
    # The rules would clean it: these tests would then show nothing of the app's own filter.
    history: History = raw_fight("\x1b", "\x07", "\x9b")
    assert history.state.combatants[0].name == "Orla \x1b"
