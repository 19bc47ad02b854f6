"""The small things a session trusts, by keys at 80x24: `a` does not offer a hero twice, a
broken library file is told once (and read after the first frame, never parsed again unchanged),
and another encounter opens without the last one's notices."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from rich.text import Text
from textual.content import Content
from textual.widgets import Input, Label, OptionList

from rules.dice import SeededDice
from rules.difficulty import FOE_SIDES
from rules.registry import get_system
from tests.app.support import keys_of, until
from tests.picks import every_demo, has_bundled_foes
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.screens.library_screen import LibraryScreen
from tracker.session import EncounterSession
from tracker.store import library, storage
from tracker.store.storage import slug

SIZE = (80, 24)


def library_app(tmp_path: Path, demo: str) -> TrackerApp:
    session = EncounterSession(DEMOS[demo](), SeededDice(2), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path, library=tmp_path / "lib")


@pytest.mark.parametrize("demo", sorted(every_demo(has_bundled_foes)))
async def test_a_does_not_offer_first_one_already_in_the_fight(tmp_path: Path, demo: str) -> None:
    app = library_app(tmp_path, demo)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.state
        present = {(c.name, c.side) for c in state.combatants}
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        screen = app.screen
        entries = screen.entries
        picked = screen._picked()
        assert picked is not None
        if any((e.name, e.side) not in present for e in entries):
            assert (picked.name, picked.side) not in present, picked.name
        assert f"Enter adds 1 x {picked.name}" in screen_text(app)


@pytest.mark.parametrize("demo", sorted(every_demo(has_bundled_foes)))
async def test_the_filters_example_is_one_this_library_answers(tmp_path: Path, demo: str) -> None:
    """Each word of the filter's example, typed, finds a stat block: a system without
    challenge ratings or creature types is not offered `cr:` or `type:` (it was, from d20)."""
    app = library_app(tmp_path, demo)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        screen = app.screen
        assert isinstance(screen, LibraryScreen)
        example = screen.query_one("#filter", Input).placeholder
        assert example in screen_text(app)
        words = example.removeprefix("filter: ").split(", ")
        foes = [e for e in screen.entries if e.side.casefold() in FOE_SIDES]
        named = words[0].removesuffix(" x3")
        assert any(e.name.casefold().startswith(named) for e in foes), words  # not a hero
        rated = any(e.system_rating is not None for e in map(Rated, screen.entries))
        assert any(w.startswith("cr:") for w in words) == rated
        title = screen.query_one("#library-title", Label)
        for word in words:
            await pilot.press(*word)
            await until(pilot, lambda: " of " in str(title.content), f"{word} applied")
            assert not screen.problem
            shown = screen.query_one("#stat-blocks", OptionList)
            assert shown.option_count > 1, word  # a new combatant, and what was found
            await pilot.press(*["backspace"] * len(word))
            await until(pilot, lambda: " of " not in str(title.content), f"{word} taken back")


@pytest.mark.parametrize("demo", sorted(every_demo(has_bundled_foes)))
async def test_a_new_encounters_foes_example_is_this_librarys(tmp_path: Path, demo: str) -> None:
    """`N`'s foes field shows foes of the fight's own library, typed as it shows them (it
    showed `goblin x3, goblin-boss` in every system, where two have no goblins)."""
    app = library_app(tmp_path, demo)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("N")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the form")
        foes = app.screen.query_one("#field-foes", Input)
        example = foes.placeholder
        system = app.session.state.system
        of_system = library.load(tmp_path / "lib").of(system)
        names = {slug(e.name) for e in of_system if e.side.casefold() in FOE_SIDES}
        assert {part.split()[0] for part in example.split(", ")} <= names, example
        await pilot.press(*"Next fight")
        foes.focus()
        await pilot.press(*example, "enter")
        await until(pilot, lambda: app.session.state.name == "Next fight", "the new fight")
        assert len(app.session.state.combatants) > 3  # the party, and the foes it named


class Rated:
    """A stat block with its system's challenge rating (None: its system has none)."""

    def __init__(self, entry: library.Entry) -> None:
        self.system_rating = get_system(entry.system).challenge_rating(entry.sheet())


