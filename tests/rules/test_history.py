"""History: undo and redo as records of their own, and replaying a log."""

from functools import cache

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import rules.history
from rules.commands import AddCombatant, AddCondition, AddNote, NextTurn, RemoveCondition
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.engine import fold
from rules.errors import Rejected
from rules.history import KEPT, Applied, History, Redone, Undone
from rules.registry import get_system
from rules.snapshot import encode, open_lazily
from tests.contract.support import SEED, demo
from tests.helpers import (
    a_demo_sheet,
    a_scripted_system,
    encounter,
    new_history,
    order,
    roll_to_apply,
    run,
)


def grown(count):
    """A history where each of ``count`` commits adds one combatant, with each state."""
    history = new_history()
    states = [history.state]
    for i in range(count):
        run(history, AddCombatant(name=f"P{i}"))
        states.append(history.state)
    return history, states


@pytest.mark.parametrize("steps", [1, 2, 5])
def test_undo_any_number_of_steps(steps):
    history, states = grown(5)
    for _ in range(steps):
        history.undo()
    assert history.state == states[5 - steps]
    assert len(history.state.combatants) == 5 - steps


def test_undo_back_to_the_start_then_redo_everything():
    history, states = grown(4)
    for _ in range(4):
        history.undo()
    assert history.state == states[0]
    assert not history.can_undo
    for expected in states[1:]:
        history.redo()
        assert history.state == expected
    assert not history.can_redo


def test_undo_and_redo_hand_back_the_record():
    history, _ = grown(2)
    newest = history.records[-1]
    assert history.undo() is newest
    assert history.redo() is newest


def test_a_new_commit_clears_redo():
    history, _ = grown(3)
    history.undo()
    assert history.can_redo
    run(history, NextTurn())
    assert not history.can_redo
    with pytest.raises(Rejected, match="nothing to redo"):
        history.redo()


def test_undo_at_the_start_is_rejected():
    history = new_history()
    with pytest.raises(Rejected, match="nothing to undo"):
        history.undo()
    assert history.records == [Applied(history.records[0].events, "new encounter")]


def test_redo_with_nothing_undone_is_rejected():
    history, _ = grown(1)
    with pytest.raises(Rejected, match="nothing to redo"):
        history.redo()


def test_records_only_grow():
    history, _ = grown(2)
    before = list(history.records)
    history.undo()
    assert history.records == [*before, Undone()]
    history.redo()
    assert history.records == [*before, Undone(), Redone()]
    history.undo()
    run(history, NextTurn())
    assert history.records[: len(before)] == before
    assert len(history.records) == len(before) + 4
    assert isinstance(history.records[-1], Applied)


def test_effective_events_leave_out_what_is_undone():
    history, _ = grown(3)
    history.undo()
    added = history.effective_events()[1:]
    assert [e.combatant.name for e in added] == ["P0", "P1"]
    assert fold(history.effective_events()) == history.state


def test_replaying_the_records_gives_the_same_history():
    history, _ = grown(4)
    history.undo()
    history.undo()
    history.redo()
    replayed = History.from_records(history.records)
    assert replayed.state == history.state
    assert replayed.records == history.records
    assert (replayed.can_undo, replayed.can_redo) == (history.can_undo, history.can_redo)
    replayed.redo()
    history.redo()
    assert replayed.state == history.state


def test_a_log_must_open_with_the_creation():
    history, _ = grown(2)
    with pytest.raises(ValueError):
        History.from_records(history.records[1:])
    with pytest.raises(ValueError):
        History.from_records([])


def test_a_log_cannot_undo_more_than_it_did():
    history, _ = grown(1)
    with pytest.raises(ValueError):
        History.from_records([*history.records, Undone(), Undone()])
    with pytest.raises(ValueError):
        History.from_records([*history.records, Redone()])


def test_undo_restores_the_roll_to_be_applied_again():
    history = encounter(a_demo_sheet(a_scripted_system()), None)
    seed = roll_to_apply(history)
    rolled = history.state
    system = get_system(rolled.system)
    run(history, system.consequence_command(rolled), SeededDice(seed))
    applied = history.state
    assert applied != rolled
    history.undo()
    assert history.state == rolled and not history.state.last_roll_applied
    run(history, system.consequence_command(history.state), SeededDice(seed))
    assert history.state == applied


# --- a random session -------------------------------------------------------------------------

NAMES = st.sampled_from(["Orc", "Elf", "Rat", "[b]Boss[/b]"])
CONDITIONS = st.sampled_from(["Prone", "prone", "Dazed", "Blessed"])
DURATIONS = st.one_of(
    st.builds(Duration, st.sampled_from(["until-removed", "end-of-next-turn", "end-of-round"])),
    st.builds(Duration, st.just("rounds"), st.integers(1, 3)),
)


@cache
def sheets(system):
    """A blank sheet and the demo's: a fight of stronger and weaker sides, as a table has."""
    blank = get_system(system).new_sheet()
    return [blank, *(c.sheet for c in demo(system).state.combatants)]


