"""Generic d20's odds against an independent count: every path of dice the real rules can
roll, each with its chance, and icepool for the damage."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import structs

from rules.commands import AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide, fold_onto
from rules.systems.d20.events import D20Apply, D20Attack, D20DeathSave, D20SaveEffect
from rules.systems.d20.odds import attack_odds, death_ends, save_chance
from rules.systems.d20.table import worked_out
from tests.cli.support import tracker
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, duel, sheet
from tests.systems.d20.test_d20 import dying_hero


class _Probe:
    """Dice that follow a prefix of faces, then show 1s, and remember what was asked."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        index = len(self.sides)
        self.sides.append(sides)
        return self.prefix[index] if index < len(self.prefix) else 1


def every_path(play: Callable[[Any], Any]) -> list[tuple[Any, Fraction]]:
    """What ``play`` gives for every sequence of faces it can ask for, with its chance."""
    out, stack = [], [[]]
    while stack:
        prefix = stack.pop()
        probe = _Probe(prefix)
        result = play(probe)
        if len(probe.sides) > len(prefix):
            stack += [[*prefix, face] for face in range(1, probe.sides[len(prefix)] + 1)]
            continue
        chance = Fraction(1)
        for sides in probe.sides:
            chance /= sides
        out.append((result, chance))
    return out


def tally(paths: list[tuple[Any, Fraction]]) -> dict[Any, Fraction]:
    found: dict[Any, Fraction] = {}
    for result, chance in paths:
        found[result] = found.get(result, Fraction(0)) + chance
    return found


# --- attacks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [0, 1, -1])
@pytest.mark.parametrize(("bonus", "ac", "crit"), [(5, 15, 20), (0, 25, 20), (9, 3, 19)])
def test_an_attacks_tiers_are_every_d20_the_rules_can_roll(mode, bonus, ac, crit):
    hero = structs.replace(HERO_SHEET, attack_bonus=bonus, crit_range=crit, damage="2")
    state = duel(hero=hero, foe=structs.replace(FOE_SHEET, ac=ac))
    counted = tally(
        every_path(lambda dice: decide(state, D20Attack("c1", "c2", mode), dice)[0].outcome)
    )
    odds = attack_odds(bonus, ac, mode, crit)
    assert {t.label: t.p for t in odds.tiers} == {
        t.label: counted.get(t.label, Fraction(0)) for t in odds.tiers
    }


@settings(max_examples=25, deadline=None)
@given(st.integers(-3, 12), st.integers(1, 30), st.sampled_from([0, 1, -1]))
def test_the_tiers_sum_to_one_and_advantage_never_hurts(bonus, ac, mode):
    plain = attack_odds(bonus, ac, 0)
    odds = attack_odds(bonus, ac, mode)
    assert sum(t.p for t in odds.tiers) == 1
    if mode > 0:
        assert odds.tiers[0].p <= plain.tiers[0].p
    if mode < 0:
        assert odds.tiers[0].p >= plain.tiers[0].p


@pytest.mark.parametrize(
    ("notation", "pool"),
    [
        ("1d8+3", icepool.d8 + 3),
        ("2d6+4", 2 @ icepool.d6 + 4),
        ("1d4-2", (icepool.d4 - 2).map(lambda v: max(v, 0))),
        ("4d6kh3", icepool.d6.highest(4, 3)),
    ],
)
def test_damage_is_the_distribution_icepool_counts(notation, pool):
    found = worked_out(notation, False)
    mine = {int(v): Fraction(w, found.denominator) for v, w in found.weights.items()}
    theirs = {int(v): Fraction(pool.quantity(v), pool.denominator()) for v in pool.outcomes()}
    assert {v: p for v, p in mine.items() if p} == {v: p for v, p in theirs.items() if p}


def test_a_criticals_damage_is_the_dice_doubled_as_icepool_counts():
    found = worked_out("1d8+3", True)
    pool = 2 @ icepool.d8 + 3
    assert found.weights == {v: pool.quantity(v) for v in pool.outcomes()}
    assert found.denominator == pool.denominator()


class _After:
    """Dice that show ``faces`` first, then ask ``then``."""

    def __init__(self, faces: tuple[int, ...], then: Any) -> None:
        self.faces, self.then = list(faces), then

    def roll(self, sides: int) -> int:
        return self.faces.pop(0) if self.faces else self.then.roll(sides)