async def test_a_broken_library_file_is_told_once(tmp_path: Path) -> None:
    demo = sorted(DEMOS)[0]
    app = library_app(tmp_path, demo)
    folder = tmp_path / "lib" / DEMOS[demo]().state.system
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text("name = \n", encoding="utf-8")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        await until(pilot, lambda: "Skipped" in screen_text(app), "the file told")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
        app.clear_notifications()
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library again")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight again")
        assert "Skipped" not in screen_text(app)


async def test_another_encounter_opens_without_the_last_ones_notices(tmp_path: Path) -> None:
    first, other = sorted(DEMOS)[:2]
    storage.write(tmp_path / "other.fight", DEMOS[other]())
    session = EncounterSession(DEMOS[first](), SeededDice(2), tmp_path / "first.fight")
    app = TrackerApp(session, saves=tmp_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.pause()
        app.notify("said over the first fight", timeout=60)
        await until(pilot, lambda: "said over the first fight" in screen_text(app), "a notice")
        await pilot.press("ctrl+o")
        await pilot.press(*keys_of("other"), "enter")
        await until(pilot, lambda: app.session.path.name == "other.fight", "the other fight")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "its screen")
        assert "said over the first fight" not in screen_text(app)


async def test_the_library_is_read_after_the_first_frame_and_a_parses_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = sorted(DEMOS)[0]
    system = DEMOS[demo]().state.system
    kept = library.from_combatant(system, DEMOS[demo]().state.combatants[0])
    path = library.write(tmp_path / "lib", replace(kept, name="Warmed"))
    app = library_app(tmp_path, demo)
    async with app.run_test(size=SIZE) as pilot:
        # Read in a thread of its own once the fight is drawn: wait until it is all kept.
        await until(pilot, lambda: (path, False) in library._READ, "the library read")
        await until(pilot, lambda: not library._LOADING.locked(), "the reading done")
        parsed: list[str] = []
        real = library.parse
        monkeypatch.setattr(library, "parse", lambda t, s="": parsed.append(s) or real(t, s))
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        assert "Warmed" in screen_text(app) and parsed == []


async def test_the_library_dialog_makes_only_the_options_in_sight_into_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The demo of the system with most bundled stat blocks (hundreds): opening `a` once made
    # each of them Textual Content to measure its height, ~185 ms of CPU
    # (docs/contributing/performance.md).
    bundled = library.load(None)
    demo = max(sorted(DEMOS), key=lambda d: len(bundled.of(DEMOS[d]().state.system)))
    total = len(bundled.of(DEMOS[demo]().state.system))
    made: list[str] = []
    real = Content.from_rich_text.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Content], text: str | Text, console: object = None) -> Content:
        made.append(str(text))
        return real(cls, text, console)  # type: ignore[no-any-return]

    lines: list[int] = []
    line = LibraryScreen._line

    def counted_line(screen: LibraryScreen, index: int, width: int) -> Text:
        lines.append(index)
        return line(screen, index, width)

    app = library_app(tmp_path, demo)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: not library._LOADING.locked(), "the reading done")
        monkeypatch.setattr(Content, "from_rich_text", classmethod(counted))
        monkeypatch.setattr(LibraryScreen, "_line", counted_line)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, LibraryScreen), "the library")
        options = app.screen.query_one("#stat-blocks", OptionList)
        await until(pilot, lambda: options.option_count == total + 1, "every stat block listed")
        await pilot.pause()
        shown = screen_text(app)
        assert total > 100 and str(options.get_option_at_index(1).prompt).split()[0] in shown
        # The lines in sight (fewer than the screen's 24), and the dialog's own labels.
        assert len(made) < 40, len(made)
        assert len(lines) < 24, len(lines)  # an entry's line is made only when it is shown
