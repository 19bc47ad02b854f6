"""Hostile dice typed on a served seat: one inert line on that seat, and the table's fight
is untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.support import until
from tests.app.test_app_command_line import type_line
from tests.hostile_text import CONTROL_DICE, HOSTILE_DICE, unsafe
from tests.screen import screen_text
from tests.serve.serve_helpers import encounter
from tracker.screens.command_prompt import CommandLineScreen
from tracker.serve.app import TableApp
from tracker.serve.seats import Table


@pytest.mark.parametrize(("line", "told"), HOSTILE_DICE)
async def test_hostile_dice_on_the_gm_seat_get_one_inert_line(
    tmp_path: Path, line: str, told: str
) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    before = len(session.history.records)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"dice {line}")
        assert isinstance(app.screen, CommandLineScreen)
        text = screen_text(app)
        assert told in text and not unsafe(text, "\n")
        await type_line(pilot, "")  # the seat still answers
        await pilot.press("escape", "colon")
        await pilot.pause()
        assert app.return_code is None and app.is_running
    assert len(session.history.records) == before


@pytest.mark.parametrize("line", CONTROL_DICE)
async def test_control_characters_in_dice_on_the_gm_seat_show_nothing_unsafe(
    tmp_path: Path, line: str
) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f"dice {line}")
        assert not unsafe(screen_text(app), "\n")
        assert app.return_code is None and app.is_running


async def test_a_chart_asked_for_on_the_gm_seat(tmp_path: Path) -> None:
    session, _ = encounter()
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, "dice 2d6 chart")
        await until(pilot, lambda: "🎲 2d6: " in screen_text(app), "the roll in the seat's log")
        assert " 6-7 " + "█" * 20 + " 30.6%" in screen_text(app)
