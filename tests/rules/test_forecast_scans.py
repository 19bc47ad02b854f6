"""A forecast's moves cost what they change, not the size of the fight (issue 45): who is out
is asked again only of a combatant a move changed, and a combatant is found by its id without
a walk through the turn order. Counted, never timed."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec import structs

from rules import registry
from rules.commands import AddCombatant
from rules.dice import ANY_FACE
from rules.encounter import Combatant, Encounter
from rules.engine import apply, decide
from rules.forecast import play_out
from rules.outcome import followed, outcome, watch
from tests.rules.test_forecast import duel  # noqa: F401  # a fixture

CROWD = 40


def crowded(state: Encounter, size: int) -> Encounter:
    """The duel with duellists added, every other one on each side, up to ``size``."""
    for number in range(len(state.combatants), size):
        side = ("left", "right")[number % 2]
        for event in decide(state, AddCombatant(name=f"D{number}", side=side), ANY_FACE):
            state = apply(state, event)
    return state


def test_a_forecast_asks_who_is_out_only_of_the_combatants_a_move_changed(
    duel: Encounter,  # noqa: F811  # the fixture imported above
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = crowded(duel, CROWD)
    system = registry.get_system(state.system)
    asked = [0]
    hits = [0]
    asking, applying = type(system).out_of_fight, type(system).apply

    def counted_asking(self: Any, state: Encounter, combatant: Combatant[Any]) -> str:
        asked[0] += 1
        return asking(self, state, combatant)

    def counted_applying(self: Any, state: Encounter, event: Any) -> Encounter:
        hits[0] += event.face == 6  # a six: its target's sheet made again (out, or out still)
        return applying(self, state, event)

    monkeypatch.setattr(type(system), "out_of_fight", counted_asking)
    monkeypatch.setattr(type(system), "apply", counted_applying)
    ending = play_out(state, seed=3, rounds=4)
    assert ending.rounds == 4 and hits[0] > 10  # a long fight: many hits, each one a change
    # Everyone once at the start, then the one each hit changed: before, everyone each time.
    assert asked[0] == CROWD + hits[0]


def test_following_a_fight_gives_the_outcome_worked_out_whole(duel: Encounter) -> None:  # noqa: F811
    state = crowded(duel, 6)
    seen = watch(state)
    for index in (0, 3, 1, 2, 4):
        target = state.combatants[index]
        sheet = structs.replace(target.sheet, hit=True)
        state = state.replace_combatant(structs.replace(target, sheet=sheet))
        seen = followed(seen, state)
        assert seen.result == outcome(state)
    assert seen.result.over and seen.result.winner == "right"
    assert list(seen.result.out) == [c.id for c in state.combatants if c.sheet.hit]  # in order
    renamed = state.update(combatants=(*state.combatants[1:], state.combatants[0]))  # reordered
    assert followed(seen, renamed).result == outcome(renamed)
    joined = crowded(state, 8)  # two more: the left side is back in the fight
    assert followed(seen, joined).result == outcome(joined)
    assert not outcome(joined).over


class CountedOrder(tuple[Combatant[Any], ...]):
    """A turn order that counts the walks through it."""

    walks = 0

    def __iter__(self) -> Any:
        CountedOrder.walks += 1
        return super().__iter__()


def test_finding_combatants_walks_the_turn_order_once_not_once_a_look_up(
    duel: Encounter,  # noqa: F811  # the fixture imported above
) -> None:
    state = crowded(duel, CROWD)
    order = CountedOrder(state.combatants)
    state = state.update(combatants=order)
    members = list(order)
    CountedOrder.walks = 0
    for combatant in reversed(members):
        assert state.find(combatant.id) is combatant
    for place, combatant in enumerate(members):
        assert state.index_of(combatant.id) == place
    assert state.find("nobody") is None and state.index_of("nobody") == -1
    assert state.find(None) is None and state.index_of(None) == -1
    assert CountedOrder.walks <= 1
    # A combatant replaced keeps every place: the new order is known without a walk either.
    target = state.combatants[7]
    changed = state.replace_combatant(structs.replace(target, notes="hit"))
    assert changed.find(target.id) == structs.replace(target, notes="hit")
    assert [changed.index_of(c.id) for c in changed.combatants] == list(range(CROWD))
    assert changed.update(round=2).find(target.id) is changed.combatants[7]


def test_an_id_held_twice_is_found_first_and_replaced_in_each_place(duel: Encounter) -> None:  # noqa: F811
    first, second = duel.combatants
    twice = duel.update(combatants=(first, structs.replace(second, id=first.id)))
    assert twice.find(first.id) is first and twice.index_of(first.id) == 0
    again = twice.replace_combatant(structs.replace(first, notes="both"))
    assert [c.notes for c in again.combatants] == ["both", "both"]
    assert duel.replace_combatant(structs.replace(first, id="c99")).combatants == duel.combatants


@pytest.mark.parametrize("reads_state", [True, False])
def test_a_move_that_changed_the_systems_state_asks_everyone_only_where_the_word_reads_it(
    duel: Encounter,  # noqa: F811  # the fixture imported above
    monkeypatch: pytest.MonkeyPatch,
    reads_state: bool,
) -> None:
    state = crowded(duel, CROWD)
    system = registry.get_system(state.system)
    monkeypatch.setattr(type(system), "out_of_fight_reads_state", reads_state)
    seen = watch(state)
    asked = [0]
    asking = type(system).out_of_fight

    def counted(self: Any, state: Encounter, combatant: Combatant[Any]) -> str:
        asked[0] += 1
        return asking(self, state, combatant)

    monkeypatch.setattr(type(system), "out_of_fight", counted)
    target = state.combatants[5]
    hit = state.replace_combatant(
        structs.replace(target, sheet=structs.replace(target.sheet, hit=True))
    )
    moved = hit.update(system_state=structs.replace(hit.system_state))  # an action spent...
    assert moved.system_state is not state.system_state
    followed_up = followed(seen, moved)
    # The bundled systems' words read the combatant alone: the one hit is asked, not all 40.
    assert asked[0] == (CROWD if reads_state else 1)
    assert followed_up.result == outcome(moved) and target.id in followed_up.result.out


@pytest.mark.parametrize("name", registry.names())
def test_a_system_that_says_its_word_reads_the_combatant_alone_gives_it_whatever_its_state(
    name: str,
) -> None:
    system = registry.get_system(name)
    demo = registry.part(name, "demo")
    if system.out_of_fight_reads_state or demo is None:
        pytest.skip(f"{name}'s out_of_fight may read the system's state")
    state = demo.build().state
    fresh = state.update(system_state=system.new_state())  # the demo's tokens, marks... gone
    assert [system.out_of_fight(fresh, c) for c in state.combatants] == [
        system.out_of_fight(state, c) for c in state.combatants
    ]
