"""Traits the tracker plays. Blood Frenzy (rulings.md D5-11): a creature whose *Traits* name
it attacks in melee with advantage a target below its hit point maximum; the dialog says
why, a disadvantage cancels it, and the round's drop chance is not summed while its first
wound would change it. Relentless (D5-13): a blow within its number that would drop it
leaves it at 1 hit point, once until a long rest; a hero's Relentless Endurance, any blow
that does not kill outright. Regeneration (D5-15): a creature joining with it regenerates at
its turns' starts, and a damage of the types it names switches it off for its next turn."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from msgspec import structs

from rules.commands import EditCombatant, NextTurn
from rules.errors import Rejected
from rules.registry import get_system
from rules.systems.d20 import relentless
from rules.systems.d20.encounter_odds import dialog_odds, drop_this_round
from rules.systems.d20.events import (
    ACTION,
    FREE,
    D20Apply,
    D20Attack,
    D20Attacked,
    D20Damaged,
    system_state,
)
from rules.systems.d20.exhaustion import rested
from rules.systems.d20.forms import attack_preview
from rules.systems.d20.sheet import sheet_from_values
from rules.systems.d20.traits import RELENTLESS
from rules.systems.d20.turn_edge_events import D20RegenerationStopped, D20SetTurnStart
from tests.systems.d20.support import HERO_SHEET, card, fight, run, sheet
from tests.systems.d20.test_economy_d20 import started

SYSTEM = get_system("d20")
SHARK = card(hp="45/45", ac="12", attack_bonus="6", damage="2d8+4 piercing",
             actions="Multiattack: Bite x2; Bite: +6, 2d8+4 piercing; Spit: +6 ranged, 1d4 acid",
             traits="Blood Frenzy")  # fmt: skip


def at(hp: int, shark: Any = SHARK) -> Any:
    """The Shark (c1) on its turn against Orla (c2, 20 hit points at most) at ``hp``."""
    orla = structs.replace(HERO_SHEET, hp=hp)
    return started(fight(("Shark", "foes", shark), ("Orla", "party", orla)))


def rolled(state: Any, action: str, *faces: int) -> D20Attacked:
    _, events = run(state, D20Attack("c1", "c2", action=action), *faces)
    attacked = events[0]
    assert isinstance(attacked, D20Attacked)
    return attacked


def test_blood_frenzy_gives_advantage_in_melee_against_the_wounded_only() -> None:
    unhurt = rolled(at(20), "Bite", 1)  # one d20: a miss
    assert unhurt.mode == 0 and unhurt.faces == (1,)
    wounded = rolled(at(19), "Bite", 1, 1)  # two: both 1, a miss
    assert wounded.mode == 1 and "+Shark Blood Frenzy" in wounded.reasons
    spat = rolled(at(19), "Spit", 1)  # ranged: no frenzy
    assert spat.mode == 0


def test_the_dialog_says_why_and_a_disadvantage_cancels_it() -> None:
    said = attack_preview(at(12), D20Attack("c1", "c2", action="Bite"))
    assert "advantage (Shark Blood Frenzy)" in said
    tired = structs.replace(SHARK, exhaustion=3)
    assert rolled(at(12, tired), "Bite", 1).mode == 0


def test_the_rounds_drop_chance_waits_for_the_first_wound() -> None:
    assert drop_this_round(at(20), D20Attack("c1", "c2", action="Bite")) is None
    assert drop_this_round(at(19), D20Attack("c1", "c2", action="Bite")) is not None
    plain = structs.replace(SHARK, traits=())
    assert drop_this_round(at(20, plain), D20Attack("c1", "c2", action="Bite")) is not None


# --- Relentless and Relentless Endurance (rulings.md D5-13) --------------------------------------

BOAR = card(hp="5/11", ac="11", saves="Con +2", traits="relentless 7")  # fmt: skip


def boar_hit(state: Any, *faces: int, usage: str = ACTION) -> tuple[Any, list[Any]]:
    """Orla's Longsword (c1, +5, 1d8+3 slashing) at c2, hitting, and dealt."""
    state, _ = run(state, D20Attack("c1", "c2", usage=usage), 15, *faces)
    return run(state, D20Apply())


def boar_fight(boar: Any = BOAR, hero: Any = HERO_SHEET) -> Any:
    return started(fight(("Orla", "party", hero), ("Boar", "foes", boar)))


def test_relentless_shrugs_off_a_blow_within_its_number_once() -> None:
    state, _ = run(boar_fight(), D20Attack("c1", "c2"), 15, 3)  # 6 slashing at 5 left
    assert SYSTEM.pending(state) == "Boar takes 6 slashing, then Relentless: 1 hit point instead"
    before = state
    state, events = run(state, D20Apply())
    damage = next(e for e in events if isinstance(e, D20Damaged))
    assert damage.relentless and sheet(state, "c2").hp == 1
    said = SYSTEM.describe(before, damage).plain
    assert "5 → 1 HP" in said and "Relentless: 1 hit point instead of 0" in said
    assert SYSTEM.alerts(before, damage) == ["Boar stays up at 1 hit point: Relentless"]
    state, _ = boar_hit(state, 1, usage=FREE)  # 4 more: spent, it dies
    assert sheet(state, "c2").dead


def test_relentless_does_not_hold_a_blow_past_its_number_and_a_long_rest_brings_it_back() -> None:
    state, _ = boar_hit(boar_fight(), 5)  # 8 slashing: more than 7
    assert sheet(state, "c2").dead
    spent = structs.replace(BOAR, used_today=((RELENTLESS, 1),))
    assert relentless.cap(spent) is None
    assert relentless.cap(rested(structs.replace(spent, hp=3))) == 7


