"""The GM's `q` at a served table ends it for every seat: with seats in, it asks first
(how many will be closed, and whose), `n` or Esc staying; with none in, it quits at once.
A player's `q` ends their own seat alone, unasked."""

from __future__ import annotations

from pathlib import Path

from tests.app.support import until
from tests.screen import screen_text
from tests.serve.serve_helpers import table as table_at
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import Table

SMALL = (80, 24)


def seated(table: Table, name: str, closed: list[str]) -> None:
    """A remote seat at the table (its connection's close recorded in ``closed``)."""
    table.join("player", name, "127.0.0.1:50000", close=closed.append)


async def test_the_gms_q_asks_before_closing_the_seats_in(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    closed: list[str] = []
    seated(table, "Alice", closed)
    seated(table, "Bob", closed)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked")
        text = screen_text(app)
        assert "Quit and close the table? 2 seats will be closed (Alice, Bob)." in text
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "stayed")
        assert app.is_running and not closed
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked again")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "stayed again")
        assert app.is_running
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "asked a third time")
        await pilot.press("y")
        await until(pilot, lambda: not app.is_running, "quit")
    assert app.return_code == 0


async def test_the_gms_q_with_no_seat_in_quits_at_once(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "quit")


async def test_a_players_q_leaves_unasked(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    closed: list[str] = []
    seated(table, "Bob", closed)
    seat = table.join("player", "Alice", "127.0.0.1:50001", close=closed.append)
    app = TableApp(table, seat, saves=tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "left")
