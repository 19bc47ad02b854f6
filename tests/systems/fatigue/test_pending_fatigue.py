"""Fatigue & Thresholds: what waits is the consequence d pays, by whoever owes it."""

from __future__ import annotations

from rules.commands import DiscardConsequence
from rules.engine import describe
from rules.systems.fatigue.events import FatigueApply
from rules.systems.fatigue.system import SYSTEM

from .test_fatigue import attack, fight, run, sheet


def test_an_unpaid_consequence_waits_until_it_is_paid():
    history = fight()
    assert SYSTEM.pending(history.state) == ""
    attack(history, 20, 2)
    assert SYSTEM.pending(history.state) == "Bob pays for Flailing defense"
    run(history, FatigueApply())
    assert SYSTEM.pending(history.state) == ""


def test_a_won_defense_leaves_nothing_waiting_and_a_fumble_is_the_attacker_s_to_pay():
    history = fight()
    attack(history, 12, 20)
    assert SYSTEM.pending(history.state) == ""
    attack(history, 2, 20)
    assert SYSTEM.pending(history.state) == "Ann pays for Flailing fumble"


def test_a_discarded_consequence_is_logged_and_never_paid():
    history = fight()
    attack(history, 20, 2)
    before = history.state
    [event] = run(history, DiscardConsequence())
    assert describe(before, event).plain.endswith("Bob pays for Flailing defense")
    assert sheet(history, "c2") == before.combatant("c2").sheet
    assert history.state.last_roll_applied and history.state.last_roll_discarded
    assert SYSTEM.pending(history.state) == ""
    attack(history, 20, 2)  # a new roll: none of it discarded
    assert not history.state.last_roll_discarded
