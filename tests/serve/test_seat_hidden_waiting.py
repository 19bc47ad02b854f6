"""A result a GM-only combatant's roll left waiting, at a served table: a player's seat does
not see it, so its own check let the player's roll go through, the GM's waiting result
silently gone (no "Discarded" line, nothing to undo it by but the player's roll); and a
player's `n` was refused with what the hidden roll did ("Not applied yet: Vexmoor's damage
roll on Brak...: apply it (d)"), `d` then refused too. Now the session refuses both on the
real state (rules.permissions: ``leaves_waiting``, ``refusal``), saying only that the GM
has a result waiting."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import PassTurn
from rules.dice import SeededDice
from rules.errors import Rejected
from rules.events import ConsequenceDiscarded
from tests.app.support import burst_handled, until
from tests.picks import every_system, player_rolls
from tests.screen import screen_text
from tests.serve.serve_helpers import SECRET, encounter, roll
from tests.serve.test_seat_own_keys import another_result_waiting
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.serve.seat_app import TableApp
from tracker.serve.seats import SeatSession, Table

SMALL = (80, 24)
SYSTEMS = every_system(player_rolls)
GM_WAITING = "The GM has a result waiting: wait for the GM to settle it"  # and nothing of it


def hidden_result_waiting(tmp_path: Path, system: str) -> tuple[Table, dict[str, str]]:
    """A table (Alice given Orla, on Orla's turn) where the GM-only foe's roll at Brak left
    a result waiting that Alice's seat does not see; skipped if no dice leave one."""
    for seed in range(40):
        session, ids = encounter(tmp_path / f"{system}-{seed}.fight", system)
        session.dice = SeededDice(seed)
        session.execute(roll(session.state, ids[SECRET], ids["Brak"]))
        table = Table(session)
        table.assign("Alice", frozenset({ids["Orla"]}))
        seen = table.sight(table.viewer(table.join("player", "Alice"))).state
        if session.system.pending(session.state) and not session.system.pending(seen):
            return table, ids
    pytest.skip(f"no dice leave a hidden result waiting in {system}")


def told_nothing_of_it(said: str, waiting: str) -> bool:
    return SECRET not in said and waiting not in said and "Brak" not in said


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_players_roll_is_refused_over_a_hidden_result_waiting(
    tmp_path: Path, system: str
) -> None:
    table, ids = hidden_result_waiting(tmp_path, system)
    session = table.session
    waiting, records = session.system.pending(session.state), len(session.history.records)
    seat = SeatSession(table, table.join("player", "Alice"))
    with pytest.raises(Rejected) as refused:
        seat.execute(roll(seat.state, ids["Orla"], ids["Goblin"]))
    assert refused.value.message.startswith(GM_WAITING)
    assert told_nothing_of_it(refused.value.message, waiting)
    assert session.system.pending(session.state) == waiting  # still the GM's to settle
    assert len(session.history.records) == records
    assert not any(isinstance(e, ConsequenceDiscarded) for e, _ in session.history.in_effect())


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_players_n_over_a_hidden_result_says_nothing_of_it(tmp_path: Path, system: str) -> None:
    table, ids = hidden_result_waiting(tmp_path, system)
    session = table.session
    waiting = session.system.pending(session.state)
    seat = SeatSession(table, table.join("player", "Alice"))
    with pytest.raises(Rejected) as refused:
        seat.execute(PassTurn(ids["Orla"]))
    said = refused.value.message
    assert said == f"{GM_WAITING}, then end the turn"
    assert told_nothing_of_it(said, waiting) and "(d)" not in said
    assert session.state.current_id == ids["Orla"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_may_still_roll_over_it(tmp_path: Path, system: str) -> None:
    """The GM's app asks first (apply, discard, back); the session leaves the GM's call to it."""
    table, ids = hidden_result_waiting(tmp_path, system)
    assert table.session.execute(roll(table.session.state, ids["Orla"], ids["Goblin"]))


@pytest.mark.parametrize("system", SYSTEMS[:1])
async def test_by_keys_r_and_n_at_a_players_seat_leave_the_gms_result_waiting(
    tmp_path: Path, system: str
) -> None:
    table, _ = hidden_result_waiting(tmp_path, system)
    session = table.session
    waiting, records = session.system.pending(session.state), len(session.history.records)
    app = TableApp(table, table.join("player", "Alice"), saves=tmp_path)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the encounter")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the roll dialog")
        await pilot.press("enter")
        await until(pilot, lambda: GM_WAITING in screen_text(app), "the refusal")
        assert isinstance(app.screen, FormScreen)  # the dialog stays, saying why
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "back")
        await pilot.press("n")
        await burst_handled(pilot)
        said = f"{GM_WAITING}, then end the turn"
        await until(pilot, lambda: said in screen_text(app), "n refused in one line")
        shown = screen_text(app)  # Brak is in the pane: the one the hidden roll was at
        assert SECRET not in shown and waiting not in shown
    assert session.system.pending(session.state) == waiting
    assert len(session.history.records) == records


