"""Generic d20's solo policies and concentration, issue 40 (D4-08, D4-10, D4-16): a legendary
creature spends every legendary action a round, a prone one stands up before it attacks, and
an incapacitated caster stops concentrating, its effect's conditions lifted."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules.commands import AddCondition, ChangeTrack, NextTurn, SetSolo
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.engine import decide, describe, fold_onto
from rules.errors import Rejected
from rules.events import ConditionRemoved, TurnAdvanced
from rules.history import History
from rules.registry import get_system
from rules.systems.d20.events import (
    LEGENDARY,
    D20Apply,
    D20Attack,
    D20Attacked,
    D20ConcentrationEnded,
    D20LegendaryAction,
    D20SaveEffect,
    D20SetExhaustion,
)
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, fight, history_of, run, sheet

SYSTEM = get_system("d20")
DRAGON = structs.replace(FOE_SHEET, legendary=3, hp=10_000, hp_max=10_000, ac=30)
TOUGH = structs.replace(HERO_SHEET, hp=10_000, hp_max=10_000, ac=30)
ROUNDS = 30


def solo(state: Encounter, *sides: str) -> Encounter:
    for side in sides:
        state = fold_onto(state, decide(state, SetSolo(side, True), None))
    return state


def legendary_a_round(state: Encounter, rounds: int, by_hand: bool = False) -> Counter[int]:
    """The legendary attacks made in each round of a fight the solo sides play (a hero not
    solo passes its turn by hand, as a player presses ``n``): round -> how many."""
    dice, made = SeededDice(40), Counter[int]()
    while state.round <= rounds:
        move = SYSTEM.solo_move(state)
        if move is None:
            assert by_hand, "the solo sides stopped"
            command: Any = NextTurn()
        else:
            command = move.command
        for event in decide(state, command, dice):
            if isinstance(event, D20Attacked) and event.usage == LEGENDARY:
                made[state.round] += 1
            state = fold_onto(state, [event])
    return made


# --- D4-10: a solo legendary creature spends its legendary actions --------------------------------


@pytest.mark.parametrize("dragon_first", [True, False])
def test_a_solo_legendary_creature_against_one_hero_spends_all_three_a_round(dragon_first):
    people = [("Dragon", "foes", DRAGON), ("Orla", "party", TOUGH)]
    state = solo(fight(*(people if dragon_first else people[::-1])), "foes", "party")
    made = legendary_a_round(state, ROUNDS)
    # at the end of Orla's turn, one at a time: three a round (the first round's before it
    # comes at the end of the round when the dragon acts first)
    assert all(made[r] == 3 for r in range(2, ROUNDS)), made
    assert sum(made.values()) >= 3 * (ROUNDS - 1)


def test_a_solo_legendary_creature_against_two_heroes_spends_3_a_round():
    state = fight(("Dragon", "foes", DRAGON), ("Orla", "party", TOUGH), ("Sefi", "party", TOUGH))
    made = legendary_a_round(solo(state, "foes", "party"), ROUNDS)
    assert all(made[r] == 3 for r in range(2, ROUNDS)), made


@pytest.mark.parametrize("heroes", [1, 2])
def test_a_solo_legendary_creature_spends_all_when_the_heroes_turns_are_passed_by_hand(heroes):
    party = [("Orla", "party", TOUGH), ("Sefi", "party", TOUGH)][:heroes]
    state = solo(fight(("Dragon", "foes", DRAGON), *party), "foes")
    made = legendary_a_round(state, ROUNDS, by_hand=True)
    assert all(made[r] == 3 for r in range(2, ROUNDS)), made


def test_a_legendary_action_as_its_own_turn_opens_is_the_end_of_the_turn_before():
    state = fight(("Drake", "foes", structs.replace(DRAGON, legendary=2)),
                  ("Orla", "party", HERO_SHEET))  # fmt: skip
    state, _ = run(state, NextTurn())  # Orla's turn
    state, _ = run(state, D20LegendaryAction("c1", "Wing beat"))
    state, _ = run(state, NextTurn())  # the drake's own turn opens: the end of Orla's
    state, _ = run(state, D20Attack("c1", "c2", usage=LEGENDARY), 1)
    with pytest.raises(Rejected, match=r"0 legendary action\(s\) left this round, not 1"):
        decide(state, D20LegendaryAction("c1", "Wing beat"), None)
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 2/2"  # its own turn
    state, _ = run(state, D20Attack("c1", "c2"), 1)  # its own action: its turn has begun
    with pytest.raises(Rejected, match="another's turn"):
        decide(state, D20Attack("c1", "c2", usage=LEGENDARY), ScriptedDice([1]))


# --- D4-16: a prone solo creature stands up -------------------------------------------------------


def prone_goblin(*more: str) -> Encounter:
    state = solo(fight(("Goblin", "foes", FOE_SHEET), ("Orla", "party", HERO_SHEET)), "foes")
    for name in ("Prone", *more):
        state = fold_onto(state, decide(state, AddCondition("c1", name), None))
    return state


def test_a_prone_solo_creature_stands_up_before_it_attacks():
    state = prone_goblin()
    move = SYSTEM.solo_move(state)
    assert move is not None and move.reason == "stands up (half its movement)"
    events = decide(state, move.command, None)
    assert events == [ConditionRemoved("c1", "Prone")]
    state = fold_onto(state, events)
    attack = SYSTEM.solo_move(state)
    assert attack is not None and attack.reason == "attacks Orla"
    state, _ = run(state, attack.command, 12, 3)
    assert state.last_roll.reasons == ()  # no disadvantage: it stood up


@pytest.mark.parametrize("held", ["grappled", "Restrained"])
def test_a_prone_solo_creature_whose_speed_is_0_attacks_lying_down(held):
    state = prone_goblin(held)
    move = SYSTEM.solo_move(state)
    assert move is not None and move.reason == "attacks Orla"
    state, _ = run(state, move.command, 12, 3)
    assert "-Goblin prone" in state.last_roll.reasons


def test_a_solo_creature_stands_up_once_and_its_turn_goes_on():
    state = prone_goblin()
    said = []
    while not any(isinstance(e, TurnAdvanced) for e in said[-1:]):
        move = SYSTEM.solo_move(state)
        assert move is not None
        said.append(move.reason)
        events = decide(state, move.command, SeededDice(3))
        state = fold_onto(state, events)
        said += events
    reasons = [s for s in said if isinstance(s, str)]
    assert reasons[0] == "stands up (half its movement)" and reasons[1] == "attacks Orla"
    assert reasons.count("stands up (half its movement)") == 1
    assert sheet(state, "c1").hp == FOE_SHEET.hp


# --- D4-08: incapacitation ends concentration ---------------------------------------------------

HOLD = D20SaveEffect("c2", ("c1",), "Hold Person", "wis", 13, "", condition="paralyzed",
                     concentration=True)  # fmt: skip
MAGE = structs.replace(FOE_SHEET, hp=40, hp_max=40)


def holding() -> Encounter:
    """Orla (c1) held paralyzed by the Mage's Hold Person (c2), Sefi (c3) beside her."""
    state = fight(("Orla", "party", HERO_SHEET), ("Mage", "foes", MAGE),
                  ("Sefi", "party", HERO_SHEET))  # fmt: skip
    state, _ = run(state, HOLD, 2)
    state, _ = run(state, D20Apply())
    assert state.combatant("c1").condition("paralyzed") is not None
    assert sheet(state, "c2").concentrating == "Hold Person"
    return state


