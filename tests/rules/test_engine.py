"""The engine: the roster, the turn order, conditions and their expiry, and bad input."""

import re

import pytest

from rules.commands import (
    AddCombatant,
    AddCondition,
    AddNote,
    EditCombatant,
    MoveCombatant,
    NextTurn,
    RemoveCombatant,
    RemoveCondition,
)
from rules.conditions import Duration
from rules.engine import MAX_NAME, apply, decide, describe, fold, new_encounter
from rules.errors import Rejected
from rules.events import CombatantMoved, ConditionRemoved, NoteAdded, TurnAdvanced
from rules.registry import get_system
from tests.helpers import (
    a_demo_sheet,
    a_scripted_system,
    advance,
    condition_names,
    encounter,
    new_history,
    no_dice,
    order,
    people,
    run,
    who,
)

UNTIL_NEXT_TURN = Duration("end-of-next-turn")


def rejects(history, command, match):
    with pytest.raises(Rejected, match=match) as caught:
        decide(history.state, command, no_dice())
    assert caught.value.message == str(caught.value)


def position(history):
    return history.state.round, history.state.current_id


# --- the encounter ----------------------------------------------------------------------------


def test_a_new_encounter_needs_a_name():
    with pytest.raises(Rejected, match="name"):
        new_encounter("   ", a_scripted_system())


def test_a_new_encounter_needs_a_known_system():
    with pytest.raises(Rejected, match="unknown rule system 'gurps'"):
        new_encounter("Ambush", "gurps")


def test_a_new_encounter_starts_empty_in_round_one():
    state = new_history("  Ambush  ").state
    assert (state.name, state.system, state.round) == ("Ambush", a_scripted_system(), 1)
    assert state.combatants == ()
    assert state.current_id is None


# --- adding -----------------------------------------------------------------------------------


def test_combatants_get_ids_c1_c2_c3_in_order():
    history = people(3)
    assert order(history) == ["c1", "c2", "c3"]
    assert [c.name for c in history.state.combatants] == ["A", "B", "C"]


def test_the_first_combatant_added_is_the_one_to_act():
    history = people(2)
    assert position(history) == (1, "c1")


def test_a_combatant_gets_the_blank_sheet_and_default_side():
    history = people(1)
    person = who(history, "c1")
    assert person.sheet == get_system(history.state.system).new_sheet()
    assert person.side == "foes"
    assert person.conditions == ()


def test_adding_tidies_whitespace():
    history = new_history()
    run(history, AddCombatant(name="  Grim   Knight ", side="  ", notes=" tall "))
    person = who(history, "c1")
    assert (person.name, person.side, person.notes) == ("Grim Knight", "foes", "tall")


def test_adding_at_an_index_puts_them_there_without_taking_the_turn():
    history = people(2)
    run(history, AddCombatant(name="Early", index=0))
    assert order(history) == ["c3", "c1", "c2"]
    assert history.state.current_id == "c1"


def test_ids_are_never_reused_after_a_removal():
    history = people(2)
    run(history, RemoveCombatant("c2"))
    run(history, AddCombatant(name="New"))
    assert order(history) == ["c1", "c3"]


def test_a_name_with_markup_is_kept_verbatim():
    history = new_history()
    before = history.state
    [event] = run(history, AddCombatant(name="[red]x[/red]"))
    assert who(history, "c1").name == "[red]x[/red]"
    assert "[red]x[/red]" in describe(before, event).plain


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_an_empty_name_is_rejected(name):
    rejects(people(1), AddCombatant(name=name), "needs a name")


def test_a_name_too_long_is_rejected():
    history = people(0)
    rejects(history, AddCombatant(name="x" * (MAX_NAME + 1)), str(MAX_NAME))
    run(history, AddCombatant(name="x" * MAX_NAME))
    assert len(who(history, "c1").name) == MAX_NAME


def names(history):
    return [c.name for c in history.state.combatants]


def test_a_repeated_name_numbers_both_by_an_event_undo_takes_back():
    history = new_history()
    run(history, AddCombatant(name="Bandit", gm_only=True, notes="by the door"))
    before = history.state
    events = run(history, AddCombatant(name="bandit"))
    assert names(history) == ["Bandit 1", "bandit 2"]
    renamed = who(history, "c1")
    assert (renamed.gm_only, renamed.notes) == (True, "by the door")  # only the name changed
    assert describe(before, events[0]).plain == "Bandit is now Bandit 1"
    assert fold(history.effective_events()) == history.state  # a replay gives the same
    history.undo()
    assert names(history) == ["Bandit"]
    history.redo()
    assert names(history) == ["Bandit 1", "bandit 2"]
    run(history, AddCombatant(name="Bandit"))
    assert names(history) == ["Bandit 1", "bandit 2", "Bandit 3"]


