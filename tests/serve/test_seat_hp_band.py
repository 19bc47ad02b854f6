"""Hit points as a band (`:hp foes band`) hide the numbers of the lines already in a seat's
log too: a wound given before the GM set the band is not read on any seat once it is set,
neither on a seat already in (its log read again), nor on one that sits down after, nor in
a player's export; a line made while banded keeps its numbers hidden once the side is shown
exactly again. The GM's log is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from rules.commands import AddCombatant, ChangeTrack, SetOption
from rules.dice import SeededDice
from rules.engine import describe
from rules.events import TrackChanged
from rules.history import History
from rules.visibility import Viewer
from tests.app.support import until
from tests.helpers import new_history, run
from tests.picks import a_system, has_main_track
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import SeatSession, Table
from tracker.session import EncounterSession
from tracker.store.export import to_json, to_markdown
from tracker.widgets.roll_log import RollLog

PLAYER = Viewer(role="player", name="Alice")


def fight() -> History:
    """Orla (Alice's) and a goblin, in a system with a main track to wound by hand."""
    history = new_history(system=a_system(has_main_track))
    run(history, AddCombatant(name="Orla", side="party"), SeededDice(1))
    run(history, AddCombatant(name="Goblin", side="foes"), SeededDice(2))
    return history


def wound_lines(session: EncounterSession) -> list[str]:
    """The GM's log lines of the goblin's wounds given by hand (each says its numbers)."""
    pairs = session.history.in_effect()
    return [describe(b, e).plain for e, b in pairs if isinstance(e, TrackChanged)]


def seat_log(table: Table, seat_name: str) -> list[str]:
    """The log a seat sitting down now is handed, described."""
    seat = table.join("player", seat_name)
    try:
        return [describe(b, e).plain for e, b in SeatSession(table, seat).history.in_effect()]
    finally:
        table.leave(seat)


async def test_a_band_set_later_hides_the_numbers_of_the_lines_already_there(
    tmp_path: Path,
) -> None:
    session = EncounterSession(fight(), SeededDice(3), tmp_path / "band.fight")
    table = Table(session)
    table.assign("Alice", frozenset({"c1"}))
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        log = app.screen.query_one(RollLog)
        session.execute(ChangeTrack("c2", 1))  # the goblin wounded, the numbers shown
        (wound,) = wound_lines(session)
        await until(pilot, lambda: wound in list(log.entries), "the wound on the seat")
        assert wound in seat_log(table, "Dora")
        session.execute(SetOption("hp-view", "band foes"))
        await until(pilot, lambda: wound not in list(log.entries), "the line read again")
        assert any("foes" in line for line in log.entries)  # the GM's setting, logged
        assert wound not in seat_log(table, "Dora")  # a seat that sits down after
        assert wound in wound_lines(session)  # the GM's log keeps it
        # Wounded under the band, then shown exactly: that line stays without numbers.
        session.execute(ChangeTrack("c2", 1))
        banded_wound = wound_lines(session)[-1]
        session.execute(SetOption("hp-view", "exact foes"))
        await until(pilot, lambda: wound in list(log.entries), "exact again")
        assert banded_wound not in list(log.entries)
        assert banded_wound not in seat_log(table, "Dora")
        session.undo()  # banded again: the first wound hidden again
        await until(pilot, lambda: wound not in list(log.entries), "the undo read again")
    report = to_markdown(session.history, gm=False) + json.dumps(to_json(session.history))
    assert wound not in report and banded_wound not in report
    assert wound in to_markdown(session.history, gm=True)
