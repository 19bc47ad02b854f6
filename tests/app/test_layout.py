"""The layout at any size: the roll log after a resize, and 80x24 with nothing cut."""

from __future__ import annotations

from pathlib import Path

from rules.dice import SeededDice
from tests.app.test_app import make_app
from tests.screen import screen_strips, screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.session import EncounterSession
from tracker.widgets.roll_log import RollLog

SMALL, LARGE = (80, 24), (160, 48)


def demo_app(demo: str, tmp_path: Path) -> TrackerApp:
    session = EncounterSession(DEMOS[demo](), SeededDice(7), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


def thumb_rows(app: TrackerApp, log: RollLog) -> list[int]:
    """The rows of the log's scrollbar where its thumb shows: Textual draws the thumb as
    reversed blanks, with block characters for its part-filled ends, and the track as
    plain blanks."""
    bar = log.vertical_scrollbar.region
    strips = screen_strips(app)
    cells = [strips[y].crop(bar.x, bar.right) for y in range(bar.y, bar.bottom)]
    return [
        row
        for row, cell in enumerate(cells)
        if cell.text.strip() or any(segment.style and segment.style.reverse for segment in cell)
    ]


def runs(rows: list[int]) -> int:
    """How many unbroken runs ``rows`` (ascending) make."""
    return sum(1 for i, row in enumerate(rows) if i == 0 or rows[i - 1] != row - 1)


async def add_note(pilot, text: str) -> None:
    await pilot.press("o", *text, "enter")
    await pilot.pause()
    await pilot.pause(0.6)  # the thumb may lag a new entry by half a second


async def test_the_log_follows_new_entries_after_a_resize(tmp_path: Path) -> None:
    app = demo_app("demo-livehack", tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        assert log.is_vertical_scroll_end  # the newest entry is still in view
        await add_note(pilot, "after the resize")
        assert "✎ after the resize" in screen_text(app)
        assert log.is_vertical_scroll_end
        rows = thumb_rows(app, log)
        assert runs(rows) == 1  # one thumb...
        assert rows[-1] == log.vertical_scrollbar.region.height - 1  # ...at the end

        await pilot.resize_terminal(*LARGE)  # and back
        await pilot.pause()
        await pilot.pause()
        await add_note(pilot, "larger again")
        assert "✎ larger again" in screen_text(app)
        assert "✎ after the resize" in screen_text(app)
        if log.show_vertical_scrollbar:
            assert runs(thumb_rows(app, log)) == 1


async def test_a_log_that_fitted_follows_once_it_no_longer_fits(tmp_path: Path) -> None:
    app = make_app(tmp_path)  # a new encounter: its log all fits
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        for number in range(14):
            await add_note(pilot, f"note {number}")
        assert log.max_scroll_y == 0  # it all fits
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        await add_note(pilot, "one more")
        assert "✎ one more" in screen_text(app)
        rows = thumb_rows(app, log)
        assert runs(rows) == 1 and rows[-1] == log.vertical_scrollbar.region.height - 1


async def test_a_log_scrolled_up_stays_where_it_is_through_a_resize(tmp_path: Path) -> None:
    app = demo_app("demo-livehack", tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        log = app.screen.query_one(RollLog)
        await pilot.press("tab", "home")  # the log, scrolled to its first entry
        await pilot.pause()
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        assert log.scroll_y == 0
        await pilot.press("shift+tab")
        await add_note(pilot, "while scrolled up")
        assert log.scroll_y == 0 and "✎ while scrolled up" not in screen_text(app)
        assert runs(thumb_rows(app, log)) == 1
