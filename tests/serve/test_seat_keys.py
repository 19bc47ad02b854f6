"""A served table's seats by keys at 80x24: the GM's library, a player's keys that are the GM's
said so, the GM's approvals kept out of a player's dialogs, a player's `:` line."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from textual.widgets import Input

from rules.dice import SeededDice
from rules.errors import Rejected
from rules.events import NoteAdded
from rules.permissions import refusal
from rules.visibility import GM, Viewer
from tests.app.support import burst_handled, keys_of, until
from tests.screen import screen_text
from tests.serve.serve_helpers import table as table_at
from tracker.demos import DEMOS
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.library_screen import LibraryScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table
from tracker.session import EncounterSession

SMALL = (80, 24)


async def test_the_gms_seat_adds_from_the_library(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path, library=tmp_path / "lib")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        assert "Add a combatant:" in screen_text(app) and "stat blocks" in screen_text(app)
        await pilot.press(*keys_of("goblin x2"), "enter")
        await until(pilot, lambda: len(table.session.state.combatants) == 6, "two goblins")


async def test_a_players_seat_says_adding_is_the_gms(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path, library=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("a")
        await burst_handled(pilot)
        await until(pilot, lambda: "Only the GM can use a (Add)" in screen_text(app))
        assert not isinstance(app.screen, FormScreen | LibraryScreen)
        assert len(table.session.state.combatants) == 4
        # The `:` line refuses the GM's lines as the keys do, each with one line.
        for line, said in (
            (":add goblin", "Only the GM can do that"),
            (":undo", "Only the GM can undo"),
            (":export", "Only the GM can do that"),
        ):
            await pilot.press(*keys_of(line), "enter")
            await until(pilot, lambda said=said: said in screen_text(app), line)
            await pilot.press("escape")
            await burst_handled(pilot)
        assert len(table.session.state.combatants) == 4


def gm_choices(session: EncounterSession) -> list[tuple[str, str]]:
    """The GM's approvals the roll dialog offers the GM: (field, choice)."""
    fields = session.system.action_form(session.state, "roll", None)
    return [(f.key, v) for f in fields for v, _ in f.choices if session.system.gm_choice(f.key, v)]


@pytest.mark.parametrize("demo", sorted(DEMOS))
async def test_the_gms_approvals_are_not_a_players_to_pick(tmp_path: Path, demo: str) -> None:
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    with contextlib.suppress(Rejected):  # the GM applies what the demo left waiting
        session.execute(session.system.consequence_command(session.state))
    approvals = gm_choices(session)
    if not approvals:
        pytest.skip("its dialogs hold no approval of the GM's")
    table = Table(session)
    everyone = frozenset(c.id for c in session.state.combatants if not c.gm_only)
    table.assign("Alice", everyone)
    alice = Viewer(role="player", name="Alice", assigned=everyone)
    # The permission hook: a command carrying an approval is refused to the player alone.
    system, state = session.system, session.state
    fields = {f.key: f.default for f in system.action_form(state, "roll", None)}
    commands = []
    for key, value in approvals:
        with contextlib.suppress(Rejected):
            commands.append(system.action_command(state, "roll", fields | {key: value}))
    assert commands
    for command in commands:
        assert (refusal(state, alice, command) or "").startswith("Only the GM allows")
        assert refusal(state, GM, command) is None
    # The dialogs by keys: the GM's offers the approvals, a player's does not.
    for role, name in (("gm", "GM"), ("player", "Alice")):
        app = TableApp(table, table.join(role, name), saves=tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await pilot.press("r")
            await until(pilot, lambda app=app: isinstance(app.screen, FormScreen), "the dialog")
            form = app.screen
            assert isinstance(form, FormScreen)
            offered = {(f.key, v) for f in form.fields for v, _ in f.choices}
            if role == "gm":
                assert set(approvals) <= offered
            else:
                assert not set(approvals) & offered


async def test_enter_in_the_seats_dialog_assigns_as_its_hint_says(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    table.join("player", "Alice")  # the first row
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: "a / Enter: assign combatants" in screen_text(app))
        await pilot.press("enter")
        await until(pilot, lambda: "Alice acts for" in screen_text(app), "the assign dialog")


async def test_a_players_prompt_shows_only_lines_a_player_may_give(tmp_path: Path) -> None:
    """The empty `:` prompt's example, at a player's seat: each line of it is the player's to
    give (it showed `undo 3`, which said "Only the GM can undo")."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("colon")
        await until(pilot, lambda: " · " in screen_text(app), "the example")
        example = app.screen.query_one("#command-input", Input).placeholder
        lines = example.split(" · ")
        assert "next" in lines and "undo 3" not in lines  # Orla's turn, Alice's; undo: GM's
        await pilot.press("escape")
        for line in lines:
            await until(pilot, lambda: not isinstance(app.screen, CommandLineScreen), "closed")
            records = len(table.session.history.records)
            await pilot.press(*keys_of(f":{line}"), "enter")
            await until(
                pilot,
                lambda records=records: (  # type: ignore[misc]
                    len(table.session.history.records) != records
                    or not isinstance(app.screen, CommandLineScreen)
                    or "✗" in screen_text(app)
                ),
                f"{line!r} done or refused",
            )
            assert "✗" not in screen_text(app), f"{line}:\n{screen_text(app)}"
            while not isinstance(app.screen, EncounterScreen):
                await pilot.press("escape")
                await pilot.pause()
        # `next` at a player's seat ends their own turn, as n does (it was the GM's NextTurn,
        # refused "Only the GM can do that" even on their own turn).
        state = table.session.state
        assert state.current is not None and state.current.name != "Orla"


async def test_a_players_note_is_about_their_own_combatant_at_first(tmp_path: Path) -> None:
    """`o`, words, Enter at a player's seat: a note about their combatant. It started "about
    the encounter", which a player may not note, and was refused with words about rolls."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the note dialog")
        await pilot.press(*"I hide behind the barrel", "enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the note added")
        [note] = [e for e in table.session.history.effective_events() if isinstance(e, NoteAdded)]
        assert note.text == "I hide behind the barrel"
        assert table.session.state.name_of(note.combatant_id) == "Orla"  # Alice's
        assert "I hide behind the barrel" in screen_text(app)


async def test_a_players_note_line_is_about_their_own_combatant(tmp_path: Path) -> None:
    """`:note words` at a player's seat, as their `o`: about their combatant (it was about
    the encounter, and refused with words about the last roll)."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press(*keys_of(":note I reload"), "enter")
        await until(pilot, lambda: "I reload" in screen_text(app), "the note in the log")
        [note] = [e for e in table.session.history.effective_events() if isinstance(e, NoteAdded)]
        assert table.session.state.name_of(note.combatant_id) == "Orla"


async def test_a_player_with_no_combatant_yet_is_shown_no_roll_of_anyone(tmp_path: Path) -> None:
    """Before the GM assigns them anyone, a player's prompt offered `attack orla goblin`,
    refused with "You do not act for Orla"."""
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("player", "Bob"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("colon")
        await until(pilot, lambda: isinstance(app.screen, CommandLineScreen), "the prompt")
        assert app.screen.query_one("#command-input", Input).placeholder == "dice 2d6 · help"
