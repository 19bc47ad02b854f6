"""Generic d20: every mechanic with scripted dice, as rulings.md reads the SRD 5.1."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules.commands import AddCombatant, AddCondition, NextTurn
from rules.conditions import Duration
from rules.dice import ScriptedDice
from rules.engine import decide, describe, fold_onto
from rules.errors import Rejected
from rules.logline import plural
from rules.registry import get_system
from rules.systems.d20.events import (
    LEGENDARY,
    REACTION,
    D20Apply,
    D20Attack,
    D20Attacked,
    D20ConcentrationSave,
    D20DeathSave,
    D20Heal,
    D20Reaction,
    D20SaveEffect,
)
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, duel, fight, run, sheet

SYSTEM = get_system("d20")


def attack(state, faces, attacker="c1", target="c2", mode=0, **kw):
    return run(state, D20Attack(attacker, target, mode, **kw), *faces)


# --- attacks -------------------------------------------------------------------------------------


def test_a_hit_rolls_damage_and_d_deals_it():
    state, events = attack(duel(), (10, 5))  # 10 + 5 = 15 vs AC 13; 1d8 shows 5
    (roll,) = events
    assert isinstance(roll, D20Attacked) and roll.outcome == "hit" and roll.damage_total == 8
    assert SYSTEM.pending(state) == "Goblin takes 8 piercing".replace("piercing", "slashing")
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").hp == 4 and SYSTEM.pending(state) == ""


def test_a_total_below_the_ac_misses_and_deals_nothing():
    state, events = attack(duel(), (7,))  # 12 vs 13
    assert events[0].outcome == "miss" and SYSTEM.pending(state) == ""
    with pytest.raises(Rejected, match="miss"):
        decide(state, D20Apply(), ScriptedDice([]))


def test_a_natural_1_misses_and_a_natural_20_hits_whatever_the_numbers():
    easy = duel(foe=structs.replace(FOE_SHEET, ac=1))
    _, events = attack(easy, (1,))
    assert events[0].outcome == "miss"
    hard = duel(foe=structs.replace(FOE_SHEET, ac=40))
    _, events = attack(hard, (20, 3, 4))  # a critical: 2d8
    assert events[0].outcome == "critical" and events[0].damage == "2d8+3"
    assert events[0].damage_total == 3 + 4 + 3


def test_a_critical_range_of_19_crits_on_19():
    keen = structs.replace(HERO_SHEET, crit_range=19)
    _, events = attack(duel(hero=keen), (19, 1, 1))
    assert events[0].outcome == "critical"


def test_advantage_keeps_the_higher_and_disadvantage_the_lower():
    _, events = attack(duel(), (3, 12, 2), mode=1)
    assert events[0].natural == 12 and events[0].outcome == "hit"
    _, events = attack(duel(), (3, 12), mode=-1)
    assert events[0].natural == 3 and events[0].outcome == "miss"


def test_advantage_and_disadvantage_cancel_out():
    state = duel()
    state = fold_onto(state, decide(state, AddCondition("c1", "poisoned"), ScriptedDice([])))
    state = fold_onto(state, decide(state, AddCondition("c2", "prone"), ScriptedDice([])))
    _, events = attack(state, (15, 1))  # one d20: poisoned (dis) and prone target (adv)
    assert events[0].mode == 0 and len(events[0].faces) == 1
    assert "-Orla poisoned" in events[0].reasons and "+Goblin prone" in events[0].reasons


def test_a_ranged_attack_on_a_prone_target_has_disadvantage():
    archer = structs.replace(HERO_SHEET, ranged=True)
    state = duel(hero=archer)
    state = fold_onto(state, decide(state, AddCondition("c2", "prone"), ScriptedDice([])))
    _, events = attack(state, (4, 18))
    assert events[0].mode == -1 and events[0].natural == 4


def test_a_hit_on_a_paralyzed_target_within_5_feet_is_a_critical():
    state = duel()
    state = fold_onto(state, decide(state, AddCondition("c2", "paralyzed"), ScriptedDice([])))
    _, events = attack(state, (2, 9, 1, 1))  # advantage: 9 + 5 = 14 hits, and crits
    assert events[0].outcome == "critical"


# --- damage --------------------------------------------------------------------------------------


def test_temporary_hit_points_are_spent_first():
    tough = structs.replace(FOE_SHEET, temp_hp=5)
    state, _ = attack(duel(foe=tough), (15, 5))  # 8 damage
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").temp_hp == 0 and sheet(state, "c2").hp == 9


@pytest.mark.parametrize(
    ("field", "dealt"), [("resistances", 4), ("vulnerabilities", 16), ("immunities", 0)]
)
def test_resistance_halves_vulnerability_doubles_immunity_ignores(field, dealt):
    foe = structs.replace(FOE_SHEET, hp=30, hp_max=30, **{field: ("slashing",)})
    state, _ = attack(duel(foe=foe), (15, 5))  # 8 slashing
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").hp == 30 - dealt


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("resistances", "Goblin takes 4 slashing (resistant, of 8)"),
        ("vulnerabilities", "Goblin takes 16 slashing (vulnerable, of 8)"),
        ("immunities", "Goblin takes 0 slashing (immune, of 8)"),
        ("", "Goblin takes 8 slashing"),
    ],
)
def test_a_waiting_hit_says_what_its_target_will_take(field, said):
    """The waiting line and the roll's landing said "Goblin takes 8 slashing" of a Goblin
    resistant to it, and `d` then dealt 4."""
    foe = structs.replace(FOE_SHEET, hp=30, hp_max=30, **({field: ("slashing",)} if field else {}))
    state, _ = attack(duel(foe=foe), (15, 5))  # 8 slashing
    assert SYSTEM.pending(state) == said
    landing = SYSTEM.landing(state)
    assert landing is not None and landing.summary.endswith(f"hit, {said}")
    state, _ = run(state, D20Apply())
    assert f"{30 - sheet(state, 'c2').hp} slashing" in said
    assert SYSTEM.landing(state) == landing  # the same words once it is dealt


def test_a_monster_at_0_is_dead_and_out_of_the_turn_order():
    state, _ = attack(duel(), (15, 8))  # 11
    state, _ = run(state, D20Apply())
    state, _ = attack(state, (15, 8), usage="extra")  # a second action, on purpose
    state, _ = run(state, D20Apply())
    goblin = state.combatant("c2")
    assert SYSTEM.out_of_fight(state, goblin) == "dead"
    assert [c.id for c in SYSTEM.turn_order(state)] == ["c1"]


# --- a hero at 0: dying and death saves ----------------------------------------------------------


def dying_hero():
    """Orla at 0 hit points on her own turn's start (the goblin dropped her)."""
    weak = structs.replace(HERO_SHEET, hp=3)
    state = fight(("Goblin", "foes", FOE_SHEET), ("Orla", "party", weak))
    state, _ = run(state, D20Attack("c1", "c2"), 18, 1)  # 3 piercing
    state, _ = run(state, D20Apply())
    state, _ = run(state, NextTurn())
    return state


