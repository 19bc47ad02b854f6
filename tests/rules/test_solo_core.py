"""The system-agnostic part of solo play: solo sides, policies, and the response loop."""

import pytest

from rules import solo
from rules.commands import AddCombatant, EditCombatant, NextTurn, SetPolicy, SetSolo
from rules.dice import ScriptedDice
from rules.engine import describe, fold
from rules.errors import Rejected
from rules.events import NoteAdded, SoloChose, TurnAdvanced
from rules.history import History
from rules.registry import get_system
from rules.solo import Move, Policy
from tests.helpers import new_history, no_dice, run
from tests.picks import a_system, has_turn_order, joins_without_dice

# Turns passed by hand, with no dice: c1 acts first, then c2, then c3.
SYSTEM = a_system(has_turn_order, joins_without_dice)
POLICIES = (Policy("steady", "Steady"), Policy("wild", "Wild"))


@pytest.fixture
def system_with_solo(monkeypatch):
    """The system with a toy solo hook: a solo combatant on its turn just passes it."""
    system = get_system(SYSTEM)

    def solo_move(state):
        actor = state.current
        if actor is not None and state.is_solo(actor):
            return Move(actor.id, NextTurn(), "nothing to do, so it passes")
        return None

    monkeypatch.setattr(type(system), "solo_policies", POLICIES, raising=False)
    monkeypatch.setattr(type(system), "solo_move", lambda self, state: solo_move(state), False)
    return system


def two_sides() -> History:
    history = new_history(system=SYSTEM)
    run(history, AddCombatant(name="Orla", side="heroes"))
    run(history, AddCombatant(name="Goblin", side="foes"))
    run(history, AddCombatant(name="Brak", side="heroes"))
    return history


def test_a_side_must_exist_to_be_played_by_the_tracker():
    with pytest.raises(Rejected, match="no side 'dragons'"):
        run(two_sides(), SetSolo("dragons"))


def test_setting_solo_twice_changes_nothing_and_off_hands_the_side_back():
    history = two_sides()
    run(history, SetSolo("foes"))
    assert history.state.solo_sides == ("foes",)
    assert run(history, SetSolo("foes")) == []
    run(history, SetSolo("foes", on=False))
    assert history.state.solo_sides == ()


def test_a_policy_must_be_one_the_system_offers(system_with_solo):
    history = two_sides()
    with pytest.raises(Rejected, match="no policy 'sneaky' \\(policies: steady, wild\\)"):
        run(history, SetPolicy("c2", "sneaky"))
    run(history, SetPolicy("c2", "wild"))
    goblin = history.state.combatant("c2")
    assert goblin.policy == "wild"
    assert solo.policy_of(history.state, goblin) == "wild"
    assert solo.policy_of(history.state, history.state.combatant("c1")) == "steady"


def test_editing_a_combatant_keeps_its_policy(system_with_solo):
    history = two_sides()
    run(history, SetPolicy("c2", "wild"))
    run(history, EditCombatant(combatant_id="c2", name="Hobgoblin"))
    assert history.state.combatant("c2").policy == "wild"


def test_the_tracker_answers_for_its_side_and_logs_why(system_with_solo):
    history = two_sides()
    run(history, SetSolo("foes"))
    run(history, NextTurn())  # the goblin's turn: the user has not answered yet
    events = solo.respond(history.state, no_dice())
    assert isinstance(events[0], SoloChose)
    assert isinstance(events[-1], TurnAdvanced) and events[-1].actor_id == "c3"
    line = describe(history.state, events[0]).lines[0]
    assert "".join(span.text for span in line) == "⚙ Goblin (steady): nothing to do, so it passes"


def test_nothing_is_played_without_a_solo_side(system_with_solo):
    history = two_sides()
    run(history, NextTurn())
    assert solo.respond(history.state, no_dice()) == []


def test_a_policy_that_never_settles_stops_with_a_note(system_with_solo, monkeypatch):
    system = system_with_solo
    forever = Move("c2", NextTurn(), "round and round")
    monkeypatch.setattr(type(system), "solo_move", lambda self, state: forever, False)
    history = two_sides()
    run(history, SetSolo("foes"))
    events = solo.respond(history.state, ScriptedDice([]))
    assert isinstance(events[-1], NoteAdded) and "stopped" in events[-1].text


def test_the_log_with_solo_events_folds_to_the_same_state(system_with_solo):
    history = two_sides()
    run(history, SetSolo("foes"))
    run(history, SetPolicy("c2", "wild"))
    history.commit(solo.respond(history.state, no_dice()), "solo")
    run(history, NextTurn())
    history.commit(solo.respond(history.state, no_dice()), "solo")
    assert fold(history.effective_events()) == history.state


def test_a_session_plays_the_answer_in_the_same_record_so_one_undo_takes_both(
    system_with_solo,
):
    from tracker.session import EncounterSession

    session = EncounterSession(two_sides(), no_dice())
    session.execute(SetSolo("foes"))
    session.execute(NextTurn())  # to the goblin, who passes at once to Brak
    assert session.state.current_id == "c3"
    session.undo()
    assert session.state.current_id == "c1"


def test_choices_made_inside_a_users_command_are_logged_first(system_with_solo, monkeypatch):
    from tracker.session import EncounterSession

    system = system_with_solo

    def solo_fill(self, state, action, values):
        return {**values, "defense": "ten"}, [Move("c2", None, "takes ten: a sure thing")]

    monkeypatch.setattr(type(system), "solo_fill", solo_fill, False)
    session = EncounterSession(two_sides(), no_dice())
    assert solo.fill(session.state, "roll", {"defense": "roll"}) == ({"defense": "roll"}, [])
    session.execute(SetSolo("foes"))
    values, moves = solo.fill(session.state, "roll", {"defense": "roll"})
    assert values == {"defense": "ten"}
    session.execute(NextTurn(), choices=moves)
    logged = session.history.applied_in_effect()[-1].events[0]
    assert logged == SoloChose("c2", "steady", "takes ten: a sure thing")
