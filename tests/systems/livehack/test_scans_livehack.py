"""LiveHack's dying saves in a fight of 40 (issue 45): who has made its save this round is
read off the round's marks once a move, not once a dying combatant. Counted, never timed."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec import structs

from bench.crowd import crowd
from rules.conditions import Condition
from rules.encounter import Encounter
from rules.forecast import all_solo
from rules.systems.livehack import solo
from rules.systems.livehack.events import LiveHackSave, LiveHackState

CROWD = 40


def dying(state: Encounter, ids: list[str], saved: list[str]) -> Encounter:
    """``ids`` dying, those of ``saved`` with their save made this round (or their fall)."""
    for cid in ids:
        combatant = state.combatant(cid)
        state = state.replace_combatant(
            structs.replace(combatant, conditions=(Condition("Dying"),))
        )
    marks = tuple(f"{state.round}:{cid}:dying:holds on" for cid in saved[::2])
    marks += tuple(f"{state.round}:{cid}:dying:fell" for cid in saved[1::2])
    marks += tuple(f"{state.round - 1}:{cid}:dying:holds on" for cid in ids)  # last round's
    return state.update(system_state=LiveHackState(turn_marks=marks))


def test_the_round_end_save_reads_the_marks_once(monkeypatch: pytest.MonkeyPatch) -> None:
    state = all_solo(crowd("livehack", CROWD))
    ids = [c.id for c in state.combatants]
    state = dying(state, ids[:30], ids[:29])
    walks = [0]
    reading = solo.marks

    def counted(*args: Any) -> list[str]:
        walks[0] += 1
        return reading(*args)

    monkeypatch.setattr(solo, "marks", counted)
    move = solo._round_end_save(state)
    assert move is not None and move.actor_id == ids[29]
    assert isinstance(move.command, LiveHackSave) and move.command.kind == "dying"
    assert walks[0] == 0  # before: one walk through the marks for each of the 30 dying
    assert solo._round_end_save(dying(state, ids[:30], ids[:30])) is None


def test_an_id_with_a_colon_is_read_as_the_marks_say() -> None:
    state = all_solo(crowd("livehack", 4))
    first = state.combatants[0]
    # Its marks begin as its namesake's would ("1:c1:x:dying..."): each is read as its own.
    odd = structs.replace(state.combatants[1], id=f"{first.id}:x")
    state = state.update(combatants=(first, odd, *state.combatants[2:]))
    state = dying(state, [first.id, odd.id], [odd.id])
    move = solo._round_end_save(state)
    assert move is not None and move.actor_id == first.id
    state = dying(state, [first.id, odd.id], [first.id])
    move = solo._round_end_save(state)
    assert move is not None and move.actor_id == odd.id