def test_a_hero_at_0_is_dying_not_dead_and_rolls_at_the_start_of_its_turn():
    state = dying_hero()
    assert sheet(state, "c2").hp == 0 and SYSTEM.out_of_fight(state, state.combatant("c2"))
    assert SYSTEM.pending(state) == "Orla rolls a death save"
    assert SYSTEM.consequence_command(state) == D20DeathSave("c2")
    assert SYSTEM.cannot_act(state, state.combatant("c2")) == "dying"


@pytest.mark.parametrize(
    ("face", "successes", "failures"), [(10, 1, 0), (9, 0, 1), (2, 0, 1), (1, 0, 2)]
)
def test_a_death_save_counts(face, successes, failures):
    state, _ = run(dying_hero(), D20DeathSave("c2"), face)
    orla = sheet(state, "c2")
    assert (orla.death_successes, orla.death_failures) == (successes, failures)
    assert SYSTEM.pending(state) == ""  # one a turn


def test_a_death_saves_line_counts_one_success_and_one_failure_in_the_singular():
    state, events = run(dying_hero(), D20DeathSave("c2"), 10)
    text = describe(state, events[0]).plain
    assert "(1 success, 0 failures)" in text
    assert plural(3, "success") == "3 successes" and plural(2, "failure") == "2 failures"


