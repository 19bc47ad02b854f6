"""A big encounter in the app: the virtual roll log and the table updated by difference.

The fight is smaller than the benchmark's (bench/app.py: 200 combatants, 20,000 entries) so
the suite stays fast, but big enough that the log is many screens long.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.color import Color
from textual.geometry import Region

from bench.big import SYSTEMS, big_fight, log_length
from rules import registry
from rules.dice import SeededDice
from rules.engine import describe
from rules.history import History
from rules.registry import get_system
from tests.app.support import until
from tests.picks import a_system, has_demo, has_turn_order
from tests.screen import screen_text
from tracker.app import TrackerApp
from tracker.screens.waiting import WaitingScreen
from tracker.session import EncounterSession
from tracker.terminal import textual_internals
from tracker.terminal.render import THEME_COLOUR
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.roll_log import RollLog

COMBATANTS = 200
ENTRIES = 1_200


@pytest.fixture(scope="module")
def fight() -> History:
    return big_fight(a_system(has_demo, has_turn_order), COMBATANTS, ENTRIES)


def app_on(history: History, tmp_path: Path) -> TrackerApp:
    session = EncounterSession(history, SeededDice(5), tmp_path / "big.fight")
    return TrackerApp(session, saves=tmp_path)


async def next_turn(pilot: Any, app: TrackerApp) -> None:
    """n, and x to each question about a result the fight left waiting (set aside: it changes
    no row)."""
    await pilot.press("n")
    await pilot.pause()
    while isinstance(app.screen, WaitingScreen):
        await pilot.press("x")
        await pilot.pause()


def logged(history: History) -> list[str]:
    return [describe(before, event).plain for event, before in history.in_effect()]


def test_big_fights_in_every_system() -> None:
    for system in SYSTEMS:
        history = big_fight(system, 30, 300)
        assert history.state.system == system
        assert len(history.state.combatants) == 30
        assert 300 <= log_length(history) < 320
        assert big_fight(system, 30, 300).state == history.state  # seeded: the same fight


async def test_the_log_of_a_big_fight_scrolls_undoes_and_rewraps(
    fight: History, tmp_path: Path
) -> None:
    app = app_on(History.from_records(fight.records), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        assert log.entries == logged(app.session.history)
        last = log.entries[-1].splitlines()[-1][:24]  # short enough not to wrap
        assert log.max_scroll_y > 1000
        assert log.is_vertical_scroll_end and last in screen_text(app)  # it follows the end

        await pilot.press("tab")  # to the log
        await pilot.press("home")  # a long scroll: drawn once the log has reached its top
        begins = f"Encounter {fight.state.name} begins"
        await until(pilot, lambda: begins in screen_text(app), "the log's first entry")
        await pilot.press("end")
        await until(pilot, lambda: last in screen_text(app), "the log's last entry")

        # Next turn (what the fight left waiting is set aside): one more entry, at the bottom.
        await pilot.press("shift+tab")
        await next_turn(pilot, app)
        turn = f"▶ {app.session.state.current.name}'s turn"
        assert log.entries[-1] == turn
        assert turn in screen_text(app).split("Roll log")[1]

        await pilot.press("u")  # undo drops it from the end of the log...
        await pilot.pause()
        assert log.entries == logged(app.session.history)
        assert turn not in screen_text(app).split("Roll log")[1]
        await pilot.press("ctrl+r")  # ...and redo puts it back
        await pilot.pause()
        assert log.entries[-1] == turn
        assert log.entries == logged(app.session.history)

        # Narrower: entries wrap to more lines, and the newest is still in view.
        lines = log.virtual_size.height
        await pilot.resize_terminal(60, 30)
        await pilot.pause()
        await pilot.pause()
        assert log.virtual_size.height > lines
        assert turn in screen_text(app)


async def test_a_roll_updates_only_the_rows_that_changed(fight: History, tmp_path: Path) -> None:
    app = app_on(History.from_records(fight.records), tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.screen.query_one(CombatantsPane)
        assert table.row_count == COMBATANTS
        rows_before = dict(table._rows)
        current = app.session.state.current_id
        await next_turn(pilot, app)
        now = app.session.state.current_id
        changed = {key for key, row in table._rows.items() if rows_before[key] != row}
        assert changed <= {current, now} and now in changed  # the ▶ moved, nothing else
        row = table.get_row(now)
        assert row[0].plain.startswith("▶")
        assert table.get_row(current)[0].plain.strip() in ("", "✗")
        assert table.row_count == COMBATANTS


async def test_the_rows_are_made_once_as_the_fight_opens(
    fight: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made before the pane had its size, they were made, added and measured twice (for no
    width, then fitted): now once, fitted, and drawn with the scrollbar they need and the
    cursor's row in view."""
    added: list[str | None] = []
    add_row = CombatantsPane.add_row

    def counted(table: CombatantsPane, *cells: Any, **options: Any) -> Any:
        added.append(options.get("key"))
        return add_row(table, *cells, **options)

    shown: list[tuple[int, int, int]] = []  # after each show: rows, the cursor's, the top one
    show = CombatantsPane.show

    def watched(table: CombatantsPane, *args: Any, **options: Any) -> None:
        show(table, *args, **options)
        shown.append((table.row_count, table.cursor_row, round(table.scroll_y)))

    monkeypatch.setattr(CombatantsPane, "add_row", counted)
    monkeypatch.setattr(CombatantsPane, "show", watched)
    app = app_on(History.from_records(fight.records), tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(CombatantsPane)
        assert table.selected_id == app.session.state.current_id  # before a row is added
        await until(pilot, lambda: table.row_count == COMBATANTS, "the rows")
        # In view as they are first drawn (the table alone scrolls a frame late), a turn far
        # down the order as well.
        _rows, cursor, top = next(seen for seen in shown if seen[0])
        seen_rows = table.scrollable_content_region.height - table.header_height
        assert cursor == app.session.state.index_of(app.session.state.current_id) > seen_rows
        assert top <= cursor < top + seen_rows
        assert "press a to add a combatant" not in screen_text(app)
        assert table.show_vertical_scrollbar
        await pilot.pause()
        assert len(added) == COMBATANTS
        assert table.selected_id == app.session.state.current_id


def drawn(table: CombatantsPane) -> list[list[tuple[str, object]]]:
    """Each line of the pane as drawn now: its pieces of text and their styles."""
    lines = table.render_lines(Region(0, 0, *table.outer_size))
    return [[(segment.text, segment.style) for segment in line] for line in lines]


async def test_rows_updated_alone_are_drawn_as_textual_draws_them(
    fight: History, tmp_path: Path
) -> None:
    """Only the changed rows are drawn again (textual_internals.update_rows), the others'
    lines kept: the pane is drawn as Textual's own ``update_cell`` draws it."""

    async def turns(folder: Path) -> list[list[list[tuple[str, object]]]]:
        folder.mkdir()
        app = app_on(History.from_records(fight.records), folder)
        seen = []
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            table = app.screen.query_one(CombatantsPane)
            for _ in range(3):
                await next_turn(pilot, app)  # the ▶ moves: two rows change
                seen.append(drawn(table))
        return seen

    ours = await turns(tmp_path / "ours")
    with textual_internals.textuals_own_cell_updates():
        textuals = await turns(tmp_path / "textuals")
    assert ours == textuals


def snap(app: TrackerApp, seen: list[str]) -> str:
    """The screen's text, kept in ``seen``."""
    seen.append(screen_text(app))
    return seen[-1]


async def test_switching_theme_redraws_both_panes(tmp_path: Path) -> None:
    app = app_on(big_fight(a_system(has_demo, has_turn_order), 20, 100), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        # The screen read with its key bar: the bar is rebuilt when the bindings change, and
        # a read between two frames may catch it empty.
        seen: list[str] = []
        await until(pilot, lambda: "r Roll" in snap(app, seen).splitlines()[-1], "the key bar")
        text = seen[-1]
        themes: list[object] = []
        app.theme_changed_signal.subscribe(app.screen, themes.append)
        app.theme = "nord"
        # The same words, in the new theme's colours, once the change has reached the panes.
        await until(pilot, lambda: themes and screen_text(app) == text, "the screen redrawn")
        log = app.screen.query_one(RollLog)
        assert log._style_map()["success"].color is not None


@pytest.mark.parametrize("system", [s.name for s in registry.all_systems() if s.log_styles])
async def test_a_systems_own_log_styles_take_the_themes_colours(
    tmp_path: Path, system: str
) -> None:
    app = app_on(big_fight(system, 2, 1), tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "r Roll" in screen_text(app).splitlines()[-1], "the key bar")
        log = app.screen.query_one(RollLog)
        for theme in ("textual-dark", "nord"):
            app.theme = theme
            await pilot.pause()
            for name, style in get_system(system).log_styles.items():
                drawn = log._style_map()[name]
                assert drawn.bold == ("bold" in style.split())
                for colour in THEME_COLOUR.findall(style)[:1]:
                    assert drawn.color == Color.parse(app.theme_variables[colour]).rich_color
