"""Fatigue & Thresholds, read a third time (issue 30): readings a player would dispute."""

from __future__ import annotations

from rules.engine import describe
from tests.systems.fatigue.test_fatigue import attack, sheet, three

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