def test_a_players_n_over_anothers_result_they_see_says_to_wait_for_the_gm(
    tmp_path: Path,
) -> None:
    """A result they see but may not apply (the Goblin's at Brak): `n` said "apply it (d)",
    and `d` was refused."""
    table = another_result_waiting(tmp_path)
    if table is None:
        pytest.skip("no system's roll leaves a result a player may not apply")
    session = table.session
    waiting = session.system.pending(session.state)
    seat = SeatSession(table, table.join("player", "Alice"))
    with pytest.raises(Rejected) as refused:
        seat.execute(PassTurn(next(iter(seat.acts_for() or ()))))
    said = refused.value.message
    assert said == f"Not applied yet: {waiting}: wait for the GM (or whoever rolled it) to apply it"


@pytest.mark.parametrize("system", SYSTEMS[:1])
def test_a_players_n_over_their_own_result_says_apply_it(tmp_path: Path, system: str) -> None:
    for seed in range(40):
        session, ids = encounter(tmp_path / f"{system}-{seed}.fight", system)
        session.dice = SeededDice(seed)
        table = Table(session)
        table.assign("Alice", frozenset({ids["Orla"]}))
        seat = SeatSession(table, table.join("player", "Alice"))
        seat.execute(roll(seat.state, ids["Orla"], ids["Goblin"]))
        waiting = session.system.pending(session.state)
        if waiting and not session.system.pending_action(session.state):
            break
    else:
        pytest.skip(f"no dice leave Orla's roll a result in {system}")
    with pytest.raises(Rejected) as refused:
        seat.execute(PassTurn(ids["Orla"]))
    assert (
        refused.value.message == f"Not applied yet: {waiting}: apply it (d) before you end the turn"
    )


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_player_settles_nothing_of_a_hidden_roll_at_their_own(
    tmp_path: Path, system: str
) -> None:
    """The hidden foe's roll at Alice's Orla: her `d` applied the damage her seat never
    showed (acting for the last roll, which names Orla); now it is the GM's, said as `r`
    and `n` say it."""
    for seed in range(40):
        session, ids = encounter(tmp_path / f"{system}-{seed}.fight", system)
        session.dice = SeededDice(seed)
        session.execute(roll(session.state, ids[SECRET], ids["Orla"]))
        if session.system.pending(session.state):
            break
    else:
        pytest.skip(f"no dice leave a hidden result waiting in {system}")
    table = Table(session)
    table.assign("Alice", frozenset({ids["Orla"]}))
    waiting, records = session.system.pending(session.state), len(session.history.records)
    seat = SeatSession(table, table.join("player", "Alice"))
    with pytest.raises(Rejected) as refused:
        seat.execute(session.system.consequence_command(session.state))
    assert refused.value.message == GM_WAITING
    assert session.system.pending(session.state) == waiting
    assert len(session.history.records) == records
