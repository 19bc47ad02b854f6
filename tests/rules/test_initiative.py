"""Initiative in the rules: the sort (stable, a permutation), every die in the event (a
replay needs none), the system's hooks, what players see, and saves from before it."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec import structs

from rules.commands import (
    AddCombatant,
    AddCombatants,
    RollInitiative,
    SetInitiative,
    SortInitiative,
)
from rules.dice import ScriptedDice
from rules.encounter import Combatant, Encounter
from rules.engine import decide, fold, fold_onto, initial_state, new_encounter
from rules.errors import Rejected
from rules.events import InitiativeSet, OrderSorted
from rules.history import History
from rules.initiative import sorted_order
from rules.permissions import refusal
from rules.registry import all_systems
from rules.visibility import Viewer, sight
from tests.helpers import rolls_initiative_on_add

WITH_ORDER = next(s for s in all_systems() if s.uses_turn_order and not rolls_initiative_on_add(s))
WITHOUT_ORDER = [s for s in all_systems() if not s.uses_turn_order]


@pytest.fixture
def plain_d20(monkeypatch: pytest.MonkeyPatch) -> None:
    """WITH_ORDER rolls the default bare 1d20 (``Turns.initiative_dice``), whatever its
    own: these tests script d20 faces, and which system is picked depends on which folders
    are there (LiveHack's initiative is no d20)."""
    monkeypatch.setattr(type(WITH_ORDER), "initiative_dice", lambda self, state, c: "1d20")


def empty(system: str = WITH_ORDER.name) -> Encounter:
    return initial_state(new_encounter("Ambush", system))


def run(state: Encounter, command: object, *faces: int) -> tuple[Encounter, list[Any]]:
    events = decide(state, command, ScriptedDice(faces))
    return fold_onto(state, events), events


def party(state: Encounter) -> Encounter:
    state, _ = run(state, AddCombatants((AddCombatant(name="Orla"), AddCombatant(name="Bram"))))
    state, _ = run(state, AddCombatants((AddCombatant(name="Goblin"),) * 3, together=True))
    return state


@given(st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=12))
def test_the_sort_is_a_stable_permutation(values: list[int | None]) -> None:
    people = [
        Combatant(id=f"c{i}", name=f"P{i}", initiative=v, sheet=WITH_ORDER.new_sheet())
        for i, v in enumerate(values)
    ]
    ordered = sorted_order(WITH_ORDER, people)
    assert sorted(c.id for c in ordered) == sorted(c.id for c in people)  # a permutation
    ranks = [(c.initiative is not None, c.initiative or 0) for c in ordered]
    assert ranks == sorted(ranks, reverse=True)  # highest first, those without last
    for one, two in pairwise(ordered):
        if one.initiative == two.initiative:  # a tie keeps the order it had
            assert people.index(one) < people.index(two)


@pytest.mark.usefixtures("plain_d20")
def test_every_die_is_in_the_events_and_a_replay_needs_none() -> None:
    history = History(new_encounter("Ambush", WITH_ORDER.name))
    for command, faces in (
        (AddCombatants((AddCombatant(name="Orla"), AddCombatant(name="Bram"))), ()),
        (AddCombatants((AddCombatant(name="Goblin"),) * 2, together=True), ()),
        (SetInitiative("c1", "2d6+1"), (4, 5)),
        (RollInitiative(), (11, 16)),
    ):
        history.commit(decide(history.state, command, ScriptedDice(faces)), "step")
    events = [e for e in history.effective_events() if isinstance(e, InitiativeSet)]
    assert [(e.initiative, e.roll and e.roll.total) for e in events] == [
        (10, 10),
        (11, 11),
        (16, 16),
    ]
    assert events[0].roll is not None and events[0].roll.groups[0].chains == ((4,), (5,))
    assert events[2].combatant_ids == ("c3", "c4")  # the group: one roll
    assert fold(history.effective_events()) == history.state  # no dice to replay


def test_a_number_sets_it_and_a_check_or_nonsense_is_refused() -> None:
    state = party(empty())
    after, events = run(state, SetInitiative("c2", "-2"))
    assert after.combatant("c2").initiative == -2 and events[0].roll is None
    for bad in ("1d20 >= 10", "fish", "1d20+"):
        with pytest.raises(Rejected):
            run(state, SetInitiative("c2", bad), 5)
    with pytest.raises(Rejected, match="no combatant"):
        run(state, SetInitiative("c99", "3"))


