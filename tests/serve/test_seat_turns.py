"""A player ends their own turn with n on their seat, logged as theirs; the GM takes it back
with u, and may turn the setting off in the seats dialog (w, p); a seat whose combatant does
not act is told why in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import passing
from rules.commands import PassTurn
from rules.errors import Rejected
from rules.visibility import Viewer
from tests.app.support import burst_handled, keys_of, until
from tests.picks import a_system, falls_at_worst_track, has_turn_order
from tests.screen import screen_text
from tests.serve.serve_helpers import SECRET, Client, encounter, fell, serve
from tests.serve.serve_helpers import table as table_at
from tests.serve.serve_helpers import until as until_held
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.encounter_keys.turn_keys import OVER
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import PASSING_OFF, Table

SMALL = (80, 24)
PASSED = "Orla's player (Alice) ends the turn"


def acting(app: TableApp) -> str:
    current = app.table.session.state.current
    return current.name if current is not None else ""


async def test_a_player_ends_their_own_turn_and_the_gm_takes_it_back(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: "Orla" in screen_text(alice), "Alice's screen")
        await pilot.press("n")
        await until(pilot, lambda: acting(alice) == "Brak", "Brak's turn")
        await until(pilot, lambda: PASSED in screen_text(alice), "the log says whose n it was")
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: PASSED in screen_text(gm), "the GM's log shows it")
        await pilot.press("u")
        await until(pilot, lambda: acting(gm) == "Orla", "the GM took it back")
        assert PASSED not in screen_text(gm)


async def test_a_player_whose_combatant_does_not_act_is_told_why(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    table.assign("Alice", frozenset({table.session.state.combatants[1].id}))  # Brak only
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("n")
        await burst_handled(pilot)
        said = "It is Orla's turn, not yours: n ends your own turn when it comes"
        await until(pilot, lambda: said in screen_text(alice), "why not")
        assert acting(alice) == "Orla"


async def test_the_gm_turns_players_passing_off_in_the_seats_dialog(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL) as pilot:
        await pilot.press("w")
        await until(pilot, lambda: "players end their own turn: on" in screen_text(gm))
        await pilot.press("p")
        await until(pilot, lambda: "players end their own turn: off" in screen_text(gm))
    assert not table.settings.players_pass
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("n")
        await burst_handled(pilot)
        await until(pilot, lambda: PASSING_OFF in screen_text(alice), "the setting said")
        assert acting(alice) == "Orla"


def test_a_turn_with_a_result_waiting_is_not_ended_by_its_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    session, ids = encounter()
    alice = Viewer(role="player", name="Alice", assigned=frozenset({ids["Orla"]}))
    assert passing.up_next(session.state) == session.state.combatant(ids["Brak"])
    # Whatever a roll leaves waiting, as the system words it; no roll of Alice's (nobody's):
    # not hers to apply (d), so she waits for the GM.
    monkeypatch.setattr(session.system, "pending", lambda state: "2 wounds on Goblin")
    said = r"Not applied yet: 2 wounds on Goblin: wait for the GM \(or whoever rolled it\)"
    with pytest.raises(Rejected, match=said):
        session.execute(PassTurn(ids["Orla"], "Alice"), viewer=alice)
    assert session.state.current_id == ids["Orla"]


async def test_the_gm_hands_combatants_to_a_player_not_in_yet(tmp_path: Path) -> None:
    served = await serve(tmp_path, more=("Cara",))
    try:
        served.table.door = "Serving on 127.0.0.1:2222 · host key SHA256:abc"
        gm = await Client.join(served, "gm")
        gm.type("w")
        await until_held(lambda: "Seats at the table" in gm.text())
        await until_held(lambda: "Cara" in gm.text() and "not in yet" in gm.text())
        assert "Serving on 127.0.0.1:2222" in gm.text()  # the start-up notice, kept
        gm.type("\x1b[B\x1b[B")  # down to Cara (the GM's seat; Alice, Cara: not in yet)
        gm.type("a")
        await until_held(lambda: "Cara acts for" in gm.text())
        gm.type("\t \r")  # Brak: yes
        brak = served.ids["Brak"]
        await until_held(lambda: served.table.assigned.get("Cara") == {brak})
        cara = await Client.join(served, "cara")
        seat = cara.seat
        assert seat is not None and served.table.viewer(seat).assigned == {brak}
        await until_held(lambda: "Cara" in gm.text() and gm.text().count("not in yet") == 1)
        await cara.close()
        await gm.close()
    finally:
        served.server.close()
        await served.server.wait_closed()


async def test_the_gm_gives_combatants_to_a_player_by_name(tmp_path: Path) -> None:
    table = table_at(tmp_path / "cellar.fight")
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL) as pilot:
        await pilot.press("w", "g")
        await until(pilot, lambda: "Give combatants to a player" in screen_text(gm))
        await pilot.press(*keys_of("dora"), "enter")
        await until(pilot, lambda: "dora acts for" in screen_text(gm), "the assign dialog")
        await pilot.press("tab", "space", "enter")
        brak = table.session.state.combatants[1].id
        await until(pilot, lambda: table.assigned.get("dora") == {brak}, "Brak given")
        await until(pilot, lambda: "not in yet" in screen_text(gm), "her row")
    dora = table.join("player", "Dora")  # she joins by the table password, as "Dora"
    assert table.viewer(dora).assigned == {brak}  # a name is a name, whatever its case


async def test_a_player_in_a_system_played_in_rounds_is_told_the_gm_ends_them(
    tmp_path: Path,
) -> None:
    session, ids = encounter(tmp_path / "rounds.fight", a_system(lambda n: not has_turn_order(n)))
    table = Table(session)
    table.assign("Alice", frozenset({ids["Orla"]}))
    before = len(session.history.records)
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("n")
        await burst_handled(pilot)
        said = "plays in rounds: the GM ends the round"
        await until(pilot, lambda: said in screen_text(alice), "why not")
    assert len(session.history.records) == before


async def test_once_the_gm_plays_on_past_the_end_a_players_turns_run_on(tmp_path: Path) -> None:
    """The GM's "play on" was their screen's alone: a player's n still said the GM decides,
    and while the fight was over their header still said "Your turn (n ends it)"."""
    session, ids = encounter(tmp_path / "cellar.fight", a_system(falls_at_worst_track))
    for foe in ("Goblin", SECRET):
        fell(session, ids[foe])  # the party has won
    table = Table(session)
    table.assign("Alice", frozenset({ids["Orla"], ids["Brak"]}))
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: "Fight over" in screen_text(alice), "the end")
        assert "Your turn" not in screen_text(alice)
        await pilot.press("escape", "n")  # the summary closed, then n
        await until(pilot, lambda: OVER in screen_text(alice), "the GM decides")
    first = acting(alice)
    gm = TableApp(table, table.join("gm", "GM"), saves=tmp_path)
    async with gm.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: "Fight over" in screen_text(gm), "the GM's end")
        await pilot.press("escape", "n", "n")
        await until(pilot, lambda: isinstance(gm.screen, ConfirmScreen), "play on?")
        await pilot.press("y")
        await until(pilot, lambda: acting(gm) not in ("", first), "played on: the next turn")
    now = acting(gm)  # Orla's or Brak's: both are Alice's
    alice = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with alice.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: f"Your turn: {now}" in screen_text(alice), "her turn")
        await pilot.press("escape", "n")
        await until(pilot, lambda: acting(alice) != now, "her n ended it")
