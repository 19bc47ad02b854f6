"""The GM's seats dialog (`w`) at 80x24 shows the door's notices whole: a long one wraps
rather than being cut at the dialog's edge, and one said again (a seat turned away at each
try) is one line with how many times; more than fit give way, the oldest first."""

from __future__ import annotations

from pathlib import Path

from tests.app.support import until
from tests.screen import screen_text
from tests.serve.serve_helpers import table as table_at
from tracker.serve.seat_app import TableApp
from tracker.serve.seats_screen import SeatsScreen, said_once

FLOODED = (
    "Turned away 1 connection from 127.0.0.1: Closed for flooding: wait 60 s before sitting again."
)


def dialog_text(app: TableApp) -> str:
    """The dialog's text inside its frame (█), its lines joined as the words read."""
    lines = [line.split("█")[1].strip() for line in screen_text(app).splitlines() if "█" in line]
    return " ".join(line for line in lines if line)


async def test_a_long_notice_wraps_whole_and_a_repeated_one_shows_once(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    table.notice("Alice's seat was closed for flooding the table.")
    table.notice(FLOODED)
    table.notice(FLOODED)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, SeatsScreen), "the seats dialog")
        await until(pilot, lambda: "Turned away" in screen_text(app), "the notices")
        text = dialog_text(app)
        assert f"{FLOODED} (2 times)" in text
        assert text.count("Turned away") == 1
        assert "Alice's seat was closed for flooding the table." in text
        # Many long notices: the newest that fit in the dialog, whole.
        for number in range(6):
            table.notice(f"{FLOODED[:-1]}, number {number}.")
        await until(pilot, lambda: "number 5." in dialog_text(app), "the newest")
        text = dialog_text(app)
        assert "number 2." in text and "number 1." not in text  # four of two lines fit
        assert "Esc: close" in text  # the dialog's keys still on screen


def test_a_notice_said_again_is_counted_where_it_was_last_said(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    for line in ("a", "b", "a", "c"):
        table.notice(line)
    assert said_once(table.notices) == ["b", "a (2 times)", "c"]


def test_a_count_is_kept_while_other_notices_come(tmp_path: Path) -> None:
    """The table kept the last six notices said, and counted over those alone: four turns
    away became three once others came, and an older notice was lost to the repeats."""
    table = table_at(tmp_path / "cellar.fight")
    table.notice("Carol's seat was closed: it flooded the table with input")
    for _ in range(4):
        table.notice(FLOODED)
    for attempt in range(3):
        table.notice(f"Eve gave a wrong password ({attempt + 1})")
    said = said_once(table.notices)
    assert f"{FLOODED} (4 times)" in said
    assert said[0] == "Carol's seat was closed: it flooded the table with input"
