"""Pain Pool, read a third time (issue 30): readings a player would dispute."""

from __future__ import annotations

from rules.dice import ScriptedDice
from rules.systems.painpool.events import SpendDespair, SpendHope
from rules.systems.painpool.sheet import ChallengeSheet
from rules.systems.painpool.system import SYSTEM
from tests.helpers import run
from tests.systems.painpool.challenge import fight, hero, roll

# --- R3-19: "re-roll ... and keep the higher value", each pool re-rolled keeps its own ------


def test_despair_and_hope_each_keep_the_higher_value_of_every_pool_re_rolled() -> None:
    # The Pain Pool is one pool whose value is its kept total; a hero pool's value is its one
    # kept die. The same words, read the same way: the higher value of each pool re-rolled.
    history = fight()
    roll(history, [2, 2, 2, 6, 1, 1])  # Pain dominates: Despair 1
    run(history, SpendDespair(), ScriptedDice([5, 2, 1]))  # 8 over 8: the first roll stays
    assert history.state.last_roll.pain.kept == (6, 1, 1)
    run(history, SpendHope(pools=("power", "precision")), ScriptedDice([7, 1]))
    last = history.state.last_roll
    # Power's 7 over 2, Precision's 2 over the 1: not one comparison of 8 against 4.
    assert [p.kept for p in last.pools] == [7, 2, 2] and last.hero_total == 11


# --- R3-20: a maneuver's failure levels take no template's damage change --------------------


def test_a_failed_maneuver_against_slow_but_strong_costs_the_difference_only() -> None:
    foe = ChallengeSheet(pool=3, tokens=5, templates=("slow-but-strong",))
    history = fight(hero("Fighting +3d pre; Wits +2d pos"), foe)
    rolled = roll(history, [1, 1, 1, 2, 2, 2], kind="maneuver")  # 3 vs 6: lost by 3
    assert rolled.hero_damage == 3  # not 3 + 2: "does not risk being damaged"
    assert SYSTEM.pending(history.state) == "Bullet takes 3 failure levels"
    attack = fight(hero(), foe)
    assert roll(attack, [1, 1, 1, 2, 2, 2]).hero_damage == 5  # an attack still takes the +2


def test_a_maneuvers_odds_take_no_template_damage_change() -> None:
    foe = ChallengeSheet(pool=3, tokens=5, templates=("slow-but-strong",))
    history = fight(hero(), foe)
    values = {"hero": "c1", "challenge": "c2", "kind": "maneuver"}
    maneuver = SYSTEM.odds(history.state, "roll", values)
    attack = SYSTEM.odds(history.state, "roll", {**values, "kind": "attack"})
    assert maneuver is not None and attack is not None
    assert maneuver.tiers == attack.tiers  # the same dice and chances
    assert max(maneuver.extra["damage"]) == max(attack.extra["damage"]) - 2
    roll(history, [1, 1, 1, 2, 2, 2], kind="maneuver")
    last = SYSTEM.last_odds(history.state)
    assert last is not None and max(last.extra["damage"]) == max(maneuver.extra["damage"])