class Session(RuleBasedStateMachine):
    """Random commands, undo and redo; the log must always replay to the live state."""

    def __init__(self):
        super().__init__()
        self.history = new_history()
        self.system = get_system(self.history.state.system)
        self.sheets = sheets(self.system.name)

    @initialize(sheet=st.integers(0, 99))
    def two_sides(self, sheet):
        hero = AddCombatant(name="Hero", side="heroes", sheet=self.sheet(sheet))
        run(self.history, hero)
        run(self.history, AddCombatant(name="Foe"))

    def sheet(self, index):
        return self.sheets[index % len(self.sheets)]

    def attempt(self, command, dice=None):
        before = (self.history.state, list(self.history.records))
        try:
            run(self.history, command, dice)
        except Rejected as exc:
            assert exc.message
            assert (self.history.state, self.history.records) == before

    def pick(self, index):
        ids = order(self.history)
        return ids[index % len(ids)] if ids else "c99"

    @rule(name=NAMES, sheet=st.integers(0, 99))
    def add_combatant(self, name, sheet):
        self.attempt(AddCombatant(name=name, sheet=self.sheet(sheet)))

    @rule()
    def next_turn(self):
        self.attempt(NextTurn())

    @rule(
        seed=st.integers(0, 2**32),
        attacker=st.integers(0, 9),
        fields=st.lists(st.integers(0, 15), max_size=20),
    )
    def roll(self, seed, attacker, fields):
        """The roll dialog for one combatant, each of its fields in turn given a choice or a
        number from -3 to 8 by what is drawn for it, or else its default."""
        state = self.history.state
        try:
            form = self.system.action_form(state, "roll", self.pick(attacker))
        except Rejected:
            return
        drawn = iter(fields)
        values = {field.key: self.value(field, next(drawn, 99)) for field in form}
        try:
            command = self.system.action_command(state, "roll", values)
        except Rejected:
            return
        self.attempt(command, SeededDice(seed))

    @staticmethod
    def value(field, drawn):
        if field.choices:
            return field.choices[drawn][0] if drawn < len(field.choices) else field.default
        return str(drawn - 3) if field.kind == "int" and drawn < 12 else field.default

    @rule()
    def apply_consequence(self):
        self.attempt(self.system.consequence_command(self.history.state), SeededDice(SEED))

    @rule(who=st.integers(0, 9), name=CONDITIONS, duration=DURATIONS)
    def add_condition(self, who, name, duration):
        self.attempt(AddCondition(self.pick(who), name, duration))

    @rule(who=st.integers(0, 9), name=CONDITIONS)
    def remove_condition(self, who, name):
        self.attempt(RemoveCondition(self.pick(who), name))

    @precondition(lambda self: self.history.can_undo)
    @rule()
    def undo(self):
        before = len(self.history.records)
        self.history.undo()
        assert len(self.history.records) == before + 1

    @precondition(lambda self: self.history.can_redo)
    @rule()
    def redo(self):
        self.history.redo()

    @invariant()
    def replay_matches_the_live_state(self):
        replayed = History.from_records(self.history.records)
        assert replayed.state == self.history.state
        assert replayed.records == self.history.records
        assert (replayed.can_undo, replayed.can_redo) == (
            self.history.can_undo,
            self.history.can_redo,
        )

    @invariant()
    def folding_the_effective_events_matches(self):
        assert fold(self.history.effective_events()) == self.history.state


# 70 runs: a system's own tests run more with its roll's options (a subclass of Session).
Session.TestCase.settings = settings(max_examples=70, stateful_step_count=25, deadline=None)
test_random_session_replays = Session.TestCase


def noted(count: int) -> History:
    history = encounter(None, None, names=["Ann", "Orc"])
    for number in range(count):
        run(history, AddNote(f"note {number}"))
    return history


def test_a_refolded_save_keeps_a_state_every_kept_records_and_an_undo_folds_few(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = noted(3 * KEPT + 5)
    opened = open_lazily(encode(played))
    assert [step for step, (_, state) in enumerate(opened._done) if state is not None] == [
        0,
        len(opened._done) - 1,
    ]
    opened.refold()
    known = [step for step, (_, state) in enumerate(opened._done) if state is not None]
    assert known == [0, KEPT, 2 * KEPT, 3 * KEPT, len(opened._done) - 1]
    applied: list[object] = []
    real = rules.history.apply
    monkeypatch.setattr(rules.history, "apply", lambda s, e: applied.append(e) or real(s, e))
    for _ in range(KEPT + 3):
        opened.undo()
        played.undo()
        assert opened.state == played.state
    assert len(applied) <= 2 * KEPT


def test_the_sparse_pairs_are_in_effects_with_only_the_states_known() -> None:
    played = noted(2 * KEPT)
    played.undo()
    for history in (played, open_lazily(encode(played))):
        pairs, sparse = list(history.in_effect()), list(history.in_effect_sparse())
        assert [event for event, _ in sparse] == [event for event, _ in pairs]
        assert sparse[0][1] is not None
        given = [(state, sparse[n][1]) for n, (_, state) in enumerate(pairs)]
        assert all(known is None or known == state for state, known in given)
    assert all(state is not None for _, state in played.in_effect_sparse())  # notes: one each
