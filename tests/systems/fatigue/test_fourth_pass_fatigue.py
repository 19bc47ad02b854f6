"""Fatigue & Thresholds, read a fourth time (issue 39): fumbles by the task's table, ruined
equipment, and each further defender's own dice, attitude and N."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import RemoveCondition
from rules.dice import ScriptedDice
from rules.engine import describe
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.systems.fatigue.arithmetic import Cost
from rules.systems.fatigue.events import (
    RUINED,
    DefenderWay,
    FatigueApply,
    FatigueChecked,
    FatiguePoolsSpent,
)
from rules.systems.fatigue.odds import band_odds
from rules.systems.fatigue.system import SYSTEM
from tests.app.support import until
from tests.screen import screen_text
from tests.systems.fatigue.duel import attack, fight, run, sheet, three
from tests.systems.fatigue.test_app_fatigue import make_app
from tracker.screens.encounter_screen import EncounterScreen

# --- F4-02: a fumble's consequence is the task's own table, worse per threshold missed ------


def test_a_terrible_sword_fumble_costs_more_than_a_first_one() -> None:
    # Ann's open d20 shows 1 then 20: -19 + Sword 3 = -16, 24 under the Sword's line 8 at
    # spacing 10: a Terrible (third) fumble. *Melee*: "Third: First Consequence + Second Hit".
    history = fight()
    roll = attack(history, 1, 20, 10, attacker_dice="open-d20")
    assert roll.fumbled and roll.level == 3
    [paid, _ruined] = run(history, FatigueApply())
    assert isinstance(paid, FatiguePoolsSpent)
    assert paid.costs == (Cost("wind", 24), Cost("stamina", 6), Cost("health", 20))
    ann = sheet(history, "c1")
    assert (ann.wind, ann.stamina, ann.health) == (40 - 3 - 24, 40 - 6, 30 - 20)


def test_a_first_sword_fumble_is_the_first_consequences_fatigue_alone() -> None:
    history = fight()
    attack(history, 4, 1)  # Ann 4 + 3 = 7, at or under the line 8: a first fumble
    [paid] = run(history, FatigueApply())
    assert isinstance(paid, FatiguePoolsSpent)
    assert paid.costs == (Cost("wind", 24), Cost("stamina", 6))


def test_a_gun_fumbler_takes_the_guns_first_hit_not_melee_fatigue() -> None:
    # *Guns*: "each consequence is just that degree of hit": a first fumble is the first hit.
    history = fight()
    roll = attack(history, 4, 1, weapon="9mm Pistol")
    assert roll.fumbled and roll.level == 1
    [paid] = run(history, FatigueApply())
    assert isinstance(paid, FatiguePoolsSpent)
    assert paid.costs == (Cost("health", 10),) and "hit level 1: 10 Health" in paid.reckoning
    ann = sheet(history, "c1")
    assert (ann.wind, ann.stamina, ann.health) == (40 - 2, 40, 30 - 10)


def test_a_fumble_without_a_weapon_pays_the_first_fatigue_and_the_gm_narrates() -> None:
    # *Other Things* gives a task's worse consequences no costs: the GM narrates them.
    history = fight()
    three_wind = (Cost("wind", 3),)
    kw = {"weapon": "", "fumble_threshold": 8, "attacker_effort": three_wind}
    attack(history, 1, 20, 10, attacker_dice="open-d20", **kw)
    paid, _ruined = run(history, FatigueApply())
    assert isinstance(paid, FatiguePoolsSpent)
    assert paid.costs == (Cost("wind", 24), Cost("stamina", 6))
    assert "third consequence" in paid.narrate


# --- F4-09: the second to fourth penalties ruin the equipment involved ----------------------


def test_the_second_penalty_marks_the_payers_gear_ruined_and_the_gm_clears_it() -> None:
    history = fight()
    attack(history, 20, 1)  # Ann 23 vs Bob 3: lost by 20, the Bad defense
    before = history.state
    paid, added = run(history, FatigueApply())
    bob = history.state.combatant("c2")
    assert [c.name for c in bob.conditions] == [RUINED]
    text = describe(before, paid).plain
    assert "do not count on using the equipment used in it ever again" in text
    assert f"marked {RUINED}" in text
    assert isinstance(added, ConditionAdded) and added.condition.name == RUINED
    run(history, RemoveCondition(combatant_id="c2", name=RUINED))  # the GM's to clear
    assert history.state.combatant("c2").conditions == ()


def test_a_flailing_defense_ruins_nothing() -> None:
    history = fight()
    attack(history, 15, 3)  # lost by 13: Flailing
    [paid] = run(history, FatigueApply())
    assert isinstance(paid, FatiguePoolsSpent) and not paid.ruined
    assert history.state.combatant("c2").conditions == ()


def test_a_fumbler_past_the_first_is_told_its_weapon_is_ruined() -> None:
    history = fight()
    attack(history, 1, 10, 10, attacker_dice="open-d20")  # -9 + 3 = -6: missed by 14, Bad
    before = history.state
    paid, _ = run(history, FatigueApply())
    assert "do not count on using the Sword ever again" in describe(before, paid).plain
    assert [c.name for c in history.state.combatant("c1").conditions] == [RUINED]


# --- F4-14: each further defender its own dice, attitude and N ------------------------------


def check_values(history, more: str) -> dict[str, str]:
    values = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", None)}
    return values | {"attacker": "c1", "defender": "c2", "more_defenders": more}


def test_each_further_defender_rolls_its_own_dice_attitude_and_n() -> None:
    history = three()
    values = check_values(history, "Cid (2d10 intense 3 Wind)")
    command = SYSTEM.action_command(history.state, "roll", values)
    assert command.more_defenders == ("c3",)
    assert command.ways == (
        DefenderWay(combatant_id="c3", dice="2d10", attitude="intense", effort=(Cost("wind", 3),)),
    )
    # Ann 15 + 3; Bob 10 + 2; Cid 4 + 5, +5 intense, -1 fatigue (Wind 28/40 once paid).
    run(history, command, 15, 10, 4, 5)
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked)
    [cid] = roll.waiting
    assert (cid.dice, cid.faces, cid.attitude, cid.total) == ("2d10", (4, 5), "intense", 13)
    assert sheet(history, "c3").wind == 40 - 3 - 9  # N + 3N up front, its own N
    assert sheet(history, "c2").wind == 40 - 5  # Bob: the Defender field's 5 Wind


def test_a_further_defender_without_its_own_way_rolls_as_the_defender() -> None:
    history = three()
    command = SYSTEM.action_command(history.state, "roll", check_values(history, "Cid, "))
    assert command.more_defenders == ("c3",) and command.ways == ()


def test_a_further_defenders_way_is_read_or_clearly_refused() -> None:
    history = three()
    way = SYSTEM.action_command(history.state, "roll", check_values(history, "cid (relaxed)"))
    assert way.ways == (DefenderWay(combatant_id="c3", attitude="relaxed"),)
    with pytest.raises(Rejected, match="Cid's own way reads like 'Cid \\(2d10 intense"):
        SYSTEM.action_command(history.state, "roll", check_values(history, "Cid (fast)"))
    with pytest.raises(Rejected, match="No combatant named 'Dan'"):
        SYSTEM.action_command(history.state, "roll", check_values(history, "Dan (2d10)"))


def test_the_odds_of_the_next_comparison_follow_that_defenders_own_dice() -> None:
    history = three()
    values = check_values(history, "Cid (5d4)")
    run(history, SYSTEM.action_command(history.state, "roll", values), 18, 1, 1, 1, 1, 1, 1)
    run(history, FatigueApply())  # Bob settles; Cid's comparison is open
    roll = history.state.last_roll
    assert roll.defender.combatant_id == "c3" and roll.defender.dice == "5d4"
    odds = SYSTEM.last_odds(history.state)
    assert odds is not None
    counted = band_odds("1d20", 3, "5d4", 0, 10, 8)
    assert [t.p for t in odds.tiers] == [t.p for t in counted.tiers]
    assert counted.tiers != band_odds("1d20", 3, "1d20", 0, 10, 8).tiers


async def test_a_further_defenders_own_dice_by_keys(tmp_path: Path) -> None:
    history = three()
    # Ann 15 + 3 = 18; Bob 10 + 2 = 12 (lost by 6); Cid, relaxed on 5d4: 1 x 5 - 10 = -5.
    app = make_app(tmp_path, ScriptedDice([15, 10, 1, 1, 1, 1, 1]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", *["tab"] * 11, *"Cid (5d4 relaxed 4 Wind)")  # More defenders
        await until(pilot, lambda: "(+1 more: each in turn)" in screen_text(app), "the preview")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the roll")
        roll = app.session.state.last_roll
        [cid] = roll.waiting
        assert (cid.dice, cid.attitude, cid.total) == ("5d4", "relaxed", -5)
        assert app.session.state.combatant("c3").sheet.wind == 40 - 2  # half of its own 4
        assert "Cid: 5d4" in screen_text(app)


async def test_a_terrible_fumble_and_its_ruined_sword_by_keys(tmp_path: Path) -> None:
    history = fight()
    app = make_app(tmp_path, ScriptedDice([1, 20, 10]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "tab", "tab", "right", "enter")  # Attacker dice: open d20
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the roll")
        assert app.session.state.last_roll.level == 3
        await pilot.press("d")
        await until(pilot, lambda: "Ill-equipped" in screen_text(app), "the mark")
        await pilot.pause()
        text = screen_text(app)  # the log's lines wrap at 80 columns
        assert "Ann pays 24 Wind 6 Sta 20 HP for" in text and "Terrible fumble" in text
        assert "HP 10/30" in text and "the Sword ever again" in text
        assert "▮▮▯▯ 10/30 30/30/30 2/0 Ill-equipped" in text  # the mark, in the roster
        assert [c.name for c in app.session.state.combatant("c1").conditions] == [RUINED]
