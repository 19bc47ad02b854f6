"""Beer Run's solo move in a fight of 40 (issue 45): every combatant is asked in turn until
one has a move, and the round they all read (the pools built, the successes waiting, whom a
goal names) is worked out once a move, not once a combatant. Counted, never timed."""

from __future__ import annotations

from typing import Any

import pytest

from bench.crowd import crowd
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import apply, decide
from rules.forecast import all_solo
from rules.systems.beerrun import solo

CROWD = 40


def played(moves: int) -> Encounter:
    """A crowd of 40 after ``moves`` solo moves: goals set, pools half built."""
    state = all_solo(crowd("beerrun", CROWD))
    dice = SeededDice(45)
    for _ in range(moves):
        move = solo.next_move(state)
        assert move is not None and move.command is not None
        for event in decide(state, move.command, dice):
            state = apply(state, event)
    return state


def test_a_move_reads_the_round_once_whoever_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    state = played(CROWD + 1)  # 20 with a goal and a pool, the 21st with a goal
    reads: dict[str, int] = {}

    def counted(name: str) -> Any:
        real = getattr(solo, name)

        def counting(*args: Any) -> Any:
            reads[name] = reads.get(name, 0) + 1
            return real(*args)

        return counting

    for name in ("round_pools", "pending_now", "named_in_goal"):
        monkeypatch.setattr(solo, name, counted(name))
    move = solo.next_move(state)
    assert move is not None and type(move.command).__name__ == "BuildPool"
    # Half the crowd asked before the one without a pool: each read the round again before.
    assert reads["round_pools"] == 1
    assert reads.get("pending_now", 0) <= 1
    goals = {(c.side, c.sheet.goal.text) for c in state.combatants if c.sheet.goal}
    assert reads["named_in_goal"] <= len(goals) < CROWD // 2