def lines(state: Encounter, events: list[Any]) -> list[str]:
    out = []
    for event in events:
        out.append(describe(state, event).plain)
        state = fold_onto(state, [event])
    return out


@pytest.mark.parametrize(
    "condition", ["Stunned", "paralyzed", "Paralysed", "petrified", "unconscious", "incapacitated"]
)
def test_an_incapacitated_caster_stops_concentrating_and_its_victim_is_free(condition):
    state = holding()
    events = decide(state, AddCondition("c2", condition), None)
    state = fold_onto(state, events)
    assert sheet(state, "c2").concentrating == ""
    assert state.combatant("c1").condition("paralyzed") is None
    why = "incapacitated" if condition == "incapacitated" else f"{condition.lower()}: incapacitated"
    if condition == "Paralysed":
        why = "paralyzed: incapacitated"
    said = lines(holding(), events)
    assert f"Mage stops concentrating on Hold Person ({why})" in said, said
    assert any("Orla" in line and "paralyzed" in line for line in said[2:]), said


@pytest.mark.parametrize("condition", ["prone", "poisoned", "frightened", "restrained", "Hexed"])
def test_a_condition_that_does_not_incapacitate_leaves_the_concentration(condition):
    state = holding()
    state = fold_onto(state, decide(state, AddCondition("c2", condition), None))
    assert sheet(state, "c2").concentrating == "Hold Person"
    assert state.combatant("c1").condition("paralyzed") is not None