def test_numbers_go_on_after_the_highest_and_a_typed_number_is_kept():
    history = new_history()
    for name in ("Bandit 1", "Bandit 3", "Bandit 7", "Goblin Sneak", "Goblin"):
        run(history, AddCombatant(name=name))
    assert names(history) == ["Bandit 1", "Bandit 3", "Bandit 7", "Goblin Sneak", "Goblin"]
    run(history, AddCombatant(name="Bandit"))  # after the highest: a number never comes back
    run(history, AddCombatant(name="Bandit 3"))  # taken: the next number
    run(history, AddCombatant(name="Goblin"))  # "Goblin Sneak" is another name
    assert names(history)[5:] == ["Bandit 8", "Bandit 9", "Goblin 2"]
    assert names(history)[4] == "Goblin 1"


def test_a_hidden_newcomer_never_renames_one_the_players_see():
    history = new_history()
    run(history, AddCombatant(name="Bandit"))
    [_added] = run(history, AddCombatant(name="Bandit", gm_only=True))  # no rename event
    assert names(history) == ["Bandit", "Bandit 1"]
    run(history, AddCombatant(name="Bandit"))
    assert names(history) == ["Bandit 2", "Bandit 1", "Bandit 3"]


def test_a_numbered_name_stays_within_the_longest_name():
    history = new_history()
    run(history, AddCombatant(name="x" * MAX_NAME))
    run(history, AddCombatant(name="x" * MAX_NAME))
    assert names(history) == ["x" * (MAX_NAME - 2) + " 1", "x" * (MAX_NAME - 2) + " 2"]


# --- editing ----------------------------------------------------------------------------------


def test_editing_changes_only_what_is_given_and_keeps_conditions():
    history = people(2)
    sheet = a_demo_sheet(history.state.system)
    assert sheet != who(history, "c2").sheet
    run(history, AddCondition("c2", "Prone"))
    run(history, EditCombatant(combatant_id="c2", name="Bob", sheet=sheet))
    person = who(history, "c2")
    assert (person.name, person.side, person.sheet) == ("Bob", "foes", sheet)
    assert condition_names(history, "c2") == ["Prone"]
    assert order(history) == ["c1", "c2"]


def test_an_edit_that_changes_nothing_gives_no_events():
    history = people(1)
    assert decide(history.state, EditCombatant(combatant_id="c1", name="A"), no_dice()) == []


def test_editing_to_an_empty_name_is_rejected():
    rejects(people(1), EditCombatant(combatant_id="c1", name=" "), "needs a name")


def test_editing_an_unknown_id_is_rejected():
    rejects(people(1), EditCombatant(combatant_id="c7", name="Z"), "c7")


# --- removing and moving ----------------------------------------------------------------------


def test_removing_someone_else_keeps_the_turn():
    history = people(3)
    run(history, RemoveCombatant("c2"))
    assert order(history) == ["c1", "c3"]
    assert history.state.current_id == "c1"


def test_removing_the_current_actor_passes_the_turn_to_the_next():
    history = people(3)
    advance(history)  # c2 acts
    run(history, RemoveCombatant("c2"))
    assert position(history) == (1, "c3")


def test_removing_everybody_leaves_nobody_to_act():
    history = people(1)
    run(history, RemoveCombatant("c1"))
    assert history.state.combatants == ()
    assert history.state.current_id is None
    rejects(history, NextTurn(), "nobody")


def test_removing_the_last_actor_while_acting_starts_the_next_round():
    history = people(3)
    advance(history, 2)  # c3, last in the order, acts in round 1
    run(history, RemoveCombatant("c3"))
    assert position(history) == (2, "c1")


def test_removing_the_acting_one_ends_their_turn_like_next_turn():
    history = people(3)
    run(history, AddCondition("c1", "Blessed", Duration("end-of-round")))
    advance(history, 2)  # c3 acts, last in round 1
    events = run(history, RemoveCombatant("c3"))
    assert ConditionRemoved("c1", "Blessed", "expired") in events
    assert TurnAdvanced(round=2, actor_id="c1", previous_id="c3") in events
    assert condition_names(history, "c1") == []
    history.undo()  # one command, one undo
    assert position(history) == (1, "c3")
    assert order(history) == ["c1", "c2", "c3"]


def test_removing_an_unknown_id_is_rejected():
    rejects(people(2), RemoveCombatant("c3"), "c3")


def test_moving_changes_the_order_but_not_the_turn():
    history = people(3)
    run(history, MoveCombatant("c3", 0))
    assert order(history) == ["c3", "c1", "c2"]
    assert history.state.current_id == "c1"


def test_moving_past_the_end_clamps_to_the_last_place():
    history = people(3)
    assert run(history, MoveCombatant("c1", 99)) == [CombatantMoved("c1", 2)]
    assert order(history) == ["c2", "c3", "c1"]
    run(history, MoveCombatant("c1", -5))
    assert order(history) == ["c1", "c2", "c3"]


