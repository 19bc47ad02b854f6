"""The fight's summary at 80x24: every column in the dialog's width (the sheet's stats give way
first), and its figures counted in a worker while the screen stays live."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.coordinate import Coordinate
from textual.pilot import Pilot
from textual.widgets import DataTable

from rules.dice import SeededDice
from rules.outcome import Summary, summary_of
from rules.registry import get_system
from tests.picks import a_demo, has_stat_columns
from tests.screen import screen_strips, screen_text
from tracker.app import TrackerApp
from tracker.demos import DEMOS
from tracker.screens.summary import COUNTING, FIXED, SummaryScreen
from tracker.session import EncounterSession
from tracker.terminal.fit import LABEL_WORD

SMALL, LARGE = (80, 24), (160, 48)
DEMO_NAMES = sorted(DEMOS)


def demo_app(tmp_path: Path, demo: str) -> TrackerApp:
    session = EncounterSession(DEMOS[demo](), SeededDice(1), tmp_path / "fight.fight")
    return TrackerApp(session, saves=tmp_path)


async def open_summary(app: TrackerApp, pilot: Pilot[None]) -> DataTable[object]:
    await pilot.press("f")
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(app.screen, SummaryScreen)
    return app.screen.query_one("#summary-table", DataTable)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
@pytest.mark.parametrize("demo", DEMO_NAMES)
async def test_the_summary_table_fits_the_dialog(
    tmp_path: Path, demo: str, size: tuple[int, int]
) -> None:
    app = demo_app(tmp_path, demo)
    async with app.run_test(size=size) as pilot:
        table = await open_summary(app, pilot)
        assert table.virtual_size.width <= table.scrollable_content_region.width  # no → scroll
        region = table.region
        # By cells, not characters: a wide one (the log's 🎲) left of the dialog shifts the text.
        lines = [strip.crop(region.x, region.right).text for strip in screen_strips(app)]
        header, rows = lines[region.y], lines[region.y + 1 : region.bottom]
        for label in ("Name", "Out", "Dealt", "Taken"):  # what the fight did, never left out
            assert label in header, header
        stats = get_system(app.session.state.system).stat_columns
        if size == LARGE:  # room for every column, whole
            assert all(label in header for label in ("Side", "Rolls", *stats)), header
        for fighter in summary_of(app.session.history).fighters:
            row = next(line for line in rows if line.startswith(f"{fighter.name} "))
            assert f" {fighter.dealt} " in row and f" {fighter.taken} " in row, row


async def test_a_narrower_terminal_fits_the_table_again(tmp_path: Path) -> None:
    app = demo_app(tmp_path, a_demo(has_stat_columns))
    async with app.run_test(size=LARGE) as pilot:
        table = await open_summary(app, pilot)
        wide = table.virtual_size.width
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        assert table.virtual_size.width < wide
        assert table.virtual_size.width <= table.scrollable_content_region.width


async def test_the_figures_are_counted_off_the_ui_thread(tmp_path: Path) -> None:
    app = demo_app(tmp_path, a_demo())
    release = threading.Event()
    history = app.session.history

    def count() -> Summary:
        assert threading.current_thread() is not threading.main_thread()
        assert release.wait(5)
        return summary_of(history)

    async with app.run_test(size=SMALL) as pilot:
        app.push_screen(SummaryScreen(app.session.outcome(), count))
        await pilot.pause()
        # The screen is up, and the app answers keys, while the figures are counted.
        assert COUNTING in screen_text(app)
        await pilot.press("down")
        await pilot.pause()
        assert COUNTING in screen_text(app)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = screen_text(app)
        assert COUNTING not in text
        first = app.session.state.combatants[0].name
        assert " rounds · " in text and f" {first} " in text


def shortened_words(shown: str, whole: str) -> list[str]:
    """The words of ``whole`` that ``shown`` (its fitted form) has shortened ("Rol." of
    "Rolls")."""
    words = whole.split()
    return [
        word
        for cut in shown.split()
        if cut.endswith(".") and cut not in words
        for word in words
        if word.startswith(cut[:-1]) and word != cut
    ]


async def check_words_whole(app: TrackerApp, pilot: Pilot[None], width: int) -> None:
    """At ``width``: no label loses a word shorter than LABEL_WORD, no stat cell any word."""
    await pilot.resize_terminal(width, 24)
    await pilot.pause()
    assert isinstance(app.screen, SummaryScreen) and app.screen.summary is not None
    app.screen.fill_table()
    table = app.screen.query_one("#summary-table", DataTable)
    fighters = app.screen.summary.fighters
    stats = {label: i for i, label in enumerate(app.screen.summary.columns)}
    for key, column in table.columns.items():
        label = column.label.plain.strip()
        full = next((name for name in (*stats, *(f[0] for f in FIXED), "Init")
                     if shortened_words(label, name) or label == name), label)  # fmt: skip
        assert all(len(word) >= LABEL_WORD for word in shortened_words(label, full)), (width, label)
        if full in stats:
            for row, fighter in enumerate(fighters):
                cell = table.get_cell_at(Coordinate(row, table.get_column_index(key)))
                stat = fighter.stats[stats[full]]
                assert shortened_words(cell.plain, stat) == [], (width, cell.plain, stat)


@pytest.mark.parametrize("demo", DEMO_NAMES)
async def test_labels_and_stats_are_never_shortened_past_reading(tmp_path: Path, demo: str) -> None:
    app = demo_app(tmp_path, demo)
    async with app.run_test(size=SMALL) as pilot:
        await open_summary(app, pilot)
        for width in range(80, 121, 4):
            await check_words_whole(app, pilot, width)
