"""The help screen opened again and again, and the key bar beneath it: what they show, and
that opening and closing the help builds nothing new while the keys stay the same."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen

from tests.app.support import add_combatant, make_app, until
from tests.screen import screen_text
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.help import HelpScreen
from tracker.screens.replay_screen import ReplayScreen
from tracker.widgets.key_bar import KeyBar


def help_open(app: App[object]) -> bool:
    return isinstance(app.screen, HelpScreen) and "Esc or ? closes" in screen_text(app)


async def test_the_help_opened_again_is_the_same_and_lists_the_keys_beneath(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await add_combatant(pilot, "Ann")
        await pilot.press("question_mark")
        await until(pilot, lambda: help_open(app), "the help")
        first, shown = app.screen, screen_text(app)
        assert "Next turn" in shown and "saved after" in shown
        scroll = first.query_one("#help-keys", VerticalScroll)
        assert scroll.max_scroll_y > 0  # more keys than rows at 80x24
        scroll.scroll_end(animate=False)
        await until(pilot, lambda: scroll.scroll_y > 0, "scrolled down")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
        bar = app.screen.query_one(KeyBar)
        entries = list(bar.children)
        await pilot.press("question_mark")
        await until(pilot, lambda: help_open(app), "the help again")
        assert app.screen is first and scroll.scroll_y == 0  # kept, and from the top again
        assert screen_text(app) == shown
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
        assert list(bar.children) == entries  # the same key bar: not built again
        assert "Help" in screen_text(app).splitlines()[-1]
        # Another screen's keys: the replay's help is its own, and the fight's comes back.
        await pilot.press("R")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
        await pilot.press("question_mark")
        await until(pilot, lambda: help_open(app) and app.screen is not first, "its help")
        assert "Replay is read-only" in screen_text(app) and "saved after" not in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay again")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the fight")
        await pilot.press("question_mark")
        await until(pilot, lambda: help_open(app), "the fight's help")
        assert screen_text(app) == shown


class Toggled(Screen[None]):
    BINDINGS = [Binding("x", "shout", "Shout")]
    offered = True

    def compose(self) -> ComposeResult:
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.offered or action != "shout"


class KeyBarApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Toggled())


async def test_the_key_bar_shows_a_key_once_it_is_offered_and_not_after() -> None:
    app = KeyBarApp()
    async with app.run_test(size=(60, 6)) as pilot:
        screen = app.screen
        assert isinstance(screen, Toggled)
        await until(pilot, lambda: "Shout" in screen_text(app), "the key")
        for offered in (False, True, False):
            screen.offered = offered
            screen.refresh_bindings()
            await until(pilot, lambda o=offered: ("Shout" in screen_text(app)) == o, "the change")