@pytest.mark.parametrize(("hp", "resist"), [(9, ()), (4, ()), (12, ("slashing",)), (30, ())])
def test_the_chance_to_drop_the_target_is_every_path_of_attack_and_damage(hp, resist):
    # Every pair of d20s (advantage), played by the rules; the pairs that give the same
    # outcome are merged before every face of the damage is: 400 + 72 paths, not 6,000.
    foe = structs.replace(FOE_SHEET, hp=hp, hp_max=30, resistances=resist)
    state = duel(foe=foe)

    def drops(dice: Any) -> bool:
        events = decide(state, D20Attack("c1", "c2", 1), dice)
        if events[0].outcome == "miss":
            return False
        after = fold_onto(state, events)
        after = fold_onto(after, decide(after, D20Apply(), ScriptedDice([])))
        return sheet(after, "c2").hp == 0

    outcomes: dict[str, tuple[tuple[int, ...], Fraction]] = {}
    for faces in itertools.product(range(1, 21), repeat=2):
        outcome = decide(state, D20Attack("c1", "c2", 1), _After(faces, _Probe([])))[0].outcome
        first, chance = outcomes.get(outcome, (faces, Fraction(0)))
        outcomes[outcome] = (first, chance + Fraction(1, 400))
    counted = sum(
        (
            chance * tally(every_path(lambda dice, f=faces: drops(_After(f, dice)))).get(True, 0)
            for faces, chance in outcomes.values()
        ),
        Fraction(0),
    )
    modifier = "resistant" if resist else ""
    odds = attack_odds(5, 13, 1, damage="1d8+3", modifier=modifier, to_drop=hp)
    assert odds.extra["drop"] == counted


# --- saving throws and death saves ---------------------------------------------------------------


@pytest.mark.parametrize("restrained", [False, True])
@pytest.mark.parametrize("dc", [5, 13, 22])
def test_a_saves_chance_is_every_d20_the_rules_can_roll(dc, restrained):
    state = duel()
    if restrained:
        state = fold_onto(state, decide(state, AddCondition("c2", "restrained"), ScriptedDice([])))
    effect = D20SaveEffect("c1", ("c2",), "Net", "dex", dc, "")
    counted = tally(every_path(lambda dice: decide(state, effect, dice)[0].rolls[0].success))
    assert save_chance(2, dc, -1 if restrained else 0) == counted.get(True, Fraction(0))


def death_ends_counted(start: Any) -> tuple[Fraction, Fraction, Fraction]:
    """Orla's (c2) chance to come back, to stabilise and to die, left alone from ``start``:
    every face of every save, as every_path would, but the paths that reach the same tally of
    saves are merged before the next save (thousands of states, not 20**5 paths)."""

    def tally_of(state: Any) -> tuple[int, ...]:
        orla = sheet(state, "c2")
        return (orla.hp, orla.death_successes, orla.death_failures, orla.stable, orla.dead)

    def end(state: Any) -> str | None:
        orla = sheet(state, "c2")
        if orla.hp > 0:
            return "revived"
        return "dead" if orla.dead else "stable" if orla.stable else None

    counted: dict[str, Fraction] = {}
    alive: dict[tuple[int, ...], tuple[Any, Fraction]] = {}
    alive[tally_of(start)] = (start, Fraction(1))
    for round_ in range(start.round, start.round + 9):
        after: dict[tuple[int, ...], tuple[Any, Fraction]] = {}
        for state, chance in alive.values():
            state = state.update(round=round_)
            save = lambda dice, state=state: fold_onto(  # noqa: E731
                state, decide(state, D20DeathSave("c2"), dice)
            )
            for next_state, p in every_path(save):
                ended = end(next_state)
                if ended is not None:
                    counted[ended] = counted.get(ended, Fraction(0)) + chance * p
                    continue
                key = tally_of(next_state)
                kept = after.get(key, (next_state, Fraction(0)))
                after[key] = (kept[0], kept[1] + chance * p)
        alive = after
        if not alive:
            break
    assert not alive, "death saves that never end"
    assert sum(counted.values()) == 1
    revived, stable, dead = (counted.get(end, Fraction(0)) for end in ("revived", "stable", "dead"))
    return revived, stable, dead


def test_a_dying_heros_chance_of_each_end_is_every_path_of_death_saves():
    assert death_ends(0, 0) == death_ends_counted(dying_hero())


# --- the headless commands -----------------------------------------------------------------------


def test_tracker_odds_d20_gives_exact_fractions():
    result = tracker("odds", "d20", "--attack", "5", "--ac", "15", "--advantage", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [(t["label"], t["exact"]) for t in data["tiers"]] == [
        ("miss", "81/400"),
        ("hit", "7/10"),
        ("critical", "39/400"),
    ]


def test_tracker_roll_d20_rolls_the_damage_of_a_hit_reproducibly():
    args = ("roll", "d20", "--attack", "5", "--ac", "10", "--damage", "1d8+3 slashing")
    first = tracker(*args, "--seed", "7", "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["tier"] in ("miss", "hit", "critical") and data["seed"] == 7
    assert first.stdout == tracker(*args, "--seed", "7", "--json").stdout


@pytest.mark.parametrize(
    "args",
    [("--ac", "99"), ("--damage", "banana"), ("--crit", "1"), ("--attack", "100000")],
)
def test_tracker_odds_d20_refuses_a_bad_option_in_one_line(args):
    base = {"--attack": "5", "--ac": "15"}
    base.update(dict([args]))
    flat = [x for pair in base.items() for x in pair]
    result = tracker("odds", "d20", *flat)
    assert result.returncode != 0 and len(result.stderr.strip().splitlines()) == 1
