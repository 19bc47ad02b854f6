"""Fatigue & Thresholds, read a third time (issue 30): readings a player would dispute."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant
from rules.engine import describe
from rules.errors import Rejected
from rules.permissions import refusal
from rules.systems.fatigue.arithmetic import Cost, halved
from rules.systems.fatigue.events import (
    FatigueAid,
    FatigueApply,
    FatigueCallOff,
    FatigueCheck,
    FatigueTakeSuckage,
    FatigueTrade,
)
from rules.systems.fatigue.sheet import FatigueSheet, Skill
from rules.systems.fatigue.system import SYSTEM
from rules.visibility import GM, Viewer
from tests.systems.fatigue.duel import SWORD, attack, fight, run, sheet, three

# --- R3-13: whoever scores lowest defends, the one who started it included -------------------


def test_when_the_starter_scores_lowest_it_defends_against_the_best_of_the_rest() -> None:
    # Ann 1 + Sword 3 = 4, Bob 15 + Dodge 2 = 17, Cid 12: Ann is the lowest of the three.
    history = three()
    roll = attack(history, 1, 15, 12, more_defenders=("c3",), lowest=True)
    assert roll.defender.combatant_id == "c1" and roll.attacker.combatant_id == "c2"
    assert roll.loss == 17 - 4 and roll.level == 1  # lost by 13: the first penalty
    assert [s.combatant_id for s in roll.spared] == ["c3"] and roll.weapon is None
    assert "(the lowest of 3)" in describe(three().state, roll).plain.splitlines()[0]


def test_a_starter_tied_with_the_lowest_defender_keeps_its_role() -> None:
    history = three()
    roll = attack(history, 1, 15, 4, more_defenders=("c3",), lowest=True)  # Ann 4, Cid 4
    assert roll.attacker.combatant_id == "c1" and roll.defender.combatant_id == "c3"
    assert sheet(history, "c1").wind < 40  # Ann paid its N as the attacker


# --- R3-15: aid has its place: after the dice, before suckage and calling off ---------------


def aided_fight():
    history = fight()
    run(history, AddCombatant(name="Cy", sheet=FatigueSheet(skills=(Skill("Tactics", 2),))))
    return history


def test_an_aid_does_not_undo_the_attackers_fumble() -> None:
    history = aided_fight()
    roll = attack(history, 3, 10)  # Ann 3 + Sword 3 = 6: short of the Sword's line 8
    assert roll.fumbled
    run(history, FatigueAid(helper_id="c3", side="attacker", skills=("Tactics",)), 20)
    roll = history.state.last_roll
    assert roll.attacker_total == 6 + 5  # 22 of 30: +5, over the line now
    assert roll.fumbled and roll.sufferer.combatant_id == "c1"  # the fumble stands


def test_no_aid_after_suckage_or_calling_off() -> None:
    history = aided_fight()
    roll = attack(history, 15, 3)  # 18 vs 5: Bob loses by 13
    run(history, FatigueTakeSuckage(points=roll.suckage_offer, cost="a twisted ankle"))
    aid = FatigueAid(helper_id="c3", side="attacker", skills=("Tactics",))
    with pytest.raises(Rejected, match="Aid comes before suckage and calling off: suckage"):
        run(history, aid, 20)
    history = aided_fight()
    attack(history, 15, 3, weapon="")  # a task, not an attack: it may be called off
    run(history, FatigueCallOff(levels=1))
    with pytest.raises(Rejected, match="the effort was called off"):
        run(history, aid, 20)


# --- R3-12: calling off in combat, or an intense effort: the GM may allow it ------------------


def test_the_gm_may_let_a_sword_fight_be_called_off() -> None:
    history = fight()
    attack(history, 15, 3)  # 18 vs 5 with a sword: Bob loses by 13, Flailing
    with pytest.raises(Rejected, match="is combat"):
        run(history, FatigueCallOff(levels=1))
    form = {f.key: f for f in SYSTEM.action_form(history.state, "calloff", None)}
    assert form["gm_allows"].default == "no" and "is combat" in form["gm_allows"].help
    command = SYSTEM.action_command(history.state, "calloff", {"levels": "1", "gm_allows": "yes"})
    run(history, command)
    assert history.state.last_roll.called_off == 1


def test_the_gm_may_let_an_intense_effort_back_out() -> None:
    history = fight()
    attack(history, 15, 3, weapon="", defender_attitude="intense")
    with pytest.raises(Rejected, match="intense effort and cannot call it off"):
        run(history, FatigueCallOff(levels=1))
    run(history, FatigueCallOff(levels=1, gm_allows=True))
    assert history.state.last_roll.called_off == 1


def test_a_task_outside_combat_is_called_off_without_asking_the_gm() -> None:
    history = fight()
    attack(history, 15, 3, weapon="")
    assert [f.key for f in SYSTEM.action_form(history.state, "calloff", None)] == ["levels"]


# --- R3-18: a relaxed N of 5 is 2 or 3: the GM's rounding -------------------------------------


def test_a_relaxed_odd_n_rounds_as_the_gm_says() -> None:
    assert halved((Cost("wind", 5), Cost("wit", 1))) == (Cost("wind", 2), Cost("wit", 1))
    assert halved((Cost("wind", 5), Cost("wit", 1)), up=True) == (Cost("wind", 3), Cost("wit", 1))
    history = fight()
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    assert values["relaxed_n"] == "down"
    values |= {"defender_attitude": "relaxed", "defender_effort": "5 Wind", "relaxed_n": "up"}
    command = SYSTEM.action_command(history.state, "roll", values)
    assert command.relaxed_up
    run(history, command, 10, 10)
    assert history.state.last_roll.defender.effort == (Cost("wind", 3),)


# --- R3-16: suckage lifts a fumble a threshold too, never out of the fumble -------------------


def test_a_fumbling_attacker_takes_suckage_to_a_lesser_fumble() -> None:
    history = fight()
    # Ann 1 + Sword 3 = 4 against the Sword's line 8, spacing 10: a first fumble, no lift.
    roll = attack(history, 1, 10)
    assert roll.fumbled and roll.level == 1 and roll.suckage_offer == 0
    with pytest.raises(Rejected, match="Take 1 to 4 suckage points"):
        run(history, FatigueTakeSuckage(points=5, cost="drops the sword"))
    tired = fight(FatigueSheet(skills=(Skill("Sword", 3),), weapons=(SWORD,), wind=0))
    # Wind empty: 1 + 3 - 4 = 0 against the line 8 + 4 = 12 at spacing 6: 12 missed, a third.
    roll = attack(tired, 1, 10)
    assert roll.fumbled and roll.fumble_missed == 12 and roll.level == 3
    assert roll.suckage_offer == 12 - (2 * 6 - 1)  # to 11 missed: a second fumble
    before = tired.state
    [taken] = run(tired, FatigueTakeSuckage(points=roll.suckage_offer, cost="drops the sword"))
    line = describe(before, taken).plain
    assert "Ann takes 1 suckage point (drops the sword): missed by 12 -> 11" in line
    after = tired.state.last_roll
    assert after.level == 2 and after.fumbled and after.sufferer.combatant_id == "c1"


# --- R3-17: at the GM's option, knocked prone or disarmed for some of the fatigue -------------


def test_the_gm_trades_some_wind_for_knocking_the_defender_prone() -> None:
    history = fight()
    attack(history, 15, 3)  # 18 vs 5 (a dodge of N 5): lost by 13, Flailing: 2N + 8N = 50 Wind
    form = {f.key: f for f in SYSTEM.action_form(history.state, "trade", None)}
    assert form["wind"].label == "Wind spared (1-50)" and form["wind"].default == "25"
    command = SYSTEM.action_command(history.state, "trade", {"instead": "Prone", "wind": "20"})
    before = history.state
    traded, _ = run(history, command)
    assert "Bob is knocked prone instead of paying 20 Wind" in describe(before, traded).plain
    assert [c.name for c in history.state.combatant("c2").conditions] == ["Prone"]
    with pytest.raises(Rejected, match="once"):
        run(history, FatigueTrade(instead="Disarmed", wind=1))
    wind = sheet(history, "c2").wind
    run(history, FatigueApply())
    assert wind - sheet(history, "c2").wind == 50 - 20  # the Wind less the 20 traded


def test_no_trade_outside_melee() -> None:
    history = fight()
    attack(history, 15, 3, weapon="9mm Pistol")
    with pytest.raises(Rejected, match="Only a melee consequence"):
        SYSTEM.action_form(history.state, "trade", None)


# --- R3-14: what Wind and Wit cannot pay: not paid (default) or from Stamina / Focus --------


def test_what_wind_cannot_pay_spills_into_stamina_by_the_gms_choice() -> None:
    assert FatigueSheet(wind=10, stamina=40).spent((Cost("wind", 50),)).stamina == 40
    spilled = FatigueSheet(wind=10, stamina=40).spent((Cost("wind", 50),), spill=True)
    assert (spilled.wind, spilled.stamina) == (0, 0)
    assert FatigueSheet(wit=2, focus=40).spent((Cost("wit", 5),), spill=True).focus == 37
    history = fight(defender=FatigueSheet(skills=(Skill("Dodge", 2),), wind=10))
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    assert values["short_pools"] == "lost"
    values |= {"attacker": "c1", "defender": "c2", "short_pools": "spill"}
    run(history, SYSTEM.action_command(history.state, "roll", values), 15, 3)
    bob = sheet(history, "c2")
    assert (bob.wind, bob.stamina) == (5, 40)  # N 5 paid from Wind 10
    run(history, FatigueApply())  # Bad (Wind 5/40: penalty 3): 2N + 8N Wind, 2N Stamina, a hit
    bob = sheet(history, "c2")
    assert bob.wind == 0 and bob.stamina == 40 - 10 - (50 - 5)


def test_the_log_says_what_an_effort_really_paid() -> None:
    """Found at the table: Wind already 0 logged `paid 5 Wind`, and the Stamina it spilled
    into (whose penalty the check then had) went unsaid."""
    for spill, paid in (
        (False, "paid nothing for 5 Wind (Wind ran short)"),
        (True, "paid 5 Stamina for 5 Wind (Wind ran short)"),
        (None, "paid 5 Wind"),  # Wind full: as it always said
    ):
        wind = 40 if spill is None else 0
        history = fight(defender=FatigueSheet(skills=(Skill("Dodge", 2),), wind=wind))
        before = history.state
        check = FatigueCheck(
            attacker_id="c1",
            defender_id="c2",
            weapon="Sword",
            attacker_skills=("Sword",),
            defender_skills=("Dodge",),
            spill=bool(spill),
        )
        text = describe(before, run(history, check, 15, 3)[0]).plain
        bob = next(line for line in text.splitlines() if line.startswith("  Bob"))
        assert bob.endswith(paid), text
        assert "paid 3 Wind" in text  # Ann's, paid in full


def test_calling_off_all_the_same_is_the_gms_to_allow() -> None:
    """At a served table the GM's approval is refused to a player, by the permission hook,
    and not offered in the player's call-off dialog."""
    state = fight().state
    player = Viewer(role="player", name="Alice", assigned=frozenset({"c1", "c2"}))
    allowed = FatigueCallOff(gm_allows=True)
    assert refusal(state, player, allowed) == (
        "Only the GM allows calling off a combat or intense effort"
    )
    assert refusal(state, GM, allowed) is None
    assert SYSTEM.gm_choice("gm_allows", "yes") and not SYSTEM.gm_choice("gm_allows", "no")
