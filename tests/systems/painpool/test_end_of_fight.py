"""Pain Pool: a challenge passed, a hero spent, a fight to its end, and its summary.

Dice order in a roll: Power (attribute die, boon dice), Precision, Possibility, then the Pain
Pool. A hero with no boons rolls d8, d6, d4.
"""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.outcome import outcome, summary_of
from rules.systems.painpool.events import ApplyOutcome, PainPoolRoll, TakeDamage
from rules.systems.painpool.sheets import ChallengeSheet, HeroSheet, parse_boons
from rules.systems.painpool.solo import answer_target
from rules.systems.painpool.system import SYSTEM
from tracker import quick_flow


def run(history: History, command: object, *faces: int) -> None:
    history.commit(decide(history.state, command, ScriptedDice(faces)), type(command).__name__)


def bridge(bo: str = "", tokens: int = 2) -> History:
    """Bo (c1, heroes) against the Ogre (c2, a 3d6 Pain Pool with ``tokens`` health)."""
    history = History(new_encounter("Bridge", "painpool"))
    run(history, AddCombatant(name="Bo", side="heroes", sheet=HeroSheet(boons=parse_boons(bo))))
    ogre = ChallengeSheet(pool=3, tokens=tokens)
    run(history, AddCombatant(name="Ogre", side="challenge", sheet=ogre))
    return history


def test_a_fight_to_its_end_by_commands() -> None:
    history = bridge()
    run(history, PainPoolRoll(hero_id="c1", challenge_id="c2"), 5, 3, 2, 1, 1, 1)  # 10 vs 3
    assert not outcome(history.state).over
    run(history, ApplyOutcome())  # 7 off 2 tokens: the challenge is passed
    result = outcome(history.state)
    assert result.headline == "Fight over: heroes won" and result.out == {"c2": "passed"}
    figures = summary_of(history)
    assert (figures.rounds, figures.rolls, figures.unit) == (1, 1, "points")
    bo, ogre = figures.fighters
    assert (bo.dealt, bo.rolls, ogre.taken, ogre.out) == (2, 1, 2, "passed")
    assert "passed" in ogre.stats[1]
    # The tiers go success, tie, failure: a success is the hero's best, so its percentile is
    # 1 - P(success) / 2, and the challenge's P(success) / 2.
    odds = SYSTEM.last_odds(history.state)
    assert odds is not None
    heroes, challenge = figures.luck
    assert heroes.luck == 1 - odds.tiers[0].p / 2
    assert challenge.luck == odds.tiers[0].p / 2


def test_a_hero_with_every_boon_crossed_off_is_spent() -> None:
    history = bridge("Aim +1d pre")
    assert not SYSTEM.out_of_fight(history.state, history.state.combatant("c1"))
    # Bo d8 [1], Precision d6 + Aim d6 [1, 1], d4 [1]: 3 against 6 + 6 + 6 = 18.
    run(history, PainPoolRoll(hero_id="c1", challenge_id="c2"), 1, 1, 1, 1, 6, 6, 6)
    run(history, TakeDamage(hits=(("Aim", 1),)))  # the one level it has
    assert SYSTEM.out_of_fight(history.state, history.state.combatant("c1")) == "spent"
    assert outcome(history.state).headline == "Fight over: challenge won"
    bo, ogre = summary_of(history).fighters
    assert (bo.taken, ogre.dealt) == (1, 1)


def test_a_hero_with_no_boons_at_all_is_not_spent() -> None:
    history = bridge()
    assert SYSTEM.out_of_fight(history.state, history.state.combatant("c1")) == ""


def test_out_of_the_fight_is_never_chosen_by_solo_play_or_the_quick_turn() -> None:
    history = bridge("Aim +1d pre")
    run(history, AddCombatant(name="Cy", side="heroes", sheet=HeroSheet()))
    run(history, PainPoolRoll(hero_id="c1", challenge_id="c2"), 1, 1, 1, 1, 6, 6, 6)
    run(history, TakeDamage(hits=(("Aim", 1),)))  # Bo is spent
    state = history.state
    roll = state.last_roll
    for policy in ("steady", "aggressive"):
        target, _ = answer_target(state, roll, policy)  # type: ignore[arg-type]
        assert target is None or target.name == "Cy"
    ogre = state.combatant("c2")
    assert quick_flow.last_target(history, SYSTEM, ogre, state).name == "Cy"
