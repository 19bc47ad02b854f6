"""History with LiveHack's rolls: undo gives back a roll to apply, and the random session of
tests/rules/test_history.py played with LiveHack's roll options (its defenses, Take Zero and
Take Ten, attack and reflex on every sheet), which hit and apply far more often than the roll
dialog's defaults (moved from tests/rules/test_history.py)."""

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, rule

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackRoll,
    LiveHackSheet,
)
from tests.helpers import new_history, order, run
from tests.rules.test_history import NAMES, Session

TAKES = st.sampled_from(["roll", "zero", "ten"])


def test_undo_restores_the_roll_to_be_applied_again():
    history = new_history(system=SYSTEM.name)
    run(history, AddCombatant(name="A", sheet=LiveHackSheet(attack=3)))
    run(history, AddCombatant(name="B"))
    roll = LiveHackRoll(
        attacker_id="c1",
        defender_id="c2",
        defense="fortitude",
        attacker_take="zero",
        defender_take="zero",
    )
    run(history, roll)
    run(history, LiveHackApplyConsequence())
    history.undo()
    assert not history.state.last_roll_applied
    assert history.state.combatant("c2").sheet.wounds == 0
    run(history, LiveHackApplyConsequence())
    assert history.state.combatant("c2").sheet.wounds == 1


class LiveHackSession(Session):
    """The core's random session (its undo, redo, conditions and checks), LiveHack's rolls."""

    def __init__(self):
        super().__init__()
        self.history = new_history(system=SYSTEM.name)
        self.system = SYSTEM

    @initialize(attack=st.integers(0, 12))
    def two_sides(self, attack):
        hero = AddCombatant(name="Hero", side="heroes", sheet=LiveHackSheet(attack=attack))
        run(self.history, hero)
        run(self.history, AddCombatant(name="Foe"))

    @rule(name=NAMES, attack=st.integers(-3, 8), reflex=st.integers(-3, 8))
    def add_combatant(self, name, attack, reflex):
        self.attempt(AddCombatant(name=name, sheet=LiveHackSheet(attack=attack, reflex=reflex)))

    @rule(
        seed=st.integers(0, 2**32),
        attacker=st.integers(0, 9),
        defender=st.integers(0, 9),
        defense=st.sampled_from(["reflex", "fortitude", "will"]),
        takes=st.tuples(TAKES, TAKES),
    )
    def roll(self, seed, attacker, defender, defense, takes):
        ids = order(self.history)
        step = 1 + defender % max(1, len(ids) - 1)  # someone else, when there is anyone
        command = LiveHackRoll(
            attacker_id=self.pick(attacker),
            defender_id=self.pick(attacker + step),
            defense=defense,
            attacker_take=takes[0],
            defender_take=takes[1],
        )
        self.attempt(command, SeededDice(seed))

    @rule()
    def apply_consequence(self):
        self.attempt(LiveHackApplyConsequence())


# 30 runs: with the 70 of the core's own session, the 100 it ran as one.
LiveHackSession.TestCase.settings = settings(max_examples=30, stateful_step_count=25, deadline=None)
test_random_session_replays = LiveHackSession.TestCase
