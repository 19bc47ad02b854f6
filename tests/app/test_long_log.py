"""A long fight's roll log costs what is on screen, not what is in the fight (issue 45).

Entries are counted as Rich draws them (``entry_text`` is called once per entry drawn):
opening a long fight at 80x24 or resizing it draws a few screens' worth, where the log
once drew nearly every entry at every width. What the log shows is checked against every
entry drawn the slow way: the first lines, the last, and a page in between all read as
the whole log would.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.big import big_fight
from rules.dice import SeededDice
from rules.history import History
from tests.app.support import until
from tests.picks import a_system, has_demo, has_turn_order
from tests.screen import screen_strips
from tracker.app import TrackerApp
from tracker.session import EncounterSession
from tracker.terminal.render import entry_text
from tracker.widgets import roll_log
from tracker.widgets.roll_log import RollLog

SIZE = (80, 24)
ENTRIES = 1_500  # many screens at 80x24; the bound below does not grow with it
FEW_SCREENS = 3 * SIZE[1]  # entries drawn at most for a frame, a resize or a scroll


@pytest.fixture(scope="module")
def fight() -> History:
    return big_fight(a_system(has_demo, has_turn_order), 40, ENTRIES)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many entries Rich has drawn (a fresh shared cache: none drawn before)."""
    count = [0]

    def counting(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return entry_text(*args, **kwargs)

    monkeypatch.setattr(roll_log, "entry_text", counting)
    monkeypatch.setattr(roll_log, "SHARED", roll_log.Shared())
    yield count


def app_on(fight: History, tmp_path: Path) -> TrackerApp:
    session = EncounterSession(History.from_records(fight.records), SeededDice(5), None)
    return TrackerApp(session, saves=tmp_path)


def log_lines(app: TrackerApp, log: RollLog) -> list[str]:
    """The log's lines as the screen shows them."""
    region = log.scrollable_content_region
    rows = screen_strips(app)[region.y : region.bottom]
    return [row.crop(region.x, region.right).text.rstrip() for row in rows]


def every_line(log: RollLog) -> list[str]:
    """The whole log drawn the slow way: every entry wrapped by Rich at the log's width."""
    console = log.app.console
    options = console.options.update_width(log.scrollable_content_region.width)
    lines = []
    for index in range(len(log.entries)):
        text = entry_text(log.entries.entry(index), log._style_map())
        lines += [
            "".join(s.text for s in line).rstrip()
            for line in console.render_lines(text, options, pad=False)
        ]
    return lines


def wrapped(log: RollLog) -> bool:
    """Whether some entry has a line longer than the log is wide (the case once slow)."""
    width = log.scrollable_content_region.width
    return any(len(line) > width for entry in log.entries for line in entry.splitlines())


async def at_its_end(pilot: Any, app: TrackerApp) -> RollLog:
    """The log, once laid out at its width and showing its last line."""
    log = app.screen.query_one(RollLog)

    def laid_out() -> bool:
        width = log.scrollable_content_region.width
        return bool(log.entries) and log._width == width and log.is_vertical_scroll_end

    await until(pilot, laid_out, "the log laid out at its width")
    last = every_line(log)[-1]
    await until(pilot, lambda: log_lines(app, log)[-1] == last, "the log's last line")
    return log


async def test_opening_a_long_fight_at_80x24_draws_only_a_few_screens_of_entries(
    fight: History, tmp_path: Path, drawn: list[int]
) -> None:
    app = app_on(fight, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        log = await at_its_end(pilot, app)
        assert len(log.entries) >= ENTRIES and wrapped(log)
        assert drawn[0] <= FEW_SCREENS, f"{drawn[0]} of {len(log.entries)} entries drawn"


async def test_resizing_a_long_log_does_not_draw_every_entry_again(
    fight: History, tmp_path: Path, drawn: list[int]
) -> None:
    app = app_on(fight, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await at_its_end(pilot, app)
        for size in ((100, 30), (70, 24), SIZE):
            drawn[0] = 0
            await pilot.resize_terminal(*size)
            await at_its_end(pilot, app)
            assert drawn[0] <= FEW_SCREENS, f"{drawn[0]} entries drawn again at {size}"


async def test_a_long_log_reads_the_same_at_its_top_its_end_and_between(
    fight: History, tmp_path: Path
) -> None:
    app = app_on(fight, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        log = await at_its_end(pilot, app)
        lines = every_line(log)
        height = log.scrollable_content_region.height
        assert wrapped(log)  # long entries wrap at 80 columns
        await until(pilot, lambda: log_lines(app, log) == lines[-height:], "the last lines")
        assert log.show_vertical_scrollbar

        await pilot.press("tab")  # to the log
        for _ in range(5):
            await pilot.press("pageup")
        await pilot.pause()

        def a_page_of_the_log() -> bool:
            shown = log_lines(app, log)
            return any(lines[i : i + height] == shown for i in range(len(lines) - height))

        await until(pilot, a_page_of_the_log, "a page between")
        await pilot.press("home")
        await until(pilot, lambda: log_lines(app, log) == lines[:height], "the first lines")
        assert log.scroll_y == 0
        await pilot.press("end")
        await until(pilot, lambda: log_lines(app, log) == lines[-height:], "the last lines again")
        assert log.is_vertical_scroll_end


def collected(thing: object) -> bool:
    """Whether the cyclic collector still scans ``thing`` (it is in a generation, not frozen)."""
    return any(found is thing for generation in range(3) for found in gc.get_objects(generation))


async def test_a_long_fights_log_is_frozen_out_of_the_collectors_scans(
    fight: History, tmp_path: Path
) -> None:
    """The log is filled after the app mounts (and first froze what was loaded): once the
    encounter is shown, its entries are frozen too, so a full collection after a key does
    not rescan a long fight's log (a stall of tens of milliseconds, at random)."""
    app = app_on(fight, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        log = app.screen.query_one(RollLog)
        await until(pilot, lambda: len(log.entries) > ENTRIES // 2, "the log filled")
        await until(pilot, lambda: not collected(log.entries._events), "the log's entries frozen")
        assert not collected(log.entries._kept)
    assert gc.get_freeze_count() == 0  # the app let them go as it ended


async def test_home_in_a_long_log_jumps_to_its_first_entry_drawing_only_those_shown(
    fight: History, tmp_path: Path, drawn: list[int]
) -> None:
    """Animated, the scroll to the top drew (and described) the entries on its way, and
    took two seconds to reach the first on the 20,000-entry fight."""
    app = app_on(fight, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        log = await at_its_end(pilot, app)
        first = every_line(log)[: log.scrollable_content_region.height]
        await pilot.press("tab")  # to the log
        drawn[0] = 0
        await pilot.press("home")
        assert log.scroll_y == 0  # at once, in the key's own handling
        await until(pilot, lambda: log_lines(app, log) == first, "the first lines")
        assert drawn[0] <= FEW_SCREENS, f"{drawn[0]} entries drawn on the way"
