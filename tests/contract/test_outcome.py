"""The end of the fight: who is out of it, what each event dealt, how each roll landed."""

from __future__ import annotations

from rules.history import History
from rules.system import RuleSystem

from .support import Rolled, check_consequence, check_outcome


def test_the_demo_sums_up(system: RuleSystem, history: History):
    check_outcome(system, history)


def test_the_demo_after_a_roll_and_its_consequence_sums_up(system: RuleSystem, rolled: Rolled):
    """The roll counts, and lands for whom ``roll_luck`` says; the consequence deals what
    ``damage`` says."""
    check_consequence(system, rolled)
    figures = check_outcome(system, rolled.history)
    assert figures.rolls >= 1
