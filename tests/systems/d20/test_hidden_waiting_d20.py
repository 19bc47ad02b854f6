"""The tester's served Generic d20 table: a GM-only creature's hit on Orla left its damage
waiting (`waiting (d): Orla takes ... slashing`), which Brak's player's seat does not see.
Their attack went through and the damage was gone, with no "Discarded" line; their `n` was
refused with "Not applied yet: Orla takes 12 slashing: apply it (d)", and `d` refused
them too. Now both are refused saying only that the GM has a result waiting."""

from __future__ import annotations

import pytest

from rules.commands import PassTurn
from rules.dice import ScriptedDice
from rules.errors import Rejected
from rules.systems.d20.events import D20Attack
from tests.serve.serve_helpers import SECRET, encounter
from tracker.serve.seats import SeatSession, Table

GM_WAITING = "The GM has a result waiting: wait for the GM to settle it"


def table_with_hidden_damage_waiting() -> tuple[Table, dict[str, str], str]:
    """Alice plays Brak; the hidden creature's hit on Orla waits to be applied."""
    session, ids = encounter(system="d20")
    session.dice = ScriptedDice([19, 5, 4, 4])  # the hidden creature hits Orla; its damage
    session.execute(D20Attack(ids[SECRET], ids["Orla"]))
    waiting = session.system.pending(session.state)
    assert waiting.startswith("Orla takes ")
    table = Table(session)
    table.assign("Alice", frozenset({ids["Brak"]}))
    return table, ids, waiting


def test_brak_attacking_leaves_the_hidden_creatures_damage_on_orla_waiting() -> None:
    table, ids, waiting = table_with_hidden_damage_waiting()
    seat = SeatSession(table, table.join("player", "Alice"))
    assert not table.session.system.pending(seat.state)  # the seat does not see it
    before = table.session.state
    with pytest.raises(Rejected, match=f"^{GM_WAITING}, then roll$"):
        seat.execute(D20Attack(ids["Brak"], ids["Goblin"]))
    assert table.session.state is before
    assert table.session.system.pending(table.session.state) == waiting


def test_braks_n_names_nothing_of_the_hidden_damage() -> None:
    table, ids, waiting = table_with_hidden_damage_waiting()
    seat = SeatSession(table, table.join("player", "Alice"))
    with pytest.raises(Rejected) as refused:
        seat.execute(PassTurn(ids["Brak"]))
    said = refused.value.message
    assert said == f"{GM_WAITING}, then end the turn"
    assert waiting not in said and "Orla" not in said and SECRET not in said
