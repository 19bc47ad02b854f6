"""Generic d20's initiative on the core's turn order: d20 + the sheet's bonus rolled as a
combatant joins, ties to the higher bonus, a group added together on one roll, a lair at 20
losing ties, and the first turn to the highest."""

from __future__ import annotations

from msgspec import structs

from rules.commands import AddCombatant, AddCombatants, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, fold_onto, initial_state, new_encounter
from rules.events import InitiativeSet
from rules.registry import get_system
from rules.systems.d20.sheet import LAIR, D20Sheet
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET

SYSTEM = get_system("d20")


def empty():
    return initial_state(new_encounter("Init", "d20"))


def add(state, name, sheet, *faces, side="foes"):
    dice = ScriptedDice(faces)
    events = decide(state, AddCombatant(name=name, side=side, sheet=sheet), dice)
    assert dice.remaining == 0
    return fold_onto(state, events), events


def test_each_rolls_d20_plus_its_bonus_as_it_joins_every_die_in_the_log():
    quick = structs.replace(HERO_SHEET, initiative=3)
    state, events = add(empty(), "Orla", quick, 11, side="party")
    (rolled,) = [e for e in events if isinstance(e, InitiativeSet)]
    assert rolled.initiative == 14 and rolled.roll is not None
    assert rolled.roll.notation == "1d20+3" and rolled.roll.total == 14
    assert state.combatant("c1").initiative == 14


def test_the_order_follows_initiative_and_the_first_turn_goes_to_the_highest():
    state, _ = add(empty(), "Slow", FOE_SHEET, 3)
    state, _ = add(state, "Fast", FOE_SHEET, 18)
    state, _ = add(state, "Middle", FOE_SHEET, 10)
    assert [c.name for c in state.combatants] == ["Fast", "Middle", "Slow"]
    assert state.current_id == "c2"


def test_a_tie_goes_to_the_higher_bonus():
    low = structs.replace(FOE_SHEET, initiative=1)
    high = structs.replace(FOE_SHEET, initiative=4)
    state, _ = add(empty(), "Low", low, 14)  # 15
    state, _ = add(state, "High", high, 11)  # 15
    assert [c.name for c in state.combatants] == ["High", "Low"]


def test_a_group_added_together_shares_one_roll():
    members = tuple(AddCombatant(name="Goblin", sheet=FOE_SHEET) for _ in range(3))
    state = empty()
    dice = ScriptedDice([9])  # fixed hit points: one die for the three
    events = decide(state, AddCombatants(members, together=True), dice)
    state = fold_onto(state, events)
    rolls = [e for e in events if isinstance(e, InitiativeSet)]
    assert len(rolls) == 1 and len(rolls[0].combatant_ids) == 3
    assert {c.initiative for c in state.combatants} == {9}
    assert dice.remaining == 0


def test_a_group_joins_in_the_order_it_was_added_among_those_with_initiatives():
    """`--add "Ghoul x2"` after a party that had rolled: they shared a 3 and went Ghoul 2
    before Ghoul 1, placed while Ghoul 1 had no initiative yet."""
    state, _ = add(empty(), "Orla", HERO_SHEET, 9, side="party")
    state, _ = add(state, "Bram", HERO_SHEET, 19, side="party")
    members = tuple(AddCombatant(name="Ghoul", sheet=FOE_SHEET) for _ in range(2))
    state = fold_onto(state, decide(state, AddCombatants(members, True), ScriptedDice([3])))
    assert [c.name for c in state.combatants] == ["Bram", "Orla", "Ghoul 1", "Ghoul 2"]


def test_each_of_a_group_takes_its_own_place_mid_fight():
    """Each rolling its own, after the first turn (no sort follows): the second placed by
    the first's roll too, not as if the first had none (a tie went before it)."""
    state, _ = add(empty(), "Orla", HERO_SHEET, 9, side="party")
    state, _ = add(state, "Bram", HERO_SHEET, 19, side="party")
    state = fold_onto(state, decide(state, NextTurn(), ScriptedDice([])))
    members = tuple(AddCombatant(name="Imp", sheet=FOE_SHEET) for _ in range(2))
    state = fold_onto(state, decide(state, AddCombatants(members), ScriptedDice([5, 5])))
    ranked = [(c.name, c.initiative) for c in state.combatants]
    assert ranked == [("Bram", 19), ("Orla", 9), ("Imp 1", 5), ("Imp 2", 5)], ranked


def test_a_lair_acts_at_20_and_loses_every_tie():
    state, _ = add(empty(), "Hero", structs.replace(HERO_SHEET, initiative=0), 20, side="party")
    state, events = add(state, "Lair", D20Sheet(kind=LAIR))  # no die: a fixed 20
    assert [e.initiative for e in events if isinstance(e, InitiativeSet)] == [20]
    state, _ = add(state, "Slow", FOE_SHEET, 5)
    assert [c.name for c in state.combatants] == ["Hero", "Lair", "Slow"]
    lair = state.combatant("c2")
    assert SYSTEM.out_of_fight(state, lair) == "lair"  # takes its turn, fights for no side
    assert lair in SYSTEM.turn_order(state)
