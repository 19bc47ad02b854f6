"""LiveHack: who is out of the fight, a fight played to its end, and its summary's figures."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules import solo
from rules.commands import AddCombatant, AddCondition, EditCombatant, NextTurn, SetSolo
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.outcome import outcome, summary_of
from rules.systems.livehack.solo import target_for
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackRoll,
    LiveHackSheet,
)
from tracker import quick_flow


def run(history: History, command: object, *faces: int) -> None:
    history.commit(decide(history.state, command, ScriptedDice(faces)), type(command).__name__)


def pit(*foes: str) -> History:
    """Orla (party, attack +5) against plain foes, every defence +0."""
    history = History(new_encounter("Pit", "livehack"))
    run(history, AddCombatant(name="Orla", side="party", sheet=LiveHackSheet(attack=5)))
    for name in foes or ("Goblin",):
        run(history, AddCombatant(name=name, side="foes", sheet=LiveHackSheet()))
    return history


@pytest.mark.parametrize(
    ("condition", "word"),
    [
        ("Dead", "dead"),
        ("Comatose", "comatose"),
        ("Dying", "dying"),
        ("Transforming", "transforming"),
        ("Transformed", "transformed"),
        ("Incapacitated", "incapacitated"),
        ("Discombobulated", ""),  # it loses an action, not the fight
        ("Prone", ""),
    ],
)
def test_the_conditions_that_end_a_combatants_fight(condition: str, word: str) -> None:
    history = pit()
    run(history, AddCondition("c2", condition))
    assert SYSTEM.out_of_fight(history.state, history.state.combatant("c2")) == word


@pytest.mark.parametrize(
    ("damage", "word"),
    [
        ({"str_damage": 10}, "helpless"),
        ({"int_damage": 10}, "catatonic"),
        ({"wis_damage": 10}, ""),  # "will do whatever anyone tells them": it acts when told
        ({"dex_damage": 10}, "paralyzed"),
        ({"con_damage": 10}, ""),  # no effort, but it still fights
        ({"cha_damage": 10}, ""),
        ({"dex_damage": 5}, ""),  # -5: a check before acting
    ],
)
def test_attributes_at_minus_ten_that_end_its_fight(damage: dict[str, int], word: str) -> None:
    history = pit()
    run(history, EditCombatant(combatant_id="c2", sheet=LiveHackSheet(**damage)))
    assert SYSTEM.out_of_fight(history.state, history.state.combatant("c2")) == word


def test_a_fight_to_its_end_by_commands() -> None:
    history = pit()
    assert not outcome(history.state).over
    # To hit: Orla +5, boon 11 - bane 1, against the Goblin taking zero: margin 15.
    run(history, LiveHackRoll(attacker_id="c1", defender_id="c2", defender_take="zero"), 11, 1)
    # Damage: +5, the rolled-over +3, 10 on the dice: margin 18, four Wounds and Dying.
    damage = LiveHackRoll(
        attacker_id="c1", defender_id="c2", defense="fortitude", defender_take="zero"
    )
    run(history, damage, 11, 1)
    assert not outcome(history.state).over  # the blow has not landed yet
    run(history, LiveHackApplyConsequence())
    result = outcome(history.state)
    assert result.headline == "Fight over: party won"
    assert result.out == {"c2": "dying"}
    figures = summary_of(history)
    assert (figures.rounds, figures.rolls, figures.unit) == (1, 2, "levels")
    orla, goblin = figures.fighters
    assert (orla.dealt, orla.taken, orla.rolls, orla.out) == (4, 0, 2, "")
    assert (goblin.dealt, goblin.taken, goblin.rolls, goblin.out) == (0, 4, 2, "dying")
    assert goblin.stats[2] == "4"  # Wnd: the sheet's own stats, as the pane shows them
    party, foes = figures.luck
    assert party.rolls == foes.rolls == 2
    assert party.luck is not None and foes.luck is not None
    assert party.luck > Fraction(1, 2) > foes.luck  # two big rolls for Orla
    assert party.luck + foes.luck == 1  # each roll's luck is one side's gain, the other's loss


def test_luck_on_a_roll_computed_by_hand() -> None:
    """Orla +0 against a defence of +0 taken as zero: the margin is boon minus bane. The two
    chains have the same law, so P(margin < 0) = (1 - P(margin = 0)) / 2, and
    P(margin = 0) = sum over values of P(chain = v)^2 = 11/144 + 11/144^2 + ... = 11/143 =
    1/13: a miss has 6/13. A miss is the worst tier for Orla: her percentile is half of it,
    3/13, and the Goblin's 1 - 3/13 = 10/13."""
    history = History(new_encounter("Pit", "livehack"))
    run(history, AddCombatant(name="Orla", side="party", sheet=LiveHackSheet()))
    run(history, AddCombatant(name="Goblin", side="foes", sheet=LiveHackSheet()))
    run(history, LiveHackRoll(attacker_id="c1", defender_id="c2", defender_take="zero"), 3, 5)
    odds = SYSTEM.last_odds(history.state)
    assert odds is not None and odds.tiers[0].p == Fraction(6, 13)
    party, foes = summary_of(history).luck
    assert (party.luck, foes.luck) == (Fraction(3, 13), Fraction(10, 13))


def test_out_of_the_fight_is_never_chosen_by_solo_play_or_the_quick_turn() -> None:
    history = pit("Goblin", "Rat")
    run(history, LiveHackRoll(attacker_id="c1", defender_id="c2", defender_take="zero"), 3, 5)
    run(history, AddCondition("c2", "Dying"))
    state = history.state
    orla = state.combatant("c1")
    # The quick turn: the Goblin was Orla's last target, but it is dying: the Rat instead.
    assert quick_flow.last_target(history, SYSTEM, orla, state).name == "Rat"
    for policy in ("roll", "aggressive", "cautious"):
        chosen = target_for(state, orla, policy)
        assert chosen is not None and chosen[0].name == "Rat"
    run(history, AddCondition("c3", "Dead"))
    assert quick_flow.last_target(history, SYSTEM, orla, history.state) is None
    assert target_for(history.state, orla, "aggressive") is None


def test_the_tracker_plays_no_more_once_the_fight_is_over() -> None:
    history = pit()
    run(history, SetSolo("foes"))
    run(history, AddCondition("c2", "Dead"))
    assert outcome(history.state).over
    run(history, NextTurn())  # the Goblin's turn: it would have passed it
    assert history.state.current_id == "c2"
    assert solo.next_move(history.state) is None