def test_a_natural_20_brings_1_hit_point_back():
    state, _ = run(dying_hero(), D20DeathSave("c2"), 20)
    assert sheet(state, "c2").hp == 1 and not SYSTEM.out_of_fight(state, state.combatant("c2"))


def test_three_failures_kill_and_three_successes_stabilise():
    state = dying_hero()
    state = fold_onto(state, decide(state, D20DeathSave("c2"), ScriptedDice([1])))
    state = state.update(round=2)
    state = fold_onto(state, decide(state, D20DeathSave("c2"), ScriptedDice([5])))
    assert sheet(state, "c2").dead
    calm = dying_hero()
    for round_ in (1, 2, 3):
        calm = calm.update(round=round_)
        calm = fold_onto(calm, decide(calm, D20DeathSave("c2"), ScriptedDice([15])))
    assert sheet(calm, "c2").stable and not sheet(calm, "c2").dead


def test_damage_at_0_is_a_failure_and_a_critical_two():
    state = dying_hero()
    state, _ = run(state, D20Attack("c1", "c2"), 5, 2)  # unconscious: advantage... and crits
    assert state.last_roll.mode == 1
    state = dying_hero()
    state, events = run(state, D20Attack("c1", "c2", -1), 19, 1, 1)  # cancel: 19+4 hits
    assert events[0].outcome == "critical"  # a hit within 5 feet on an unconscious hero
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").death_failures == 2


def test_healing_wakes_a_dying_hero():
    state, _ = run(dying_hero(), D20Heal("c1", "c2", "2d4+2"), 1, 3)
    orla = sheet(state, "c2")
    assert (
        orla.hp == 6
        and orla.death_failures == 0
        and not SYSTEM.out_of_fight(state, state.combatant("c2"))
    )


def test_massive_damage_kills_a_hero_outright():
    frail = structs.replace(HERO_SHEET, hp=2, hp_max=4)
    state, _ = run(duel(hero=frail), D20Attack("c2", "c1"), 15, 6)  # 8: 6 past 0 >= 4
    state, _ = run(state, D20Apply())
    assert sheet(state, "c1").dead


# --- saving throws and areas ---------------------------------------------------------------------


def test_an_area_rolls_one_damage_for_every_target_half_on_a_save():
    state = fight(("Mage", "party", HERO_SHEET), ("A", "foes", structs.replace(FOE_SHEET, hp=20,
          hp_max=20)), ("B", "foes", structs.replace(FOE_SHEET, hp=20, hp_max=20)))  # fmt: skip
    effect = D20SaveEffect("c1", ("c2", "c3"), "Fireball", "dex", 15, "2d6 fire")
    state, events = run(state, effect, 14, 2, 6, 3)  # A: 14+2 saves, B: 2+2 fails; 9 fire
    assert [r.success for r in events[0].rolls] == [True, False]
    state, _ = run(state, D20Apply())
    assert (sheet(state, "c2").hp, sheet(state, "c3").hp) == (16, 11)


def test_a_failed_save_lays_its_condition_with_its_duration():
    effect = D20SaveEffect("c1", ("c2",), "Hold", "wis", 13, "", condition="paralyzed", rounds=2)
    state, _ = run(duel(), effect, 3)
    state, _ = run(state, D20Apply())
    held = state.combatant("c2").condition("paralyzed")
    assert held is not None and held.duration == Duration("rounds", 2)


def test_a_paralyzed_target_fails_dexterity_saves_outright():
    state = duel()
    state = fold_onto(state, decide(state, AddCondition("c2", "paralyzed"), ScriptedDice([])))
    effect = D20SaveEffect("c1", ("c2",), "Burst", "dex", 5, "1d4 fire")
    _, events = run(state, effect, 20, 1)
    assert events[0].rolls[0].auto_fail and not events[0].rolls[0].success
    said = describe(state, events[0]).plain
    assert "Goblin: fails outright" in said and said.count("fails") == 1


# --- concentration -------------------------------------------------------------------------------


