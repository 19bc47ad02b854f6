"""The end of the fight: who is out of it, what each event dealt, how each roll landed."""

from __future__ import annotations

from rules.history import History
from rules.outcome import followed, watch
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


def test_who_is_out_followed_move_by_move_is_who_is_out(system: RuleSystem, rolled: Rolled):
    """A forecast follows who is out move by move (``rules.outcome.followed``): the same as
    asking everyone afresh, with the system's state as it is or started afresh; when the system
    says ``out_of_fight`` reads the combatant alone (``out_of_fight_reads_state`` False), the words
    are the same whatever that state."""
    state = rolled.history.state
    fresh = state.update(system_state=system.new_state())
    for after in (state, fresh):
        assert followed(watch(rolled.before), after).words == watch(after).words
    if not system.out_of_fight_reads_state:
        assert watch(state).words == watch(fresh).words
