"""An undo on a served table takes players' view back to what they saw before the record
(remembered for the last ``SEEN_BEFORE`` records), not through the whole history again: on
a long fight that took seconds of the loop every seat shares. What they see after it, and
the whole fight as their logs read it, is what a table opened afresh on the same fight
would show them; a seat sitting down is handed that view as the table keeps it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.commands import AddCondition, AddNote, EditCombatant, NextTurn
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.errors import Rejected
from rules.history import KEPT
from rules.mentions import mentioned
from rules.snapshot import encode, open_lazily
from rules.visibility import Viewer, follow, hidden_ids, seen_after, seen_alone
from tests.contract.support import demo, values_of
from tests.picks import every_system, has_demo
from tracker.serve import seats
from tracker.serve.seats import SeatSession, Table
from tracker.session import EncounterSession

PLAYER = Viewer(role="player", name="Alice")
STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["next", "roll", "roll", "condition", "note", "undo", "undo", "redo", "hide", "show"]
        ),
        st.integers(0, 7),
    ),
    max_size=14,
)


def step(session: EncounterSession, kind: str, pick: int) -> None:
    state = session.state
    system = session.system
    who = state.combatants[pick % len(state.combatants)]
    commands: dict[str, Any] = {
        "next": NextTurn(),
        "condition": AddCondition(who.id, "Marked", Duration("end-of-round")),
        "note": AddNote("a note", who.id),
        "hide": EditCombatant(combatant_id=who.id, gm_only=True),
        "show": EditCombatant(combatant_id=who.id, gm_only=False),
    }
    try:
        if kind == "undo":
            if session.history.can_undo:
                session.undo()
        elif kind == "redo":
            if session.history.can_redo:
                session.redo()
        elif kind == "roll":  # the roll dialog's defaults, for the picked combatant
            values = values_of(system.action_form(state, "roll", who.id))
            session.execute(system.action_command(state, "roll", values))
        else:
            session.execute(commands[kind])
    except Rejected:
        pass


@pytest.mark.parametrize("name", every_system(has_demo))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hide=st.integers(0, 7), steps=STEPS, seed=st.integers(0, 2**16))
def test_players_see_after_an_undo_what_a_fresh_table_shows(
    name: str, hide: int, steps: list[tuple[str, int]], seed: int
) -> None:
    session = EncounterSession(demo(name), SeededDice(seed))
    people = session.state.combatants
    session.execute(EditCombatant(combatant_id=people[hide % len(people)].id, gm_only=True))
    table = Table(session)
    table.subscribe_public(lambda change: None)  # a seat listening: changes are followed on
    table.sight(PLAYER)
    table.public_pairs()  # a seat sat down: the whole view is kept and followed on
    for kind, pick in steps:
        step(session, kind, pick)
        fresh = Table(session)
        history = session.history
        hidden = frozenset(hidden_ids(history.effective_events(), history.state))
        whole = follow(history.in_effect(), history.state, hidden)[1]
        # A fresh table works what players see now out from the state alone where it can.
        assert fresh.sight(PLAYER).state == whole, (kind, pick)
        assert table.sight(PLAYER).state == whole, (kind, pick)
        assert table.public_pairs() == fresh.public_pairs(), (kind, pick)
        fresh.close()
    table.close()


def counted_follows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each run of events the table works players' view out over, from now."""
    followed: list[int] = []

    def counted(pairs: Any, *args: Any, **kwargs: Any) -> Any:
        listed = list(pairs)
        followed.append(len(listed))
        return follow(listed, *args, **kwargs)

    monkeypatch.setattr("tracker.serve.seats.follow", counted)
    return followed


def test_seats_sitting_down_share_the_view_the_table_keeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (name,) = every_system(has_demo)[:1]
    session = EncounterSession(demo(name), SeededDice(1))
    table = Table(session)
    table.subscribe_public(lambda change: None)
    first = SeatSession(table, table.join("player", "Alice")).history.in_effect()
    session.execute(AddNote("a note", None))
    followed = counted_follows(monkeypatch)
    second = SeatSession(table, table.join("spectator", "Sam")).history.in_effect()
    assert not followed  # the table's view, followed on from the note: nothing worked out
    assert len(second) == len(first) + 1
    assert all(a[1] is b[1] for a, b in zip(first, second, strict=False))  # the same states