def test_moving_to_the_same_place_gives_no_events():
    assert decide(people(3).state, MoveCombatant("c2", 1), no_dice()) == []


def test_moving_an_unknown_id_is_rejected():
    rejects(people(2), MoveCombatant("c9", 0), "c9")


# --- turns ------------------------------------------------------------------------------------


def test_next_turn_walks_the_order_and_wraps_to_a_new_round():
    history = people(3)
    seen = []
    for _ in range(4):
        advance(history)
        seen.append(position(history))
    assert seen == [(1, "c2"), (1, "c3"), (2, "c1"), (2, "c2")]


def test_next_turn_event_records_who_acted_before():
    history = people(2)
    assert run(history, NextTurn()) == [TurnAdvanced(round=1, actor_id="c2", previous_id="c1")]
    assert run(history, NextTurn()) == [TurnAdvanced(round=2, actor_id="c1", previous_id="c2")]


def test_next_turn_with_nobody_is_rejected():
    rejects(new_history(), NextTurn(), "nobody")


def test_the_turn_passes_in_the_systems_own_turn_order(monkeypatch):
    history = people(4)
    system = get_system(history.state.system)
    # A system's order: the fourth goes first, the second takes no turn.
    monkeypatch.setattr(
        type(system),
        "turn_order",
        lambda self, state: tuple(state.find(cid) for cid in ("c4", "c1", "c3")),
    )
    seen = []
    for _ in range(4):
        advance(history)
        seen.append(position(history))
    assert seen == [(1, "c3"), (2, "c4"), (2, "c1"), (2, "c3")]
    monkeypatch.setattr(type(system), "turn_order", lambda self, state: ())
    rejects(history, NextTurn(), "nobody takes a turn")


def test_a_lone_combatant_starts_a_new_round_each_turn():
    history = people(1)
    advance(history, 3)
    assert position(history) == (4, "c1")


def test_the_new_round_is_in_the_log():
    history = people(1)
    before = history.state
    [event] = run(history, NextTurn())
    assert "Round 2" in describe(before, event).plain


# --- condition expiry -------------------------------------------------------------------------


def test_end_of_next_turn_for_someone_still_to_act_ends_with_their_turn_this_round():
    history = people(3)  # c1 acts
    run(history, AddCondition("c2", "Dazed", UNTIL_NEXT_TURN))
    advance(history)  # c2's turn begins
    assert condition_names(history, "c2") == ["Dazed"]
    events = run(history, NextTurn())  # c2's turn ends
    assert ConditionRemoved("c2", "Dazed", "expired") in events
    assert condition_names(history, "c2") == []
    assert position(history) == (1, "c3")


def test_end_of_next_turn_during_their_own_turn_lasts_to_the_end_of_their_next_turn():
    history = people(3)
    advance(history)  # c2 acts in round 1
    run(history, AddCondition("c2", "Dazed", UNTIL_NEXT_TURN))
    advance(history, 3)  # c3, then round 2: c1, then c2's turn again
    assert position(history) == (2, "c2")
    assert condition_names(history, "c2") == ["Dazed"]
    advance(history)
    assert condition_names(history, "c2") == []


def test_end_of_next_turn_for_someone_who_already_acted_lasts_into_next_round():
    history = people(3)
    advance(history, 2)  # c3 acts; c1 already did
    run(history, AddCondition("c1", "Dazed", UNTIL_NEXT_TURN))
    advance(history)  # round 2, c1's turn
    assert condition_names(history, "c1") == ["Dazed"]
    advance(history)
    assert condition_names(history, "c1") == []


def test_end_of_next_turn_for_the_last_actor_survives_the_round_wrap():
    history = people(2)
    advance(history)  # c2, last in order, acts
    run(history, AddCondition("c2", "Dazed", UNTIL_NEXT_TURN))
    events = run(history, NextTurn())
    assert not any(isinstance(e, ConditionRemoved) for e in events)
    advance(history)  # c2's turn in round 2
    events = run(history, NextTurn())
    assert events.count(ConditionRemoved("c2", "Dazed", "expired")) == 1


def test_end_of_round_lasts_until_the_round_wraps():
    history = people(3)
    advance(history)  # c2 acts
    run(history, AddCondition("c1", "Blessed", Duration("end-of-round")))
    advance(history)  # c3 acts, still round 1
    assert condition_names(history, "c1") == ["Blessed"]
    advance(history)  # round 2
    assert condition_names(history, "c1") == []


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_n_rounds_lasts_until_the_end_of_the_nth_round(rounds):
    history = people(2)
    run(history, AddCondition("c2", "Hasted", Duration("rounds", rounds)))
    for _ in range(rounds):
        assert condition_names(history, "c2") == ["Hasted"]
        advance(history, 2)
    assert history.state.round == rounds + 1
    assert condition_names(history, "c2") == []


