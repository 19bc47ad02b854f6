"""A player's seat on a long fight: its log reads as its view described entry by entry, and
goes on doing so through undos. A player's states are its view's (a hidden combatant's
changes left out, the last roll it saw carried on), which do not fold one into the next as
the GM's do: its log keeps every state, and describes an entry when first drawn as the
GM's does. Every seat is handed the same states, worked out once by the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.big import big_fight
from rules.commands import EditCombatant
from rules.dice import SeededDice
from rules.engine import describe
from rules.history import History
from rules.visibility import Viewer
from tests.app.support import until
from tests.picks import a_system, has_demo, player_rolls
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import SeatSession, Table
from tracker.session import EncounterSession
from tracker.widgets.log_entries import EVERY
from tracker.widgets.roll_log import RollLog

PLAYER = Viewer(role="player", name="Alice")


@pytest.mark.parametrize("combatants", [6, 8])  # bench.big hides every seventh from players
async def test_a_players_log_on_a_long_fight_reads_as_its_view(
    tmp_path: Path, combatants: int
) -> None:
    fight = big_fight(a_system(has_demo, player_rolls), combatants, 4 * EVERY)
    session = EncounterSession(History.from_records(fight.records), SeededDice(5), None)
    table = Table(session)
    seat = table.join("player", "Alice")
    view = SeatSession(table, seat).history
    gm = SeatSession(table, table.join("gm", "GM"))
    assert not view.in_effect_folds

    def expected() -> list[str]:
        return [describe(before, event).plain for event, before in view.in_effect()]

    app = TableApp(table, seat, saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.screen.query_one(RollLog)
        await until(pilot, lambda: len(log.entries) > 3 * EVERY, "the log filled")
        assert not log.entries.described(0)  # scrolled out of sight: not described yet
        assert log.entries == expected()
        for _ in range(3):
            gm.undo()
            await until(pilot, lambda: log.entries == expected(), "the undo on the seat")


async def test_the_gms_table_works_players_view_out_as_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fight = big_fight(a_system(has_demo, player_rolls), 8, 4 * EVERY)
    session = EncounterSession(History.from_records(fight.records), SeededDice(5), None)
    table = Table(session)
    app = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table.view_work() is None, "players' view worked out")
        expected = [event for event, _ in Table(session).public_pairs()]
        worked: list[object] = []
        monkeypatch.setattr("tracker.serve.seats.follow", lambda *a, **k: worked.append(a))
        seat = table.join("player", "Alice")
        view = SeatSession(table, seat).history.in_effect()
        assert not worked  # the seat sat down to the view the table kept
        assert [event for event, _ in view] == expected
        monkeypatch.undo()
        hidden = session.state.combatants[0]
        session.execute(EditCombatant(combatant_id=hidden.id, gm_only=True))
        assert table.sight(PLAYER).state.find(hidden.id) is None  # from the state alone
        await until(pilot, lambda: table.view_work() is None, "worked out again, hidden")
