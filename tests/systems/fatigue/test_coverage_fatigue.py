"""Fatigue & Thresholds mechanics the coverage table (fatigue/rulings.md, "Coverage") found with no
test of their own: *Aid Mechanic*'s "apply more than one of your skills to a check", *Fumble
Thresholds*' "if it is not specified, the threshold is probably 0", and *Other Things*' narrated
consequences of a task outside combat."""

import pytest

from rules.commands import AddCombatant
from rules.engine import describe, new_encounter
from rules.history import History
from rules.systems.fatigue.arithmetic import Cost
from rules.systems.fatigue.events import FatiguePoolsSpent
from rules.systems.fatigue.sheet import FatigueSheet, Skill
from rules.systems.fatigue.system import FatigueAid, FatigueApply, FatigueCheck, FatigueChecked
from tests.systems.fatigue.duel import attack, fight, run, sheet


def test_a_second_skill_of_ones_own_aids_ones_own_check() -> None:
    """*Aid Mechanic*: "it can be useful to apply more than one of your skills to a check. In
    this case the second person rolls an aid check": the one checked rolls it, with another
    skill, and pays its effort."""
    bob = FatigueSheet(skills=(Skill("Dodge", 2), Skill("Acrobatics", 4)))
    history = fight(defender=bob)
    attack(history, 15, 3)  # Ann 15 + 3 = 18 vs Bob 3 + 2 = 5: lost by 13
    aid = FatigueAid(
        helper_id="c2", side="defender", skills=("Acrobatics",), effort=(Cost("wind", 2),)
    )
    run(history, aid, 14)  # 14 + 4 = 18 of the target 30: 60%, +4
    roll = history.state.last_roll
    assert isinstance(roll, FatigueChecked)
    [given] = roll.aids
    assert given.helper.combatant_id == "c2" and given.bonus == 4
    assert roll.defender_total == 5 + 4 and roll.loss == 9  # Flailing lifted to Ordinary
    assert roll.level == 0
    assert sheet(history, "c2").wind == 40 - 5 - 2  # the dodge's N, then the aid's effort


def test_an_action_with_no_fumble_threshold_has_a_line_of_0() -> None:
    """*Fumble Thresholds*: "Every action has a fumble threshold, if it is not specified, the
    threshold is probably 0 or lower": an attack with no weapon fumbles at a total of 0 or
    less, and only then (a rested attacker adds no fumble penalty)."""
    history = fight()
    roll = attack(history, 1, 5, 10, weapon="", attacker_skills=(), attacker_dice="open-d20")
    assert roll.fumble_line == 0 and roll.attacker_total == 1 - 5
    assert roll.fumbled and roll.level == 1
    history = fight()
    roll = attack(history, 1, 10, weapon="", attacker_skills=())  # 1 beats 0
    assert roll.fumble_line == 0 and not roll.fumbled


@pytest.mark.parametrize(
    ("beaten_by", "narrated"),
    [
        (5, ""),  # Ordinary: 2N, nothing to narrate
        (15, "GM: a slip, strain or lost ground (first consequence)"),
        (25, "GM: something breaks or an injury (second consequence)"),
        (35, "GM: a device blows up or a severe injury (third consequence)"),
        (45, "GM: disaster, a crippling injury (fourth consequence)"),
    ],
)
def test_a_task_outside_combat_pays_2n_and_its_worse_levels_are_narrated(
    beaten_by: int, narrated: str
) -> None:
    """*Other Things*: "The results of the failure will be determined by what you are
    attempting": building or repairing, the four consequences are the GM's to narrate, each
    named in the log; the pools pay 2N."""
    history = History(new_encounter("Workshop", "fatigue"))
    run(history, AddCombatant(name="Tinker", sheet=FatigueSheet(skills=(Skill("Repair", 0),))))
    check = FatigueCheck(
        attacker_id=None,
        defender_id="c1",
        nature_total=10 + beaten_by,
        defender_effort=(Cost("wit", 2),),
    )
    run(history, check, 10)
    before = history.state
    paid, *_ = run(history, FatigueApply())  # and, from the second, the ruined mark
    assert isinstance(paid, FatiguePoolsSpent)
    assert paid.costs == (Cost("wit", 4),) and paid.narrate == narrated
    if narrated:
        assert narrated in describe(before, paid).plain
