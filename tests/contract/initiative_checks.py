"""The contract's check of the initiative hooks."""

from __future__ import annotations

from rules.dice import SeededDice
from rules.engine import decide
from rules.errors import Rejected
from rules.history import History
from rules.system import RuleSystem

from .support import SEED, check_save_round_trip


def check_initiative(system: RuleSystem, history: History) -> None:
    """The initiative hooks on a demo: with a turn order, each combatant's dice roll to a
    number (no goal), its tie-break is a tuple of integers, everyone rolled and sorted is
    one step, saved and undone; without one, every initiative command is refused in the
    system's own line."""
    from rules.commands import RollInitiative, SetInitiative, SortInitiative
    from rules.initiative import roll as roll_initiative

    state = history.state
    why = system.why_no_initiative()
    assert bool(why) != system.uses_turn_order, "why_no_initiative: a line without turn order"
    if why:
        for command in (RollInitiative(), SortInitiative(), SetInitiative("c1", "3")):
            try:
                decide(state, command, SeededDice(SEED))
            except Rejected as exc:
                assert exc.message == why
            else:
                raise AssertionError(f"{system.name} took {command!r} without a turn order")
        return
    for combatant in state.combatants:
        value, rolled = roll_initiative(system.initiative_dice(state, combatant), SeededDice(SEED))
        assert isinstance(value, int) and (rolled is None or not rolled.goal)
        tiebreak = system.initiative_tiebreak(combatant)
        assert isinstance(tiebreak, tuple) and all(isinstance(t, int) for t in tiebreak)
        assert isinstance(system.initiative_on_add(state, combatant), bool)
    before = history.state
    waiting = [c for c in before.combatants if c.initiative is None]
    if waiting:
        history.commit(decide(before, RollInitiative(), SeededDice(SEED)), "roll initiative")
        after = history.state
        assert all(c.initiative is not None for c in after.combatants)
        assert sorted(c.id for c in after.combatants) == sorted(c.id for c in before.combatants)
        check_save_round_trip(history)
        history.undo()
        assert history.state == before
