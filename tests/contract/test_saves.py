"""Save and reopen: the same fight, and the same bytes when saved again."""

from __future__ import annotations

from rules.system import RuleSystem

from .support import Rolled, check_save_round_trip


def test_the_demo_saves_and_reopens_as_it_was(history):
    check_save_round_trip(history)


def test_the_demo_after_a_roll_saves_and_reopens_as_it_was(system: RuleSystem, rolled: Rolled):
    check_save_round_trip(rolled.history)


def test_undo_and_redo_records_save_and_reopen(rolled: Rolled):
    rolled.history.undo()
    check_save_round_trip(rolled.history)
    rolled.history.redo()
    check_save_round_trip(rolled.history)
