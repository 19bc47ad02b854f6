"""What a roll leaves waiting: said in one line, applied by d (or its dialog), or discarded
with a line in the log, never dropped without a word."""

from __future__ import annotations

from rules.system import RuleSystem

from .support import Rolled, check_pending, demo, states_in_effect


def test_what_waits_after_the_roll_is_said_and_can_be_discarded(system: RuleSystem, rolled: Rolled):
    check_pending(system, rolled.history)


def test_what_waits_anywhere_in_the_demo_is_said_and_can_be_discarded(system: RuleSystem):
    """Every point of the demo, undone to in turn: a system whose demo never leaves anything
    waiting still has the roll above checked."""
    history = demo(system.name)
    points = len(states_in_effect(history))
    for _ in range(points - 1):
        check_pending(system, history)
        history.undo()
