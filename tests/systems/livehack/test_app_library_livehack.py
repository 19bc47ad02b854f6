"""The library in the app at 80x24: `a` offers it, `:add NAME xK`, keeping a combatant (`k`,
`:keep`), and a new encounter with this party (`N`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from rules.dice import SeededDice
from rules.history import History
from rules.systems.livehack.demo import build as livehack_demo
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.library_screen import LibraryScreen
from tracker.session import EncounterSession
from tracker.store import library

SIZE = (80, 24)


def make_app(tmp_path: Path, history: History | None = None) -> TrackerApp:
    history = history or livehack_demo()
    session = EncounterSession(history, SeededDice(2), tmp_path / "warren.fight")
    return TrackerApp(session, saves=tmp_path, library=tmp_path / "lib")


def names(app: TrackerApp) -> list[str]:
    assert app.session is not None
    return [c.name for c in app.session.state.combatants]


async def type_line(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("colon")
    await pilot.pause()
    pilot.app.screen.query_one("#command-input", Input).insert_text_at_cursor(line)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.pause()  # a screen action runs once the prompt has gone


async def test_a_offers_the_library_and_three_goblins_come_in_numbered(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, LibraryScreen)
        text = screen_text(app)
        assert "Add a combatant: 5 LiveHack stat blocks" in text
        assert "New combatant" in text and "Goblin Sneak" in text
        await pilot.press(*"goblin x3")
        await pilot.pause()
        text = screen_text(app)
        assert "3 of 5" in text and "Enter adds 3 x Goblin" in text
        # Orla is filtered out of the list (the difficulty line under it may name her).
        options = app.screen.query_one("#stat-blocks", OptionList)
        listed = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert not any("Orla" in line for line in listed)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert names(app)[-3:] == ["Goblin 1", "Goblin 2", "Goblin 3"]
        assert "Goblin 3 joins the foes" in screen_text(app)
        await pilot.press("u")  # the group is one step
        await pilot.pause()
        assert "Goblin 1" not in names(app) and "Goblin" not in names(app)


async def test_a_then_down_picks_another_and_the_blank_form_is_still_there(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", *"sneak", "enter")
        await pilot.pause()
        assert names(app)[-1] == "Goblin Sneak 2" and "Goblin Sneak 1" in names(app)
        await pilot.press("a", *"Zed")
        await pilot.pause()
        assert "New combatant: zed" in screen_text(app)
        await pilot.press("enter")  # nothing matches: the blank sheet, its name filled in
        await pilot.pause()
        assert isinstance(app.screen, FormScreen)
        assert "Zed" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert names(app)[-1] == "Zed"


async def test_add_a_group_on_the_command_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "add goblin x3")
        assert names(app)[-3:] == ["Goblin 1", "Goblin 2", "Goblin 3"]
        await type_line(pilot, "add goblin-boss party x2")
        assert names(app)[-2:] == ["Goblin Boss 2", "Goblin Boss 3"]
        assert app.session is not None
        assert app.session.state.combatants[-1].side == "party"
        await type_line(pilot, "add Mook x2 blank")  # not in the library: blank sheets, asked for
        assert names(app)[-2:] == ["Mook 1", "Mook 2"]
        await type_line(pilot, "add goblin x500")
        assert "a group is 1 to 100 combatants" in screen_text(app)


async def test_keep_by_key_and_by_command(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await type_line(pilot, "keep goblin-boss")
        kept = tmp_path / "lib" / "livehack" / "goblin-boss.toml"
        assert "Kept Goblin Boss" in screen_text(app)
        entry = library.read(kept)
        assert dict(entry.fields).get("wounds") is None  # kept as a fight starts: no Wounds
        await pilot.press("down", "k")  # Brak
        await pilot.pause()
        assert (tmp_path / "lib" / "livehack" / "brak.toml").exists()
        await pilot.press("k")
        await pilot.pause()
        assert "Replaced Brak" in screen_text(app)


@pytest.mark.slow
async def test_a_new_encounter_with_this_party(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("N")
        await pilot.pause()
        assert "New encounter with this party" in screen_text(app)
        await pilot.press(*"Bandit Ambush", "tab", "right", "tab", *"goblin x2, goblin-sneak")
        await pilot.press("enter")
        await pilot.pause()
        assert app.session is not None
        state = app.session.state
        assert state.name == "Bandit Ambush" and state.round == 1
        assert names(app) == ["Orla", "Brak", "Goblin 1", "Goblin 2", "Goblin Sneak"]
        assert state.combatants[0].sheet.fatigue == 0  # fresh: as the library has her
        assert (tmp_path / "bandit-ambush.fight").exists()
        assert "Bandit Ambush" in screen_text(app)


async def test_the_palette_and_the_line_offer_the_new_encounter(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "new-encounter-with-this-party")
        assert isinstance(app.screen, FormScreen)
        await pilot.press(*"Next", "tab", "tab", *"zork", "enter")
        await pilot.pause()
        assert "no LiveHack stat block 'zork'" in screen_text(app)  # the dialog stays open
        assert isinstance(app.screen, FormScreen)


async def test_a_deeply_nested_file_in_the_library_is_skipped_with_a_notice(
    tmp_path: Path,
) -> None:
    deep = tmp_path / "lib" / "livehack" / "deep.toml"
    deep.parent.mkdir(parents=True)
    deep.write_text("x = " + "[" * 20_000 + "]" * 20_000 + "\n")
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, LibraryScreen)
        assert "Goblin Sneak" in screen_text(app)
        notices = [n.message for n in app._notifications]  # private, tests only
        assert any("deep.toml: nested too deeply" in n for n in notices), notices
