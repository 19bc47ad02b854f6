"""Generic d20's plain duel worked out (``exact_wins``): the answer a forecast's runs come to,
None for what solo play fights otherwise, and a tune of a duel measured exactly."""

from __future__ import annotations

from msgspec import structs

from rules.commands import AddCondition
from rules.dice import SeededDice
from rules.engine import decide, fold_onto
from rules.forecast import DEFAULT_ROUNDS, forecast, wilson
from rules.systems.d20.system import SYSTEM
from rules.tune import tune
from tests.systems.d20.support import FOE_SHEET, HERO, card, duel, fight
from tracker.headless.tune_runs import estimator, scratch_dice


def test_a_plain_duel_worked_out_lands_inside_a_forecasts_interval() -> None:
    state = duel(foe=card(hp="30/30", ac="14", attack_bonus="5", damage="1d10+3 piercing",
                          multiattack="2"))  # fmt: skip
    exact = SYSTEM.exact_wins(state, DEFAULT_ROUNDS)
    assert exact is not None
    played = forecast(state, runs=3000, seed=5)
    for side in played.sides:
        low, high = wilson(side.wins, played.runs, z=3.29)  # 99.9%: a seed never decides it
        assert low <= exact[side.side] <= high
    assert abs(sum(exact.values()) - 1) < 1e-9


def test_a_duel_solo_play_fights_otherwise_is_not_worked_out() -> None:
    prone = fold_onto(duel(), decide(duel(), AddCondition("c2", "prone"), SeededDice(1)))
    assert SYSTEM.exact_wins(prone, DEFAULT_ROUNDS) is None
    three = fight(("Orla", "party", card(HERO, hp="20/20")), ("A", "foes", FOE_SHEET),
                  ("B", "foes", FOE_SHEET))  # fmt: skip
    assert SYSTEM.exact_wins(three, DEFAULT_ROUNDS) is None
    for more in ({"legendary": 1}, {"bonus_attack": True}, {"exhaustion": 2}):
        other = duel(foe=structs.replace(FOE_SHEET, **more))
        assert SYSTEM.exact_wins(other, DEFAULT_ROUNDS) is None, more


def test_a_round_limit_leaves_the_rest_to_nobody() -> None:
    state = duel()
    one_round = SYSTEM.exact_wins(state, 1)
    assert one_round is not None and sum(one_round.values()) < 0.5


def test_a_duel_is_tuned_on_exact_chances_by_its_hit_points() -> None:
    state = duel()
    estimate = estimator("party", 0.5, 1, None, runs=50)
    tuning = tune(state, "party", 0.5, estimate, scratch_dice(1), count=False, max_steps=12)
    assert tuning.start.exact and tuning.start.runs == 0
    scaled = [s for s in tuning.steps if "hit points" in s.what]
    assert scaled and all(s.chance.exact for s in scaled)
    assert tuning.reached and abs(tuning.chance.p - 0.5) <= 0.03
