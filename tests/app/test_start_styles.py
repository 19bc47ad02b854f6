"""A start styles the encounter with tracker.tcss alone; the dialogs' styles (dialogs.tcss)
come after its first frame, or with the first dialog, whichever is first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen

from rules.dice import SeededDice
from rules.registry import part
from tests.picks import every_system, has_demo
from tests.screen import screen_text
from tracker.app import DIALOGS_CSS, TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.notice import NoticeScreen
from tracker.session import EncounterSession


def dialog_selectors(app: TrackerApp) -> list[str]:
    sheet = Stylesheet(variables=app.get_css_variables())
    sheet.read(DIALOGS_CSS)
    return [rule.selectors for rule in sheet.rules]


def demo_app(tmp_path: Path, system: str) -> TrackerApp:
    demo = part(system, "demo")
    assert demo is not None
    session = EncounterSession(demo.build(), SeededDice(1), tmp_path / "demo.fight")
    return TrackerApp(session, saves=tmp_path)


@pytest.mark.parametrize("system", every_system(has_demo))
async def test_no_dialog_style_is_for_the_encounter_screen(tmp_path: Path, system: str) -> None:
    # Read after the encounter is drawn, they restyle nothing on it: none may match it.
    app = demo_app(tmp_path, system)
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify("a note on the encounter")
        await pilot.pause()
        assert isinstance(app.screen, EncounterScreen)
        assert app.stylesheet.has_source(str(DIALOGS_CSS))  # read once it was drawn
        selectors = dialog_selectors(app)
        assert selectors
        for selector in selectors:
            assert not app.screen.query(selector), selector


async def test_a_dialog_open_as_the_app_starts_has_the_dialogs_styles(tmp_path: Path) -> None:
    # A damaged save's notice opens with the encounter, before its first frame: it looks as
    # the same notice opened later does.
    system = every_system(has_demo)[0]
    first = demo_app(tmp_path / "first", system)
    first.warnings.append("demo.fight: its last record was cut short")
    async with first.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(first.screen, NoticeScreen)
        at_start = first.screen.query_one("#dialog").region

    later = demo_app(tmp_path / "later", system)
    async with later.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        later.warn("demo.fight: its last record was cut short")
        await pilot.pause()
        assert isinstance(later.screen, NoticeScreen)
        assert later.screen.query_one("#dialog").region == at_start
    assert at_start.width == 70  # dialogs.tcss's #dialog, centred on the 80 columns
    assert at_start.x == 5


async def help_region(app: TrackerApp) -> object:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        read_at_start = app.stylesheet.has_source(str(DIALOGS_CSS))
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        return read_at_start, app.screen.query_one("#dialog").region


async def test_a_dialog_opened_before_the_styles_are_read_brings_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A key typed as the app starts can open a dialog before the first frame's reading.
    system = every_system(has_demo)[0]
    read, usual = await help_region(demo_app(tmp_path / "usual", system))
    assert read
    monkeypatch.setattr(TrackerApp, "on_encounter_screen_shown", lambda self: None)
    read, early = await help_region(demo_app(tmp_path / "early", system))
    assert not read
    assert early == usual


def looks(screen: Screen[object]) -> list[tuple[str, str, str]]:
    """Each widget of ``screen``, by its place: its styles and the style it is drawn in."""
    return [(repr(w), w.styles.css, str(w.rich_style)) for w in screen.walk_children()]


async def test_the_encounter_is_not_restyled_whole_as_it_first_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its widgets were styled as they were mounted, a moment before (textual_internals,
    # "kept-styles"): Textual's own first show styles every one of them again.
    styled: list[object] = []
    apply = Stylesheet.apply

    def counting(stylesheet: Stylesheet, node: object, *args: Any, **kwargs: Any) -> None:
        styled.append(node)
        apply(stylesheet, node, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stylesheet, "apply", counting)
    app = demo_app(tmp_path, every_system(has_demo)[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EncounterScreen)
        widgets = [screen, *screen.walk_children()]
        again = [w for w in widgets if styled.count(w) > 1]
        assert len(again) < len(widgets) // 3, again
        shown, text = looks(screen), screen_text(app)
        app.update_styles(screen)  # restyled whole, as Textual's own first show does
        await pilot.pause()
        assert looks(screen) == shown
        assert screen_text(app) == text
