"""The table's turn options in the rules: initiative rolled again each round (every die in its
event, so a replay needs none), delay and act, a readied reaction, and the turn clock's limit
as encounter state, each undone and replayed."""

from __future__ import annotations

import pytest

from rules.commands import Act, Delay, NextTurn, Ready, SetInitiative, SetOption
from rules.dice import SeededDice
from rules.engine import describe
from rules.errors import Rejected
from rules.events import HoldEnded, InitiativeSet, OptionSet, OrderSorted, TurnAdvanced
from rules.history import History
from rules.table_options import seconds
from tests.helpers import advance, order, people, run, who


def ranked(count: int) -> History:
    """``count`` combatants with initiatives count..1 (c1 highest), c1 acting."""
    history = people(count)
    for index in range(count):
        run(history, SetInitiative(f"c{index + 1}", str(count - index)))
    return history


def test_initiative_rolled_again_as_each_round_begins_with_every_die_kept() -> None:
    history = ranked(3)
    run(history, SetOption("init-each-round", "on"))
    advance(history, 2)  # c3 acts: the next turn ends the round
    events = run(history, NextTurn(), SeededDice(7))
    rolled = [e for e in events if isinstance(e, InitiativeSet)]
    assert [e.combatant_ids for e in rolled] == [("c1",), ("c2",), ("c3",)]
    assert all(e.roll is not None for e in rolled)  # the dice are in the events
    assert any(isinstance(e, OrderSorted) for e in events)
    ranks = [who(history, cid).initiative or 0 for cid in order(history)]
    assert ranks == sorted(ranks, reverse=True)  # the order follows the new rolls
    assert {who(history, e.combatant_ids[0]).initiative for e in rolled} == {
        e.initiative for e in rolled
    }
    assert history.state.round == 2 and history.state.current_id == order(history)[0]
    assert History.from_records(history.records).state == history.state  # no dice to replay


def test_initiative_kept_between_rounds_unless_the_option_is_on() -> None:
    history = ranked(2)
    advance(history, 2)  # no dice: rolling anything would fail the scripted source
    assert history.state.round == 2 and order(history) == ["c1", "c2"]


def test_the_option_set_is_undone_and_said_in_the_log() -> None:
    history = ranked(2)
    events = run(history, SetOption("init-each-round", "on"))
    assert history.state.options.reroll_each_round
    assert "rolled again each round" in describe(history.state, events[0]).plain
    history.undo()
    assert not history.state.options.reroll_each_round


@pytest.mark.parametrize(
    ("typed", "value"), [("90", 90), ("90s", 90), ("2m", 120), ("1m30s", 90), ("1:30", 90)]
)
def test_a_turn_limit_reads_as_typed(typed: str, value: int) -> None:
    assert seconds(typed) == value


@pytest.mark.parametrize("typed", ["", "soon", "2h", "1:75", "-3", "9" * 40])
def test_a_turn_limit_that_is_not_one_is_refused_in_one_line(typed: str) -> None:
    history = ranked(1)
    with pytest.raises(Rejected) as refused:
        run(history, SetOption("turn-limit", typed))
    assert "\n" not in refused.value.message


def test_a_turn_limit_set_and_taken_off_is_state_and_an_event() -> None:
    history = ranked(1)
    events = run(history, SetOption("turn-limit", "2m"))
    assert events == [OptionSet("turn-limit", "2:00")]
    assert history.state.options.turn_limit == 120
    assert run(history, SetOption("turn-limit", "2:00")) == []  # set so already: nothing
    run(history, SetOption("turn-limit", "off"))
    assert history.state.options.turn_limit == 0


def test_a_delaying_combatant_takes_no_turn_until_it_acts() -> None:
    history = ranked(3)
    run(history, Delay("c1"))  # on its own turn: the turn passes on
    assert who(history, "c1").delaying and history.state.current_id == "c2"
    advance(history, 1)
    assert history.state.current_id == "c3"
    advance(history, 1)  # a new round: c1 is still out of the order
    assert history.state.round == 2 and history.state.current_id == "c2"


def test_act_puts_the_delayer_before_the_one_acting_with_its_initiative() -> None:
    history = ranked(3)
    run(history, Delay("c1"))
    advance(history, 1)  # c3 acts
    events = run(history, Act("c1"))
    assert HoldEnded("c1", "acted") in events
    assert order(history) == ["c2", "c1", "c3"]
    assert who(history, "c1").initiative == who(history, "c3").initiative
    assert history.state.current_id == "c1" and not who(history, "c1").delaying
    advance(history, 1)  # the one it stepped in front of acts after it
    assert history.state.current_id == "c3"
    history.undo()
    history.undo()
    assert who(history, "c1").delaying and history.state.current_id == "c3"


def test_a_readied_reaction_is_spent_by_act_and_lapses_at_its_turn() -> None:
    history = ranked(2)
    run(history, Ready("c2", "when the door opens"))
    assert who(history, "c2").ready == "when the door opens"
    run(history, Act("c2"))
    assert who(history, "c2").ready == ""
    run(history, Ready("c1", "when the goblin moves"))
    events = run(history, NextTurn())
    events += run(history, NextTurn())  # c1's next turn begins: its reaction lapses
    assert HoldEnded("c1", "lapsed") in events and who(history, "c1").ready == ""
    assert any(isinstance(e, TurnAdvanced) for e in events)


def test_act_for_one_holding_nothing_is_refused_in_one_line() -> None:
    history = ranked(2)
    with pytest.raises(Rejected, match="neither delaying nor holding"):
        run(history, Act("c2"))
    with pytest.raises(Rejected, match="trigger"):
        run(history, Ready("c2", "  "))
