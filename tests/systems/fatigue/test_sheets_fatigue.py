"""Fatigue & Thresholds: sheets, saves and replays, what the app shows, several defenders."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant
from rules.engine import describe, fold, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.systems.fatigue.sheet import (
    FatigueSheet,
    Skill,
    bar,
    parse_weapons,
)
from rules.systems.fatigue.system import (
    SYSTEM,
    FatigueApply,
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
    three,
)

# --- sheets, saves and replays -------------------------------------------------------------------


def test_sheet_form_reads_pools_skills_and_weapons() -> None:
    values = {
        "wind": "30/40",
        "health": "25",
        "skills": "Sword 3, Dodge 2",
        "weapons": "Sword melee N3 F8 10/20/40; 9mm Pistol gun N2 F8 10/30/60/100",
    }
    sheet_ = SYSTEM.sheet_from_form(values, FatigueSheet())
    assert sheet_.pool("wind") == (30, 40) and sheet_.pool("health") == (25, 30)
    assert sheet_.skills == (Skill("Sword", 3), Skill("Dodge", 2))
    assert sheet_.weapons == (SWORD, PISTOL)
    assert SYSTEM.sheet_stats(sheet_)[0] == "▮▮▮▯ 30/40"
    assert bar(0, 40) == "▯▯▯▯ 0/40"
    assert bar(1, 40) == "▮▯▯▯ 1/40"  # any points left show
    assert bar(50, 40) == "▮▮▮▮ 50/40"
    round_trip = {f.key: f.default for f in SYSTEM.sheet_form(sheet_)}
    assert SYSTEM.sheet_from_form(round_trip, FatigueSheet()) == sheet_
    # A pool typed as the combatants pane shows it, gauge and all.
    shown = {"wind": "▮▮▮▯ 30/40", "stamina": "▯▯▯▯ -7/40"}
    typed = SYSTEM.sheet_from_form(shown, sheet_)
    assert typed.pool("wind") == (30, 40) and typed.pool("stamina") == (-7, 40)


@pytest.mark.parametrize(
    ("key", "raw", "message"),
    [
        ("wind", "lots", "Wind must look like 30/40"),
        ("wind", "3/0", "the maximum must be 1"),
        ("skills", "Sword", "a name and a level"),
        ("weapons", "Sword melee N3 F8 10/20", "3 hit ratings"),
        ("weapons", "Sword axe", "write each like"),
    ],
)
def test_bad_sheet_values_are_explained(key: str, raw: str, message: str) -> None:
    with pytest.raises(Rejected, match=message):
        SYSTEM.sheet_from_form({key: raw}, FatigueSheet())


def test_two_weapons_cannot_share_a_name() -> None:
    with pytest.raises(Rejected, match="same name"):
        parse_weapons("Sword melee N3 F8 1/2/3; sword melee N3 F8 1/2/3")


def test_a_replay_needs_no_dice() -> None:
    history = fight()
    attack(history, 20, 17, 1, 20, attacker_dice="open-d20", defender_dice="open-d20")
    run(history, FatigueTakeSuckage(1, "stumbles"))
    run(history, FatigueApply())
    assert fold(history.effective_events()) == history.state


# --- what the app shows --------------------------------------------------------------------------


def test_before_any_check_the_pane_shows_the_next_targets_thresholds() -> None:
    history = fight(defender=FatigueSheet(wind=0))
    assert [t.label for t in SYSTEM.tiers(history.state)][1:4] == ["1-5", "6-11", "12-17"]
    assert SYSTEM.landing(history.state) is None


def test_with_t_1_the_ordinary_band_is_empty() -> None:
    history = fight(defender=FatigueSheet(wind=-400, health=-1))
    roll = attack(history, 10, 10, defender_skills=())
    assert roll.defender.spacing == 1
    tiers = SYSTEM.tiers(history.state)
    assert tiers[1].label == "none" and tiers[2].label == "1-1"
    landing = SYSTEM.landing(history.state)
    assert landing is not None and tiers[landing.tier].contains(roll.loss)


def test_the_header_names_the_consequence_waiting_for_d() -> None:
    history = fight()
    attack(history, 20, 2)
    assert SYSTEM.pending(history.state) == "Bob pays for Flailing defense"
    run(history, FatigueApply())
    assert SYSTEM.pending(history.state) == ""


def test_the_check_form_defaults_and_live_preview() -> None:
    history = fight(defender=FatigueSheet(wind=0, skills=(Skill("Dodge", 2),)))
    fields = SYSTEM.action_form(history.state, "roll", None)
    values = {f.key: f.default for f in fields}
    assert (values["attacker"], values["defender"], values["weapon"]) == ("c1", "c2", "Sword")
    assert (values["attacker_skills"], values["defender_skills"]) == ("Sword", "Dodge")
    preview = SYSTEM.preview(history.state, "roll", values)
    assert preview == "Ann 1d20 +3, fumble line 8 vs Bob 1d20 -2, thresholds 0/6/12/18/24"
    bad = SYSTEM.preview(history.state, "roll", values | {"defender_effort": "lots"})
    assert "write it like '5 Wind'" in bad
    command = SYSTEM.action_command(history.state, "roll", values)
    assert isinstance(command, FatigueCheck) and command.attacker_effort is None


def test_a_lone_character_struggles_against_nature() -> None:
    history = History(new_encounter("Cliff", "fatigue"))
    run(history, AddCombatant(name="Solo", sheet=FatigueSheet(skills=(Skill("Climb", 2),))))
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    assert values["attacker"] == "nature" and values["defender_skills"] == "Climb"
    values |= {"nature_total": "12", "defender_effort": "3 Stamina"}
    run(history, SYSTEM.action_command(history.state, "roll", values), 9)
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked) and roll.loss == 1 and roll.level == 0
    run(history, FatigueApply())
    assert sheet(history, "c1").stamina == 40 - 3 - 6


def test_a_skill_typed_twice_counts_once() -> None:
    history = fight()
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    command = SYSTEM.action_command(
        history.state, "roll", values | {"attacker_skills": "Sword, sword"}
    )
    assert isinstance(command, FatigueCheck) and command.attacker_skills == ("Sword",)


# --- several defenders -------------------------------------------------------------------------


def test_each_defender_is_compared_and_settles_in_turn() -> None:
    # "an 'attacker' ... and one or more 'defenders'": Ann 20 + 3 = 23 against Bob 10 + 2
    # (lost by 11, Flailing) and Cid 1 (lost by 22, Bad). Every one paid N at the check.
    history = three()
    roll = attack(history, 20, 10, 1, more_defenders=("c3",))
    assert sheet(history, "c2").wind == sheet(history, "c3").wind == 35
    assert roll.defender.combatant_id == "c2" and roll.level == 1
    assert SYSTEM.pending(history.state) == "Bob pays for Flailing defense, then Cid"
    assert "Cid loses by 22: Bad defense" in describe(three().state, roll).plain
    run(history, FatigueApply())
    assert (sheet(history, "c2").wind, sheet(history, "c2").stamina) == (0, 30)  # 10N, 2N
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked) and roll.defender.combatant_id == "c3"
    assert not history.state.last_roll_applied and roll.level == 2
    assert SYSTEM.pending(history.state) == "Cid pays for Bad defense"
    # Cid's comparison is his own: his suckage, then his payment (a sword's first hit).
    run(history, FatigueTakeSuckage(3, "drops his lantern"))
    assert history.state.last_roll.level == 1  # type: ignore[union-attr]
    run(history, FatigueApply())
    assert history.state.last_roll_applied
    with pytest.raises(Rejected, match="already been paid"):
        run(history, FatigueApply())


def test_a_defender_who_won_is_passed_over() -> None:
    history = three()
    roll = attack(history, 10, 12, 1, more_defenders=("c3",))  # 13: Bob 14 holds, Cid 1 loses
    assert roll.defender.combatant_id == "c3" and roll.loss == 12
    assert SYSTEM.pending(history.state) == "Cid pays for Flailing defense"
    history = three()
    attack(history, 10, 12, 15, more_defenders=("c3",))  # both hold: nothing to pay
    assert SYSTEM.pending(history.state) == ""


def test_discarding_one_defenders_consequence_moves_to_the_next() -> None:
    from rules.commands import DiscardConsequence

    history = three()
    attack(history, 20, 10, 1, more_defenders=("c3",))
    run(history, DiscardConsequence())
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked) and roll.defender.combatant_id == "c3"
    assert not history.state.last_roll_applied
    assert sheet(history, "c2").wind == 35  # Bob's consequence set aside


def test_when_it_is_unclear_whoever_scores_the_lowest_defends() -> None:
    # "the defender will generally be whoever scores the lowest on the difficutly check"
    history = three()
    roll = attack(history, 12, 15, 4, more_defenders=("c3",), lowest=True)
    assert roll.defender.combatant_id == "c3" and roll.loss == 15 - 4
    assert [s.combatant_id for s in roll.spared] == ["c2"] and roll.waiting == ()
    assert sheet(history, "c2").wind == sheet(history, "c3").wind == 35  # both paid N
    text = describe(three().state, roll).plain
    assert "(the lowest of 3)" in text.splitlines()[0]
    assert "scored higher: does not defend" in text
    run(history, FatigueApply())
    assert history.state.last_roll_applied and sheet(history, "c2").wind == 35


def test_more_defenders_from_the_dialog() -> None:
    history = three()
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    values |= {"attacker": "c1", "defender": "c2", "more_defenders": "cid"}
    command = SYSTEM.action_command(history.state, "roll", values)
    assert command.more_defenders == ("c3",) and not command.lowest
    assert "(+1 more: each in turn)" in SYSTEM.preview(history.state, "roll", values)
    with pytest.raises(Rejected, match="No combatant named 'Dan'"):
        SYSTEM.action_command(history.state, "roll", {**values, "more_defenders": "Dan"})
    with pytest.raises(Rejected, match="Ann is already in this check"):
        run(
            history,
            SYSTEM.action_command(history.state, "roll", {**values, "more_defenders": "Ann"}),
        )
