"""Pain Pool: a challenge passed, a hero spent, a fight to its end, and its summary.

Dice order in a roll: Power (attribute die, boon dice), Precision, Possibility, then the Pain
Pool. A hero with no boons rolls d8, d6, d4.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.outcome import outcome, summary_of
from rules.systems.painpool.events import ApplyOutcome, PainPoolRoll, TakeDamage
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet, parse_boons
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
    # Luck ranks the difference (+7) among every difference d8 + d6 + d4 - 3d6 can have:
    # counted here over all 8 * 6 * 4 * 6^3 rolls, apart from the odds code.
    below = at = 0
    for faces in product(range(1, 9), range(1, 7), range(1, 5), *[range(1, 7)] * 3):
        difference = sum(faces[:3]) - sum(faces[3:])
        below += difference < 7
        at += difference == 7
    heroes, challenge = figures.luck
    assert heroes.luck == Fraction(2 * below + at, 2 * 8 * 6 * 4 * 6**3) == Fraction(2185, 2304)
    assert challenge.luck == 1 - heroes.luck


def luck_of(*rolls: tuple[int, ...]) -> Fraction | None:
    history = bridge(tokens=50)
    for faces in rolls:
        run(history, PainPoolRoll(hero_id="c1", challenge_id="c2"), *faces)
    return summary_of(history).luck[0].luck


def test_luck_counts_by_how_much_a_roll_won_not_only_that_it_won() -> None:
    """d8 + d6 + d4 against 3d6 are even odds (both average 10.5, both symmetric): by the
    three tiers alone a success and a failure always averaged exactly 50%, as did a tie."""
    by_seven, by_one = (5, 3, 2, 1, 1, 1), (4, 3, 2, 3, 3, 2)  # 10 vs 3, 9 vs 8
    lost_by_one = (3, 3, 2, 3, 3, 3)  # 8 vs 9
    assert luck_of(by_seven) > luck_of(by_one) > Fraction(1, 2)
    assert luck_of(by_seven, lost_by_one) != Fraction(1, 2)
    assert luck_of(by_seven, lost_by_one) > Fraction(1, 2)  # won by much, lost by little
    assert luck_of(by_one, lost_by_one) == Fraction(1, 2)  # even odds, even luck
    assert luck_of((3, 3, 2, 3, 3, 2)) == Fraction(1, 2)  # a tie at 8 vs 8: the middle


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
