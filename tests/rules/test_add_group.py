"""AddCombatants: a group added in one step, numbered as one at a time; the sheet hooks a
library and a party carried over rely on."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant, AddCombatants
from rules.dice import SeededDice
from rules.engine import MAX_GROUP, decide, fold_onto, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.permissions import refusal
from rules.registry import get_system, names, part
from rules.visibility import Viewer
from tests.picks import a_system


def test_a_group_is_numbered_and_undone_in_one_step() -> None:
    history = History(new_encounter("Ambush", a_system()))
    history.commit(decide(history.state, AddCombatant(name="Goblin"), SeededDice(1)), "one")
    group = AddCombatants((AddCombatant(name="Goblin"),) * 2)
    history.commit(decide(history.state, group, SeededDice(1)), "two more")
    # Sorted: a system may order the fight by the initiative it rolls as they join.
    assert sorted(c.name for c in history.state.combatants) == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert len({c.id for c in history.state.combatants}) == 3
    history.undo()
    assert [c.name for c in history.state.combatants] == ["Goblin"]


@pytest.mark.parametrize("count", [0, MAX_GROUP + 1])
def test_a_group_is_bounded(count: int) -> None:
    state = fold_onto(History(new_encounter("A", a_system())).state, [])
    with pytest.raises(Rejected):
        decide(state, AddCombatants((AddCombatant(name="Bandit"),) * count), SeededDice(1))


def test_only_the_gm_adds_a_group() -> None:
    state = History(new_encounter("A", a_system())).state
    player = Viewer(role="player", assigned=frozenset())
    assert refusal(state, player, AddCombatants((AddCombatant(name="X"),))) is not None


@pytest.mark.parametrize("name", names())
def test_a_fresh_sheet_is_whole_and_stays_so(name: str) -> None:
    state = part(name, "demo").build().state
    system = get_system(state.system)
    kinds = system.sheet_kinds()
    assert type(kinds[0][1]) is type(system.new_sheet())
    for combatant in state.combatants:
        fresh = system.fresh_sheet(combatant.sheet)
        assert system.fresh_sheet(fresh) == fresh
        whole = combatant.__class__(id=combatant.id, name=combatant.name, sheet=fresh)
        assert not system.out_of_fight(state, whole)