def test_roll_needs_someone_without_and_sort_someone_with() -> None:
    state = party(empty())
    with pytest.raises(Rejected, match="nobody has an initiative"):
        run(state, SortInitiative())
    state, _ = run(state, RollInitiative("7"))
    with pytest.raises(Rejected, match="everyone has an initiative"):
        run(state, RollInitiative())
    with pytest.raises(Rejected, match="already follows"):
        run(state, SortInitiative())


@pytest.mark.usefixtures("plain_d20")
def test_a_sort_before_anyone_acted_gives_the_turn_to_the_top() -> None:
    state = party(empty())
    assert state.current_id == "c1"
    state, events = run(state, RollInitiative(), 3, 9, 14)
    assert isinstance(events[-1], OrderSorted)
    assert [c.name for c in state.combatants][:3] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert state.current_id == state.combatants[0].id


@pytest.mark.parametrize("system", WITHOUT_ORDER, ids=lambda s: s.name)
def test_a_system_without_a_turn_order_refuses_in_its_own_words(system: Any) -> None:
    state = party(empty(system.name))
    for command in (SetInitiative("c1", "3"), RollInitiative(), SortInitiative()):
        with pytest.raises(Rejected) as refused:
            run(state, command, 5)
        assert refused.value.message == system.why_no_initiative()
        assert system.title in refused.value.message


def test_the_system_hooks_roll_on_add_share_in_a_group_and_break_ties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kind = type(WITH_ORDER)
    monkeypatch.setattr(kind, "initiative_dice", lambda self, state, c: "1d20+3")
    monkeypatch.setattr(kind, "initiative_on_add", lambda self, state, c: c.side == "foes")
    # The lair loses every tie; the others keep theirs.
    monkeypatch.setattr(
        kind, "initiative_tiebreak", lambda self, c: (-1 if c.name == "Lair" else 0,)
    )
    state, _ = run(empty(), AddCombatant(name="Orla", side="party"))
    assert state.combatant("c1").initiative is None  # not a foe: waits for :init
    state, events = run(state, AddCombatants((AddCombatant(name="Goblin"),) * 2, together=True), 9)
    assert [e.initiative for e in events if isinstance(e, InitiativeSet)] == [12]  # one roll
    state, _ = run(state, SetInitiative("c1", "20"))
    state, _ = run(state, AddCombatant(name="Lair"), 9)  # 12 too: after the goblins
    assert [c.name for c in state.combatants] == ["Orla", "Goblin 1", "Goblin 2", "Lair"]
    state = state.replace_combatant(structs.replace(state.combatant("c4"), initiative=12))
    moved = [state.combatants[i] for i in (0, 3, 1, 2)]
    state = state.update(combatants=tuple(moved))  # the lair moved up by hand
    state, _ = run(state, SortInitiative())
    assert [c.name for c in state.combatants] == ["Orla", "Goblin 1", "Goblin 2", "Lair"]


@pytest.mark.usefixtures("plain_d20")
def test_players_see_the_sort_without_who_is_hidden() -> None:
    state = party(empty())
    state, _ = run(state, AddCombatant(name="Assassin", gm_only=True))
    before = state
    state, events = run(state, RollInitiative(), 1, 2, 3, 20)
    sort = events[-1]
    assert isinstance(sort, OrderSorted) and "c6" in sort.order_ids
    player = sight(state, Viewer(role="player", assigned=frozenset({"c1"})))
    pairs = player.pairs([(sort, before)], state)
    assert pairs and "c6" not in pairs[0][0].order_ids  # type: ignore[attr-defined]
    assert all(c.id != "c6" for c in player.state.combatants)


def test_a_player_sets_their_own_initiative_only() -> None:
    state = party(empty())
    player = Viewer(role="player", assigned=frozenset({"c1"}))
    assert refusal(state, player, SetInitiative("c1", "1d20")) is None
    assert refusal(state, player, SetInitiative("c2", "1d20")) is not None
    assert refusal(state, player, RollInitiative()) is not None
    assert refusal(state, player, SortInitiative()) is not None