def test_undos_do_not_go_through_the_history_again(monkeypatch: pytest.MonkeyPatch) -> None:
    (name,) = every_system(has_demo)[:1]
    session = EncounterSession(demo(name), SeededDice(1))
    table = Table(session)
    table.subscribe_public(lambda change: None)
    table.sight(PLAYER)
    whole = len(list(session.history.in_effect()))
    followed = counted_follows(monkeypatch)
    for number in range(seats.SEEN_BEFORE + 2):
        session.execute(AddNote(f"note {number}", None))
    for _ in range(seats.SEEN_BEFORE):
        session.undo()
        table.sight(PLAYER)
    assert max(followed) < whole, followed  # only each change's own events
    session.undo()  # further back than remembered: what players see now, from the state
    table.sight(PLAYER)
    assert max(followed) < whole, followed
    assert not table.view_kept  # their view of the whole fight: when a seat sits down
    table.public_pairs()
    assert max(followed) >= whole


def test_the_view_worked_out_off_the_loop_is_kept_only_if_the_fight_has_not_changed() -> None:
    (name,) = every_system(has_demo)[:1]
    session = EncounterSession(demo(name), SeededDice(1))
    table = Table(session)
    stale = table.view_work()
    fresh = table.view_work()
    assert stale is not None and fresh is not None
    keep_stale = stale()
    session.execute(AddNote("meanwhile", None))
    keep_stale()  # worked out before the note: not kept
    assert table.view_work() is not None
    fresh_table = Table(session)
    work = table.view_work()
    assert work is not None
    work()()
    assert table.view_work() is None  # kept
    assert table.public_pairs() == fresh_table.public_pairs()


def rolled_then_hidden(name: str, notes: int) -> EncounterSession | None:
    """A fight of ``notes`` notes and a roll, then a turn, as many notes and a roll again,
    then a combatant the second roll names and the first does not hidden, if players may
    then not see the last roll at all (None if the system shows it concealed, or its demo
    does not roll so)."""
    session = EncounterSession(demo(name), SeededDice(3))
    everyone = frozenset(c.id for c in session.state.combatants)
    named: list[frozenset[str]] = []
    for turn in range(2):
        for number in range(notes):
            session.execute(AddNote(f"note {number}", None))
        if turn:
            session.execute(NextTurn())
        state = session.state
        who = state.current_id or state.combatants[0].id
        values = values_of(session.system.action_form(state, "roll", who))
        try:
            session.execute(session.system.action_command(state, "roll", values))
        except Rejected:  # its demo's roll waits on something else first
            return None
        named.append(mentioned(session.state.last_roll, everyone))
    later = sorted(named[1] - named[0])
    if not later:
        return None
    session.execute(EditCombatant(combatant_id=later[0], gm_only=True))
    history = session.history
    hidden = frozenset(hidden_ids(history.effective_events(), history.state))
    return None if seen_alone(history.state, hidden) else session


@pytest.mark.parametrize("opened", ["played", "opened", "opened unchecked", "opened near its end"])
def test_a_hidden_last_roll_is_worked_out_from_the_last_one_players_saw(
    monkeypatch: pytest.MonkeyPatch, opened: str
) -> None:
    """With the last roll one players may not see, what they see comes from the newest
    state known whose roll they could, not from the whole fight (a played fight knows
    every record's state, a save opened every KEPT-th record's once checked)."""
    found = [s for name in every_system(has_demo) if (s := rolled_then_hidden(name, 2 * KEPT))]
    assert found, "no system hides a hidden combatant's roll whole"
    walked: list[int] = []

    def counted(pairs: Any, *args: Any) -> Any:
        listed = list(pairs)
        walked.append(len(listed))
        return seen_after(listed, *args)

    monkeypatch.setattr("tracker.serve.seats.seen_after", counted)
    if opened != "opened near its end":  # saved with no state near its end (History.near_end)
        monkeypatch.setattr("rules.history.NEAR", 10**6)
    for played in found:
        walked.clear()
        history = played.history
        if opened != "played":
            history = open_lazily(encode(history))
            if opened == "opened":
                history.refold()
            elif opened == "opened near its end":  # as storage.open_save(check_later=True)
                history.fold_tail()
            assert history.near_known == (opened == "opened near its end")
        session = EncounterSession(history, SeededDice(1))
        hidden = frozenset(hidden_ids(history.effective_events(), history.state))
        whole = follow(history.in_effect(), history.state, hidden)[1]
        assert Table(session).sight(PLAYER).state == whole
        events = len(list(history.in_effect()))
        if opened == "opened unchecked":  # nothing known but the first state and the last
            assert walked == [events]
        else:
            # Since the last state known before the hidden roll: the newest record's, or
            # the last of every KEPT-th.
            # A save's state near its end is the newest known but the last: its tail is
            # folded as it opens.
            bound = KEPT + 10 if opened == "opened" else 10
            assert walked and walked[0] < bound, walked