def test_until_removed_never_expires():
    history = people(3)
    run(history, AddCondition("c2", "Cursed"))
    advance(history, 30)
    assert history.state.round == 11
    assert condition_names(history, "c2") == ["Cursed"]
    [event] = run(history, RemoveCondition("c2", "Cursed"))
    assert event == ConditionRemoved("c2", "Cursed", "removed")
    assert condition_names(history, "c2") == []


def test_expiry_only_touches_the_expiring_condition():
    history = people(2)
    run(history, AddCondition("c2", "Dazed", UNTIL_NEXT_TURN))
    run(history, AddCondition("c2", "Cursed"))
    run(history, AddCondition("c1", "Dazed", UNTIL_NEXT_TURN))
    advance(history, 2)  # c2's turn ends, round 2 begins
    assert condition_names(history, "c2") == ["Cursed"]
    assert condition_names(history, "c1") == ["Dazed"]


# --- condition names --------------------------------------------------------------------------


def test_condition_names_are_case_insensitive_for_removal():
    history = people(1)
    run(history, AddCondition("c1", "Prone"))
    [event] = run(history, RemoveCondition("c1", "PRONE"))
    assert event.name == "Prone"
    assert condition_names(history, "c1") == []


def test_adding_a_condition_again_in_another_case_replaces_it():
    history = people(1)
    run(history, AddCondition("c1", "Prone"))
    run(history, AddCondition("c1", "prone", Duration("end-of-round")))
    person = who(history, "c1")
    assert [c.name for c in person.conditions] == ["prone"]
    assert person.condition("PRONE").duration == Duration("end-of-round")


def test_condition_names_are_tidied():
    history = people(1)
    run(history, AddCondition("c1", "  On   fire "))
    assert condition_names(history, "c1") == ["On fire"]


def test_removing_a_condition_they_do_not_have_is_rejected():
    rejects(people(1), RemoveCondition("c1", "Prone"), "A is not Prone")


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_condition_name_is_rejected(name):
    rejects(people(1), AddCondition("c1", name), "needs a name")


def test_a_condition_on_an_unknown_id_is_rejected():
    rejects(people(1), AddCondition("c2", "Prone"), "c2")


@pytest.mark.parametrize("rounds", [0, -1])
def test_a_condition_lasting_fewer_than_one_round_is_rejected(rounds):
    rejects(people(1), AddCondition("c1", "Hasted", Duration("rounds", rounds)), "at least 1")


# --- notes and other commands -----------------------------------------------------------------


def test_a_note_is_logged_without_changing_the_state():
    history = people(1)
    before = history.state
    [event] = run(history, AddNote("  the door creaks ", "c1"))
    assert event == NoteAdded("the door creaks", "c1")
    assert history.state == before


@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_note_is_rejected(text):
    rejects(people(1), AddNote(text), "text")


def test_a_note_about_an_unknown_id_is_rejected():
    rejects(people(1), AddNote("hi", "c4"), "c4")


def test_an_unknown_command_is_rejected():
    history = people(1)
    title = get_system(history.state.system).title
    rejects(history, object(), f"object is not a command of {re.escape(title)}$")


def test_fold_gives_the_state_of_applying_each_event():
    history = people(3)
    run(history, AddCondition("c2", "Prone"))
    advance(history, 4)
    assert fold(history.effective_events()) == history.state


def test_fold_needs_the_creation_first():
    history = people(1)
    with pytest.raises(ValueError):
        fold(history.effective_events()[1:])


def test_creation_cannot_be_applied_mid_log():
    history = people(1)
    with pytest.raises(ValueError):
        apply(history.state, history.effective_events()[0])


def test_state_is_never_edited_in_place():
    history = encounter(a_demo_sheet(a_scripted_system()), None)
    before = history.state
    snapshot = (before.round, before.current_id, order(history))
    run(history, AddCondition("c1", "Prone"))
    advance(history, 2)
    assert (before.round, before.current_id, [c.id for c in before.combatants]) == snapshot
    assert before.combatants[0].conditions == ()


def test_adding_at_a_place_outside_the_order_is_refused() -> None:
    from rules.commands import AddCombatant
    from rules.errors import Rejected
    from tests.helpers import people

    history = people(2)
    with pytest.raises(Rejected, match="outside the turn order"):
        decide(history.state, AddCombatant(name="X", index=-1), no_dice())
    with pytest.raises(Rejected, match="outside the turn order"):
        decide(history.state, AddCombatant(name="X", index=3), no_dice())
    (event,) = decide(history.state, AddCombatant(name="X", index=2), no_dice())
    assert event.index == 2
