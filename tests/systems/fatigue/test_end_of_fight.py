"""Fatigue & Thresholds: where pools stop, who is out of the fight, a fight to its end."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.commands import AddCombatant, AddCondition, EditCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, describe, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.outcome import outcome, summary_of
from rules.systems.fatigue.arithmetic import Cost
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.fatigue.solo import choose_target, foes_of
from rules.systems.fatigue.system import SYSTEM, FatigueApply, FatigueCheck
from tracker import quick_flow

PISTOL = Weapon(name="Pistol", kind="gun", n=2, fumble=8, hits=(10, 30, 60, 100))


def run(history: History, command: object, *faces: int) -> None:
    history.commit(decide(history.state, command, ScriptedDice(faces)), type(command).__name__)


def yard(*foes: str) -> History:
    """Ann (party, Pistol 25) against foes with Dodge 0 and the default pools."""
    history = History(new_encounter("Yard", "fatigue"))
    ann = FatigueSheet(skills=(Skill("Pistol", 25),), weapons=(PISTOL,))
    run(history, AddCombatant(name="Ann", side="party", sheet=ann))
    for name in foes or ("Brute",):
        run(history, AddCombatant(name=name, side="foes", sheet=FatigueSheet()))
    return history


def shot(defender: str = "c2") -> FatigueCheck:
    return FatigueCheck(
        attacker_id="c1", defender_id=defender, weapon="Pistol", attacker_skills=("Pistol",)
    )


def test_wind_and_wit_stop_at_zero() -> None:
    sheet = FatigueSheet(wind=10, stamina=40, wit=5, focus=30)
    paid = sheet.spent((Cost("wind", 25), Cost("stamina", 5), Cost("wit", 8)))
    assert (paid.wind, paid.stamina, paid.wit, paid.focus) == (0, 35, 0, 30)  # the rest is lost
    assert paid.physical_penalty == 4 + 0  # an empty Wind's 4, and no more


def test_the_other_pools_stop_at_minus_their_maximum() -> None:
    sheet = FatigueSheet(stamina=-35, health=5, sanity=0)
    paid = sheet.spent((Cost("stamina", 20), Cost("health", 100), Cost("sanity", 99)))
    assert (paid.stamina, paid.health, paid.sanity) == (-40, -30, -30)


def test_the_sheet_dialog_refuses_a_pool_below_where_it_stops() -> None:
    sheet = FatigueSheet()
    with pytest.raises(Rejected, match="Wind stops at 0, not -5"):
        SYSTEM.sheet_from_form({"wind": "-5/40"}, sheet)
    with pytest.raises(Rejected, match="Health stops at -30, not -31"):
        SYSTEM.sheet_from_form({"health": "-31/30"}, sheet)
    assert SYSTEM.sheet_from_form({"health": "-30/30"}, sheet).health == -30


@pytest.mark.parametrize(
    ("pools", "fled", "word"),
    [
        ({"health": -30}, False, "dead"),  # at the bottom of its Health
        ({"health": 0}, False, "down"),
        ({"health": -3}, True, "down"),
        ({}, True, "fled"),
        ({"wind": 0, "stamina": 0}, False, "spent"),
        ({"wind": 0}, False, ""),  # out of breath, still fighting
        ({"stamina": -5}, False, ""),
    ],
)
def test_who_is_out_of_the_fight(pools: dict[str, int], fled: bool, word: str) -> None:
    history = yard()
    run(history, EditCombatant(combatant_id="c2", sheet=FatigueSheet(**pools)))
    if fled:
        run(history, AddCondition("c2", "Fled"))
    assert SYSTEM.out_of_fight(history.state, history.state.combatant("c2")) == word


def test_a_fight_to_its_end_by_commands() -> None:
    history = yard()
    # Ann 20 + 25 against the Brute's 1 + 0: lost by 44, the Catastrophic band (40+).
    run(history, shot(), 20, 1)
    assert not outcome(history.state).over
    run(history, FatigueApply())  # 2N (10 Wind) and the fourth hit, 100 Health
    brute = history.state.combatant("c2")
    assert (brute.sheet.wind, brute.sheet.health) == (40 - 5 - 10, -30)  # HP stops at -30/30
    result = outcome(history.state)
    assert result.headline == "Fight over: party won" and result.out == {"c2": "dead"}
    figures = summary_of(history)
    assert (figures.rounds, figures.rolls, figures.unit) == (1, 1, "pool points")
    ann, foe = figures.fighters
    assert (ann.dealt, ann.taken, foe.dealt, foe.taken) == (10 + 60, 0, 0, 10 + 60)
    assert "-30/30" in foe.stats[2]
    # By hand: the loss is 25 + a - d for two d20s; 40 or more needs a - d >= 15, which 15 of
    # the 400 pairs give (3/80). The roll landed in that top band: Ann's percentile is
    # 1 - 3/80 + 3/160 = 157/160, the Brute's 3/160.
    party, foes = figures.luck
    assert (party.luck, foes.luck) == (Fraction(157, 160), Fraction(3, 160))


def test_the_payment_shows_the_pools_where_they_stop() -> None:
    history = yard()
    run(history, EditCombatant(combatant_id="c2", sheet=FatigueSheet(wind=5, health=20)))
    run(history, shot(), 10, 1)  # lost by 34: the Terrible band, 2N and 60 Health
    before = history.state
    paid, *_ = decide(before, FatigueApply(), ScriptedDice([]))
    line = describe(before, paid).plain
    assert "Wind 0/40, HP -30/30" in line  # not -10 and -40


def test_out_of_the_fight_is_never_chosen_by_solo_play_or_the_quick_turn() -> None:
    history = yard("Brute", "Raider")
    run(history, shot(), 20, 1)
    run(history, FatigueApply())  # the Brute is dead
    state = history.state
    ann = state.combatant("c1")
    assert [c.name for c in foes_of(state, ann)] == ["Raider"]
    for policy in ("steady", "aggressive", "cautious"):
        assert choose_target(state, ann, policy)[0].name == "Raider"
    assert quick_flow.last_target(history, SYSTEM, ann, state).name == "Raider"