def test_a_caster_stunned_by_a_save_effect_stops_concentrating():
    state = holding()
    stun = D20SaveEffect("c3", ("c2",), "Stunning Strike", "con", 30, "", condition="stunned")
    state, _ = run(state, stun, 2)
    state, events = run(state, D20Apply())
    assert sheet(state, "c2").concentrating == ""
    assert state.combatant("c1").condition("paralyzed") is None
    assert any(isinstance(e, D20ConcentrationEnded) and e.why == "stunned" for e in events)


def test_a_caster_dropped_to_0_by_hand_stops_concentrating():
    state = holding()
    state = fold_onto(state, decide(state, ChangeTrack("c2", 40), None))
    assert sheet(state, "c2").hp == 0 and sheet(state, "c2").concentrating == ""
    assert state.combatant("c1").condition("paralyzed") is None


def test_a_caster_dead_of_exhaustion_stops_concentrating():
    state = holding()
    events = decide(state, D20SetExhaustion("c2", 6), None)
    assert "Mage stops concentrating on Hold Person (dead)" in lines(state, events)
    state = fold_onto(state, events)
    assert sheet(state, "c2").concentrating == ""
    assert state.combatant("c1").condition("paralyzed") is None


def test_when_the_only_target_it_held_dies_the_concentration_ends():
    hold = structs.replace(HOLD, source_id="c1", target_ids=("c2",))  # Orla holds the Mage
    state = fight(("Orla", "party", HERO_SHEET), ("Mage", "foes", MAGE))
    state, _ = run(state, hold, 2)
    state, _ = run(state, D20Apply())
    assert sheet(state, "c1").concentrating == "Hold Person"
    before = state
    state = fold_onto(before, decide(before, ChangeTrack("c2", 40), None))
    assert sheet(state, "c2").dead
    assert sheet(state, "c1").concentrating == ""
    said = lines(before, decide(before, ChangeTrack("c2", 40), None))
    assert "Orla stops concentrating on Hold Person (its target is dead)" in said, said


def test_an_effect_holding_two_goes_on_while_one_lives():
    hold = structs.replace(HOLD, source_id="c1", target_ids=("c2", "c3"))
    state = fight(("Orla", "party", HERO_SHEET), ("Mage", "foes", MAGE), ("Imp", "foes", MAGE))
    state, _ = run(state, hold, 2, 2)
    state, _ = run(state, D20Apply())
    state = fold_onto(state, decide(state, ChangeTrack("c2", 40), None))
    assert sheet(state, "c1").concentrating == "Hold Person"
    assert state.combatant("c3").condition("paralyzed") is not None
    events = decide(state, ChangeTrack("c3", 40), None)
    assert "Orla stops concentrating on Hold Person (its targets are dead)" in lines(state, events)
    state = fold_onto(state, events)
    assert sheet(state, "c1").concentrating == ""


def test_a_concentration_ended_by_a_stun_is_in_the_log_and_replays():
    history = history_of(("Orla", "party", HERO_SHEET), ("Mage", "foes", MAGE))
    history.commit(decide(history.state, HOLD, ScriptedDice([2])))
    history.commit(decide(history.state, D20Apply(), None))
    history.commit(decide(history.state, AddCondition("c2", "stunned"), None))
    again = History.from_records(list(history.records))
    assert again.state == history.state
    assert sheet(again.state, "c2").concentrating == ""
    assert again.state.combatant("c1").condition("paralyzed") is None


async def test_a_stunned_casters_hold_person_ends_by_keys(tmp_path: Path) -> None:
    history = history_of(("Mage", "foes", MAGE), ("Orla", "party", HERO_SHEET))
    hold = D20SaveEffect("c1", ("c2",), "Hold Person", "wis", 13, "", condition="paralyzed",
                         concentration=True)  # fmt: skip
    history.commit(decide(history.state, hold, ScriptedDice([2])))
    history.commit(decide(history.state, D20Apply(), None))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "paralyzed" in screen_text(app), "Orla held")
        assert app.session.state.current_id == "c1"  # the Mage's row is the one highlighted
        await pilot.press("c", *"Stunned", "enter")
        await until(pilot, lambda: sheet(app.session.state, "c1").concentrating == "", "it ends")
        assert app.session.state.combatant("c2").condition("paralyzed") is None
        await until(pilot, lambda: "(stunned: incapacitated)" in screen_text(app), "the line")
        rows = [line for line in screen_text(app).splitlines() if "party" in line]
        assert rows and not any("paralyzed" in row for row in rows), rows