def test_relentless_endurance_stands_a_hero_up_unless_killed_outright() -> None:
    orla = sheet_from_values({"traits": "Relentless Endurance", "hp": "5/20"}, HERO_SHEET)
    goblin = card(hp="10/10", ac="11", attack_bonus="4", damage="1d6+2 piercing")
    state = started(fight(("Goblin", "foes", goblin), ("Orla", "party", orla)))
    after, _ = run(state, D20Attack("c1", "c2", apply=True), 15, 6)  # 8 at 5 left
    assert sheet(after, "c2").hp == 1 and not sheet(after, "c2").down
    outright = structs.replace(goblin, damage="30")
    state = started(fight(("Goblin", "foes", outright), ("Orla", "party", orla)))
    after, _ = run(state, D20Attack("c1", "c2", apply=True), 15)  # 25 past 0: at least 20
    assert sheet(after, "c2").dead


def test_the_dialogs_chance_to_drop_a_relentless_boar_counts_it() -> None:
    note = str(dialog_odds(boar_fight(), D20Attack("c1", "c2")).extra.get("note"))
    # +5 against AC 11: a hit on 6-19, a critical on 20; 1d8+3 drops it past 7 (8-11: 4 of
    # 8); 2d8+3 past 7 unless 2d8 is under 5 (58 of 64)
    drop = Fraction(14, 20) * Fraction(4, 8) + Fraction(1, 20) * Fraction(58, 64)
    assert f"drops Boar: {float(drop):.1%} (Relentless 7)" in note


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Relentless", "Relentless takes the most damage it shrugs off, like Relentless 7"),
        ("Relentless Endurance 3", "Relentless Endurance takes no number"),
        ("Relentless 0", "Relentless's number is from 1 to 10,000"),
        ("Regeneration 99999999 fire", "Regeneration's number is from 1 to 10,000"),
        ("Regeneration " + "9" * 300, "Regeneration's number is from 1 to 10,000"),
        ("Regeneration 1" + " a" * 50_000, "at most 400 characters"),
    ],
)
def test_a_numbered_trait_is_typed_with_its_number(typed: str, said: str) -> None:
    assert sheet_from_values({"traits": " relentless   7 "}, BOAR).traits == ("Relentless 7",)
    with pytest.raises(Rejected) as refused:
        sheet_from_values({"traits": typed}, BOAR)
    assert refused.value.message == f"Traits: {said}"


# --- Regeneration as a trait (rulings.md D5-15) --------------------------------------------------

TROLL = card(hp="84/84", ac="15", saves="Con +5", traits="Regeneration 10 acid or fire")


def troll_hit(damage: str) -> tuple[Any, list[Any]]:
    """Orla (c1) hits the Troll (c2) for 10 of ``damage``'s type, dealt, on her turn."""
    orla = sheet_from_values({"damage": damage}, HERO_SHEET)
    state = started(fight(("Orla", "party", orla), ("Troll", "foes", TROLL)))
    state, _ = run(state, D20Attack("c1", "c2"), 15, 7)
    return run(state, D20Apply())


def test_a_troll_joining_regenerates_at_each_of_its_turns_starts() -> None:
    assert TROLL.traits == ("Regeneration 10 acid fire",)
    state, _ = troll_hit("1d8+3 slashing")
    assert sheet(state, "c2").hp == 74
    assert "regenerates 10" in SYSTEM.badges(state, state.combatant("c2"))
    state, _ = run(state, NextTurn())
    assert SYSTEM.pending(state) == "Troll's turn starts: regains 10 HP"
    state, _ = run(state, SYSTEM.consequence_command(state))
    assert sheet(state, "c2").hp == 84


def test_fire_switches_it_off_for_its_next_turn_only() -> None:
    orla = sheet_from_values({"damage": "1d8+3 fire"}, HERO_SHEET)
    rolled, _ = run(started(fight(("Orla", "party", orla), ("Troll", "foes", TROLL))),
                    D20Attack("c1", "c2"), 15, 7)  # fmt: skip
    said = "Troll takes 10 fire, and no regeneration at its next turn's start"
    assert SYSTEM.pending(rolled) == said
    state, events = troll_hit("1d8+3 fire")
    assert D20RegenerationStopped("c2") in events
    assert "regenerates 10 (off)" in SYSTEM.badges(state, state.combatant("c2"))
    state, _ = run(state, NextTurn())
    assert SYSTEM.pending(state) == "" and sheet(state, "c2").hp == 74


def test_an_edit_that_takes_the_trait_away_stops_it_and_one_that_adds_it_starts_it() -> None:
    state, _ = troll_hit("1d8+3 slashing")
    plain = structs.replace(TROLL, traits=(), hp=74)
    state, _ = run(state, EditCombatant(combatant_id="c2", sheet=plain))
    assert not any(s.regeneration for s in system_state(state).starts)
    state, _ = run(state, EditCombatant(combatant_id="c2", sheet=structs.replace(TROLL, hp=74)))
    assert [s.regeneration for s in system_state(state).starts] == [10]
    by_hand = D20SetTurnStart("c2", regeneration=15)  # the GM's Start of turn
    state, _ = run(state, by_hand)
    state, _ = run(state, EditCombatant(combatant_id="c2", name="Old Troll"))
    assert [s.regeneration for s in system_state(state).starts] == [15]


def test_a_trait_that_takes_no_damage_types_refuses_them() -> None:
    with pytest.raises(Rejected, match="Relentless takes a number alone"):
        sheet_from_values({"traits": "Relentless 7 fire"}, BOAR)
    with pytest.raises(Rejected, match="did you mean fire"):
        sheet_from_values({"traits": "Regeneration 10 fyre"}, TROLL)
