"""Fatigue & Thresholds: every mechanic of rule text 003, with scripted dice."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import describe
from rules.errors import Rejected
from rules.systems.fatigue.arithmetic import (
    Cost,
    aid_bonus,
    aid_target,
    cutoffs,
    defense_level,
    fumble_level,
    parse_effort,
    pool_penalty,
    roll_stress,
    spacing,
    stress_total,
    suckage_to_lift,
)
from rules.systems.fatigue.sheet import (
    FatigueSheet,
    Skill,
    defense_consequence,
    task_penalties,
)
from rules.systems.fatigue.system import (
    SYSTEM,
    FatigueAid,
    FatigueApply,
    FatigueCallOff,
    FatigueCheck,
    FatigueChecked,
    FatigueTakeSuckage,
)
from tests.systems.fatigue.duel import (
    PISTOL,
    SWORD,
    attack,
    fight,
    run,
    sheet,
)

# --- dice by situation ---------------------------------------------------------------------------


def test_open_d20_examples_from_the_text() -> None:
    # "if Susan rolls a 1, 20 she would get 1 - 20 = -19 ... 20, 17 she would get +37"
    assert roll_stress(ScriptedDice([1, 20]), "open-d20") == (1, 20)
    assert stress_total("open-d20", (1, 20)) == -19
    assert stress_total("open-d20", (20, 17)) == 37
    # 2 through 19 count as normal, with no second die.
    assert roll_stress(ScriptedDice([7]), "open-d20") == (7,)
    assert stress_total("open-d20", (7,)) == 7


def test_each_situation_rolls_its_own_dice() -> None:
    assert roll_stress(ScriptedDice([1, 2, 3, 4, 4]), "5d4") == (1, 2, 3, 4, 4)
    assert roll_stress(ScriptedDice([10, 10]), "2d10") == (10, 10)
    assert roll_stress(ScriptedDice([20]), "1d20") == (20,)  # closed: no second die
    with pytest.raises(ValueError):
        roll_stress(ScriptedDice([5, 5, 5, 5, 5]), "5d4")  # a 5 cannot come up on a d4


def test_the_dice_are_chosen_per_roll_and_logged() -> None:
    history = fight()
    roll = attack(history, 20, 17, 3, 4, attacker_dice="open-d20", defender_dice="2d10")
    assert roll.attacker is not None and roll.attacker.faces == (20, 17)
    assert roll.defender.faces == (3, 4)
    text = describe(history.state, roll).plain
    assert "open d20 [20 + 17] = 37" in text and "2d10 [3, 4] = 7" in text


# --- the check -----------------------------------------------------------------------------------


def test_dice_plus_skills_minus_fatigue_and_the_defender_wins_ties() -> None:
    tired = FatigueSheet(wind=20, skills=(Skill("Dodge", 2), Skill("Acrobatics", 1)))
    history = fight(defender=tired)
    # Bob: Wind 20/40 gives a penalty of 2. 12 + 2 + 1 - 2 = 13. Ann: 10 + 3 = 13: a tie.
    roll = attack(
        history, 10, 12, attacker_skills=("Sword",), defender_skills=("Dodge", "Acrobatics")
    )
    assert (roll.attacker_total, roll.defender_total) == (13, 13)
    assert roll.defender.penalty == 2
    assert roll.level is None
    with pytest.raises(Rejected, match="Bob defended"):
        run(history, FatigueApply())


def test_n_is_paid_before_the_penalty_and_spacing_are_read() -> None:
    # "Attempting to make any Difficulty Check first requires spending ... N": Bob at Wind
    # 5/40 dodges for 5 Wind, so he checks with Wind empty (penalty 4, spacing 6), not at
    # Wind 5/40 (penalty 3, spacing 7).
    history = fight(defender=FatigueSheet(wind=5, skills=(Skill("Dodge", 2),)))
    roll = attack(history, 10, 10)
    assert sheet(history, "c2").wind == 0
    assert (roll.defender.penalty, roll.defender.spacing) == (4, 6)
    assert roll.defender_total == 10 + 2 - 4
    # The preview line shows what the check will use: the thresholds after paying.
    history = fight(defender=FatigueSheet(wind=5, skills=(Skill("Dodge", 2),)))
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    assert "thresholds 0/6/12/18/24" in SYSTEM.preview(history.state, "roll", values)


def test_against_nature_the_gm_sets_the_total_to_beat() -> None:
    history = fight()
    run(history, FatigueCheck(attacker_id=None, defender_id="c2", nature_total=15), 14)
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked) and roll.attacker is None
    assert roll.loss == 1 and roll.level == 0
    assert "Nature vs Bob 15 vs 14" in describe(history.state, roll).plain


def test_an_unknown_skill_or_weapon_is_refused_before_any_die() -> None:
    history = fight()
    with pytest.raises(Rejected, match="Ann has no skill 'Axe'"):
        attack(history, attacker_skills=("Axe",))
    with pytest.raises(Rejected, match="Ann has no weapon 'Bow'"):
        attack(history, weapon="Bow")
    with pytest.raises(Rejected, match="Bob has no skill 'Sword'"):
        attack(history, defender_skills=("Sword",))


# --- nominal effort and consequences ---------------------------------------------------------


def test_jack_dodging_n5_and_losing_by_4_spends_15_wind() -> None:
    # "if Jack is dodging a medium-weight sword (N = 5) and fails by 4 points, Jack would
    # have to spend N + 2N = 15 Wind."
    history = fight()
    roll = attack(history, 13, 10)  # 13 + 3 vs 10 + 2: Bob loses by 4
    assert roll.loss == 4 and roll.level == 0
    assert sheet(history, "c2").wind == 35  # N paid at the check
    assert sheet(history, "c1").wind == 37  # the attacker pays the sword's N = 3
    run(history, FatigueApply())
    assert sheet(history, "c2").wind == 25  # N + 2N = 15 Wind in all


def test_losses_by_each_full_ten_name_the_penalty() -> None:
    assert [defense_level(loss, 10) for loss in (0, 1, 9, 10, 19, 20, 29, 30, 39, 40, 99)] == [
        None, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4,
    ]  # fmt: skip


def test_melee_table_flailing_costs_8n_wind_2n_stamina_then_hits() -> None:
    effort = (Cost("wind", 5),)
    # "dodging a medium-weight sword with a flailing defense might cost 8N Wind + 2N Stamina"
    flailing = defense_consequence(1, effort, SWORD)
    assert flailing.costs == (Cost("wind", 10 + 40), Cost("stamina", 10))
    bad = defense_consequence(2, effort, SWORD)
    assert bad.costs == (Cost("wind", 50), Cost("stamina", 10), Cost("health", 10))
    terrible = defense_consequence(3, effort, SWORD)
    assert Cost("health", 20) in terrible.costs
    # "Fourth: Third Hit": the hit alone, after the 2N.
    assert defense_consequence(4, effort, SWORD).costs == (Cost("wind", 10), Cost("health", 40))


def test_gun_table_each_consequence_is_that_hit() -> None:
    effort = (Cost("wind", 5),)
    health = [defense_consequence(level, effort, PISTOL).costs[-1] for level in (1, 2, 3, 4)]
    assert health == [Cost("health", hit) for hit in (10, 30, 60, 100)]


def test_the_tracker_applies_pool_losses_and_health_damage() -> None:
    history = fight()
    roll = attack(history, 20, 1, weapon="9mm Pistol")  # 23 vs 1: lost by 22, Bad
    assert roll.level == 2
    run(history, FatigueApply())
    bob = sheet(history, "c2")
    assert (bob.wind, bob.health) == (40 - 5 - 10, 30 - 30)
    with pytest.raises(Rejected, match="already been paid"):
        run(history, FatigueApply())


def test_several_pools_are_paid_for_one_effort() -> None:
    # "serving a ball at speed might have an N of 4 Wind and 2 Wit"
    assert parse_effort("4 Wind + 2 Wit", "N") == (Cost("wind", 4), Cost("wit", 2))
    history = fight()
    attack(history, 14, 10, attacker_effort=(Cost("wind", 4), Cost("wit", 2)))
    ann = sheet(history, "c1")
    assert (ann.wind, ann.wit) == (36, 28)
    run(history, FatigueApply())
    with pytest.raises(Rejected, match="not an effort pool"):
        parse_effort("3 Gold", "N")


# --- threshold narrowing -------------------------------------------------------------------------


def test_pool_penalties_grow_by_quarters_and_empty_wind_gives_4() -> None:
    assert [pool_penalty(now, 40) for now in (40, 31, 30, 20, 10, 1, 0, -10)] == [
        0, 0, 1, 2, 3, 3, 4, 5,
    ]  # fmt: skip
    sheet_ = FatigueSheet(wind=0, wit=15)
    assert (sheet_.physical_penalty, sheet_.mental_penalty) == (4, 2)


def test_an_empty_wind_narrows_the_thresholds_to_0_6_12_18_24() -> None:
    history = fight(defender=FatigueSheet(wind=0, skills=(Skill("Dodge", 2),)))
    roll = attack(history, 17, 4)  # 20 vs 4 - 4 + 2 = 2: lost by 18
    assert roll.defender.spacing == 6
    assert cutoffs(roll.defender.spacing) == (0, 6, 12, 18, 24)
    assert roll.level == 3  # Terrible: at 10 apart it would only be Flailing
    labels = [tier.label for tier in SYSTEM.tiers(history.state)]
    assert labels == ["<=0", "1-5", "6-11", "12-17", "18-23", "24+"]
    landing = SYSTEM.landing(history.state)
    assert landing is not None and landing.tier == 4
    assert "0/6/12/18/24" in landing.summary


def test_the_floor_t_is_3_then_2_then_1() -> None:
    assert spacing(9, FatigueSheet().floor) == 3
    assert FatigueSheet(stamina=-1).floor == 2
    assert FatigueSheet(focus=-1).floor == 2
    assert FatigueSheet(health=-1).floor == 1
    assert FatigueSheet(sanity=-1, stamina=-1).floor == 1
    assert spacing(20, 1) == 1


def test_mental_effort_narrows_by_the_mental_penalty() -> None:
    worn = FatigueSheet(wind=0, wit=0)
    assert task_penalties(worn, ("wit",)) == (4, 8)  # check 4; fumble 2 x mental
    assert task_penalties(worn, ("wind",)) == (4, 8)  # check 4; fumble mental + physical
    assert task_penalties(worn, ("wind", "wit")) == (8, 8)


# --- suckage points ----------------------------------------------------------------------------


def test_suckage_examples_from_the_text() -> None:
    # "if the attacker beat you by 21 ... spending 2 suckage points, improving your failure
    # from -21 to -19"; "beat you by 19 ... spending 9 suckage points to get back up to -10"
    assert suckage_to_lift(21, 10) == 2
    # Lost by 10-19 is Flailing, so from 19 the happy side of -10 is -9: 10 points.
    assert suckage_to_lift(19, 10) == 10
    assert suckage_to_lift(4, 10) == 4  # an Ordinary loss lifts to a successful defense
    assert suckage_to_lift(0, 10) == 0


def test_taking_suckage_lifts_the_result_and_records_the_cost() -> None:
    history = fight()
    roll = attack(history, 20, 2)  # 23 vs 4: lost by 19
    assert roll.level == 1 and roll.suckage_offer == 10
    alerts = SYSTEM.alerts(history.state, roll)
    assert any("10 suckage points would lift it to Ordinary defense" in a for a in alerts)
    with pytest.raises(Rejected, match="Say what the suckage costs"):
        run(history, FatigueTakeSuckage(9, ""))
    with pytest.raises(Rejected, match="Take 1 to 19"):
        run(history, FatigueTakeSuckage(20, "everything"))
    before = history.state
    [event] = run(history, FatigueTakeSuckage(9, "drops his shield"))
    assert "drops his shield" in describe(before, event).plain  # type: ignore[arg-type]
    lifted = history.state.last_roll
    assert isinstance(lifted, FatigueChecked) and lifted.loss == 10 and lifted.level == 1
    run(history, FatigueTakeSuckage(1, "warts"))
    lifted = history.state.last_roll
    assert isinstance(lifted, FatigueChecked) and lifted.level == 0


# --- attitudes and calling off -------------------------------------------------------------------


def test_relaxed_halves_n_to_a_minimum_of_1_for_minus_10_or_20() -> None:
    history = fight()
    roll = attack(history, 10, 10, attacker_attitude="relaxed", defender_attitude="relaxed-lod")
    assert roll.attacker is not None and roll.attacker.effort == (Cost("wind", 1),)  # 3 // 2
    assert roll.defender.effort == (Cost("wind", 2),)  # 5 // 2
    assert roll.attacker_total == 10 + 3 - 10
    assert roll.defender_total == 10 + 2 - 20
    history = fight()
    roll = attack(history, 10, 10, attacker_effort=(Cost("wind", 1),), attacker_attitude="relaxed")
    assert roll.attacker is not None and roll.attacker.effort == (Cost("wind", 1),)


def test_intense_pays_3n_more_up_front_for_plus_5() -> None:
    # "if you take an intense attitude toward swinging a standard sword, it will cost you
    # N + 3N = 20 Wind up front" (that sword's N being 5).
    history = fight()
    roll = attack(history, 10, 10, attacker_effort=(Cost("wind", 5),), attacker_attitude="intense")
    assert sheet(history, "c1").wind == 20
    # N + 3N is paid first: Wind 20/40 gives the check a penalty of 2.
    assert roll.attacker is not None and roll.attacker.penalty == 2
    assert roll.attacker_total == 10 + 3 + 5 - 2
    # The penalty effort still reckons from N, not 4N.
    assert roll.attacker is not None and roll.attacker.effort == (Cost("wind", 5),)


def test_calling_off_lowers_one_or_two_levels_but_not_an_intense_effort() -> None:
    # A task outside combat (no weapon): *Other Things* lets the effort be called off.
    history = fight()
    attack(history, 20, 1, weapon="")  # 23 vs 3: lost by 20, Bad
    run(history, FatigueCallOff(2))
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked) and roll.level == 0
    with pytest.raises(Rejected, match="already been called off"):
        run(history, FatigueCallOff(1))
    run(history, FatigueApply())
    assert sheet(history, "c2").wind == 40 - 5 - 10

    history = fight()
    attack(history, 13, 10, weapon="")  # lost by 4: Ordinary; one level lower: nothing more
    before = history.state
    [event] = run(history, FatigueCallOff(1))
    line = describe(before, event).plain  # type: ignore[arg-type]
    assert (
        line == "Bob calls off the effort (1 level): Ordinary defense -> called off, nothing more"
    )
    run(history, FatigueApply())
    assert sheet(history, "c2").wind == 35

    history = fight()
    attack(history, 20, 1, weapon="", defender_attitude="intense")
    with pytest.raises(Rejected, match="intense effort and cannot call it off"):
        run(history, FatigueCallOff(1))


@pytest.mark.parametrize("weapon", ["Sword", "9mm Pistol"])
def test_an_attack_with_a_weapon_cannot_be_called_off(weapon: str) -> None:
    # The case: a shot defender lost by 35 ("Terrible", the pistol's 60 Health) would
    # have been called off two levels to Flailing (10 Health). Combat is not *Other Things*.
    history = fight()
    roll = attack(history, 20, 1, weapon=weapon, attacker_skills=("Sword",), attacker_effort=())
    assert roll.level is not None and roll.level >= 2
    with pytest.raises(Rejected, match="is combat: calling off is for tasks outside combat"):
        run(history, FatigueCallOff(2))
    # The dialog opens only to ask the GM (issue 30, R3-12), "No" by default.
    form = {f.key: f for f in SYSTEM.action_form(history.state, "calloff", None)}
    assert form["gm_allows"].default == "no" and "is combat" in form["gm_allows"].help
    run(history, FatigueApply())  # the consequence is paid in full


# --- fumble thresholds ---------------------------------------------------------------------


def test_fumble_levels_worsen_per_threshold_missed() -> None:
    assert fumble_level(9, 8, 10) is None  # beaten
    assert fumble_level(8, 8, 10) == 1  # not beaten: a first consequence
    assert fumble_level(-1, 8, 10) == 1
    assert fumble_level(-2, 8, 10) == 2
    assert fumble_level(-40, 8, 10) == 4
    assert fumble_level(2, 8, 6) == 2  # narrowed thresholds upgrade sooner


def test_a_fumbling_attacker_pays_and_the_attack_has_no_effect() -> None:
    history = fight()
    roll = attack(history, 4, 1)  # Ann 4 + 3 = 7, fumble line 8: fumbled; Bob 3
    assert roll.fumbled and roll.level == 1 and roll.defense_rolled is None
    assert "Ann FUMBLES" in describe(history.state, roll).plain
    run(history, FatigueApply())
    ann, bob = sheet(history, "c1"), sheet(history, "c2")
    assert (ann.wind, ann.stamina) == (40 - 3 - 24, 40 - 6)  # 8N Wind, 2N Stamina, N = 3
    assert bob.wind == 35 and bob.health == 30


def test_fatigue_raises_the_fumble_line() -> None:
    # Wind 0 (physical 4) and Wit 15 (mental 2): a physical task's line rises by 6.
    worn = FatigueSheet(wind=0, wit=15, skills=(Skill("Sword", 3),), weapons=(SWORD,))
    history = fight(attacker=worn)
    roll = attack(history, 13, 1, attacker_skills=("Sword",))  # 13 + 3 - 4 = 12
    assert roll.fumble_line == 8 + 6
    assert roll.fumbled and roll.level == 1


# --- aid -----------------------------------------------------------------------------------


def test_aid_bonus_formula_and_what_under_20_percent_gives() -> None:
    assert aid_target(12) == 30 and aid_target(45) == 45
    assert aid_bonus(9, 20) == 1  # 30% of 30
    assert aid_bonus(30, 10) == 8  # 100%
    assert aid_bonus(60, 10) == 8  # capped at +8
    assert aid_bonus(8, 30) == 0  # 26%: not a full 10% over 20%
    assert aid_bonus(5, 30) == 0  # under 20%: no bonus, never a penalty
    assert aid_bonus(-19, 30) == 0
    assert aid_bonus(27, 45) == 4  # 60% of 45


def test_aid_adds_its_bonus_to_the_side_it_helps() -> None:
    helper = FatigueSheet(skills=(Skill("Tactics", 2),))
    history = fight()
    run(history, AddCombatant(name="Cy", sheet=helper))
    attack(history, 15, 3)  # 18 vs 5: Bob loses by 13
    effort = parse_effort("2 Wit", "N")
    aid = FatigueAid(helper_id="c3", side="defender", skills=("Tactics",), effort=effort)
    run(history, aid, 15)
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked)
    [aid] = roll.aids
    assert (aid.main, aid.target, aid.helper.total, aid.bonus) == (5, 30, 17, 3)
    assert roll.defender_total == 8 and roll.loss == 10
    assert sheet(history, "c3").wit == 28