def concentrating():
    effect = D20SaveEffect("c2", ("c1",), "Hold Person", "wis", 13, "", condition="paralyzed",
                           concentration=True)  # fmt: skip
    foe = structs.replace(FOE_SHEET, hp=40, hp_max=40)
    state = fight(
        ("Orla", "party", HERO_SHEET), ("Goblin", "foes", foe), ("Sefi", "party", HERO_SHEET)
    )
    state, _ = run(state, effect, 2)
    state, _ = run(state, D20Apply())
    assert state.combatant("c1").condition("paralyzed") is not None
    return state


def test_damage_asks_a_constitution_save_against_10_or_half_the_damage():
    state, _ = attack(concentrating(), (15, 8), attacker="c3")  # 11: DC 10
    state, _ = run(state, D20Apply())
    assert SYSTEM.pending(state) == "Goblin: Con save DC 10 for concentration"
    assert SYSTEM.consequence_command(state) == D20ConcentrationSave("c2")
    kept, _ = run(state, D20ConcentrationSave("c2"), 9)  # 9 + 1 = 10
    assert sheet(kept, "c2").concentrating == "Hold Person"


def test_a_failed_concentration_save_ends_the_effect_it_held():
    state, _ = attack(concentrating(), (20, 8, 8), attacker="c3")  # critical: 8 + 8 + 3 = 19, DC 10
    state, _ = run(state, D20Apply())
    state, _ = run(state, D20ConcentrationSave("c2"), 2)
    assert sheet(state, "c2").concentrating == ""
    assert state.combatant("c1").condition("paralyzed") is None


# --- legendary actions and reactions -------------------------------------------------------------


def test_legendary_actions_are_spent_on_others_turns_and_come_back_on_its_own():
    dragon = structs.replace(FOE_SHEET, legendary=2, hp=99, hp_max=99)
    state = fight(("Drake", "foes", dragon), ("Orla", "party", HERO_SHEET),
                  ("Sefi", "party", HERO_SHEET))  # fmt: skip
    with pytest.raises(Rejected, match="another's turn"):
        decide(state, D20Attack("c1", "c2", usage=LEGENDARY), ScriptedDice([1]))
    state, _ = run(state, NextTurn())
    state, _ = run(state, D20Attack("c1", "c2", usage=LEGENDARY), 1)
    state, _ = run(state, NextTurn())
    state, _ = run(state, D20Attack("c1", "c3", usage=LEGENDARY), 1)
    with pytest.raises(Rejected, match=r"0 legendary action\(s\) left"):
        decide(state, D20Attack("c1", "c3", usage=LEGENDARY), ScriptedDice([1]))
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 0/2"
    state, _ = run(state, NextTurn())  # the drake's own turn: back
    state, _ = run(state, NextTurn())
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 2/2"


def test_a_reaction_is_one_a_round():
    state, _ = run(duel(), D20Reaction("c2", "Parry"))
    with pytest.raises(Rejected, match="reaction this round"):
        decide(state, D20Attack("c2", "c1", usage=REACTION), ScriptedDice([1]))
    state, _ = run(state, NextTurn())
    state, _ = run(state, NextTurn())  # round 2
    state, _ = run(state, D20Attack("c2", "c1", usage=REACTION), 1)
    assert SYSTEM.badges(state, state.combatant("c2")) == ("spent R",)


# --- hit points rolled when added ----------------------------------------------------------------


def test_hit_points_written_as_dice_are_rolled_when_added_every_die_kept():
    goblin = card(hp="2d6+1")
    assert (goblin.hp_max, goblin.hp_dice) == (8, "2d6+1")  # its average until rolled
    state = duel()
    command = AddCombatant(name="Bog", sheet=goblin)
    state, _ = run(state, command, 4, 2, 10)  # the hit points, then initiative
    bog = sheet(state, "c3")
    assert (bog.hp, bog.hp_max, bog.hp_rolled) == (7, 7, (4, 2))
    again = SYSTEM.sheet_from_form({f.key: f.default for f in SYSTEM.sheet_form(bog)}, bog)
    assert again == bog
    assert SYSTEM.fresh_sheet(bog).hp_rolled == ()  # a new fight rolls again


@pytest.mark.parametrize("text", ["2d6 >= 3", "1d4-5", "0", "banana", "2d6/0"])
def test_hit_point_dice_that_cannot_give_hit_points_are_refused_in_one_line(text):
    with pytest.raises(Rejected) as refused:
        card(hp=text)
    assert "\n" not in refused.value.message
