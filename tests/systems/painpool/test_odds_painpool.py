"""Pain Pool exact odds: brute force, a seeded simulation, icepool, the CLI and the hooks."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import SeededDice
from rules.systems.painpool.events import (
    DespairSpent,
    HopeSpent,
    PoolReroll,
    changed_roll,
)
from rules.systems.painpool.odds import (
    MOST_COUNTED,
    despair_odds,
    hope_odds,
    pain_totals,
    painpool_odds,
)
from rules.systems.painpool.roll import PainPoolRolled, PainRoll, Part, PoolRoll, dominant
from rules.systems.painpool.roll_cli import rolled as headless_roll
from rules.systems.painpool.system import SYSTEM
from tests.helpers import unnamed
from tests.systems.painpool.challenge import FOE, HERO, fight, hero, roll

BUILD = (("power", 3, 8), ("precision", 2, 6), ("possibility", 1, 4))
NAMES = ("power", "precision", "possibility", "pain")
ODDS_EXTRAS = ("outcome", "dominance", "difference", "despair", "despair_dominance", "hope")
ODDS_EXTRAS += ("hope_dominance", "damage")


def faces(count: int, size: int) -> list[tuple[int, ...]]:
    return list(product(range(1, size + 1), repeat=count))


def pools_of(pools: tuple[tuple[str, int, int], ...]) -> list[tuple[PoolRoll, ...]]:
    """Every outcome of the hero pools, as the system's own ``PoolRoll``s."""
    each = [
        [PoolRoll(pool=name, size=size, attribute=f[0], boon_dice=f[1:]) for f in faces(n, size)]  # type: ignore[arg-type]
        for name, n, size in pools
    ]
    return [tuple(combo) for combo in product(*each)]


def brute_force(pools: tuple[tuple[str, int, int], ...], pain: int) -> dict[str, object]:
    """Every die of every pool enumerated; kept dice, totals and dominance by the system's roll
    code (``PainPoolRolled.difference`` and ``.dominant`` add nothing to these)."""
    heroes = pools_of(pools)
    pains = [PainRoll(parts=(), dice=f) for f in faces(pain, 6)]
    space = len(heroes) * len(pains)
    difference: Counter[int] = Counter()
    dominance: Counter[str] = Counter()
    totals = [sum(p.kept for p in pool_roll) for pool_roll in heroes]
    for (pool_roll, total), pain_roll in product(zip(heroes, totals, strict=True), pains):
        difference[total - pain_roll.total] += 1
        dominance[dominant(pool_roll, pain_roll)] += 1
    return {
        "difference": {d: Fraction(w, space) for d, w in sorted(difference.items())},
        "dominance": {name: Fraction(dominance[name], space) for name in NAMES},
    }


def outcome(difference: dict[int, Fraction]) -> dict[str, Fraction]:
    return {
        "success": sum((p for d, p in difference.items() if d > 0), Fraction(0)),
        "tie": difference.get(0, Fraction(0)),
        "failure": sum((p for d, p in difference.items() if d < 0), Fraction(0)),
    }


# --- exact against brute force -------------------------------------------------------------


@pytest.mark.parametrize("pain", [1, 2, 3, 4, 5, 6])
def test_the_pain_pool_total_matches_every_roll_of_the_dice(pain: int) -> None:
    counts = Counter(PainRoll(parts=(), dice=f).total for f in faces(pain, 6))
    assert dict(pain_totals(pain)) == dict(counts)


@pytest.mark.parametrize(
    ("pools", "pain"),
    [
        ((("power", 1, 8), ("precision", 1, 6), ("possibility", 1, 4)), 3),
        ((("power", 2, 4), ("precision", 1, 3), ("possibility", 2, 2)), 3),
        ((("power", 1, 2), ("precision", 2, 2), ("possibility", 1, 3)), 4),
    ],
)
def test_exact_odds_equal_brute_force(pools: tuple[tuple[str, int, int], ...], pain: int) -> None:
    odds = painpool_odds(pools, pain)
    truth = brute_force(pools, pain)
    assert odds.extra["difference"] == truth["difference"]
    assert odds.extra["dominance"] == truth["dominance"]
    assert odds.extra["outcome"] == outcome(truth["difference"])  # type: ignore[arg-type]
    assert [t.p for t in odds.tiers] == list(outcome(truth["difference"]).values())  # type: ignore[arg-type]


def test_the_tiers_are_the_systems_and_sum_to_exactly_one() -> None:
    odds = painpool_odds(BUILD, 9)
    state = fight().state
    assert [(t.label, t.low, t.high) for t in odds.tiers] == [
        (t.label, t.low, t.high) for t in SYSTEM.tiers(state)
    ]
    assert sum(t.p for t in odds.tiers) == 1
    for extra in ODDS_EXTRAS:
        assert sum(odds.extra[extra].values()) == 1  # type: ignore[attr-defined]
    assert all(isinstance(t.p, Fraction) for t in odds.tiers)
    assert odds.tier_of(3) == 0 and odds.tier_of(0) == 1 and odds.tier_of(-2) == 2


def test_a_despair_reroll_keeping_the_higher_equals_brute_force() -> None:
    pools = (("power", 1, 2), ("precision", 1, 3), ("possibility", 1, 6))
    pains = faces(3, 6)
    rerolled = [
        PainRoll(parts=(), dice=first, rerolls=(again,)) for first, again in product(pains, pains)
    ]
    despair = Counter(pain.total for pain in rerolled)
    tops = Counter(pain.top for pain in rerolled)
    heroes = pools_of(pools)
    difference: Counter[int] = Counter()
    dominance: Counter[str] = Counter()
    for combo in heroes:
        total = sum(p.kept for p in combo)
        for pain, ways in despair.items():
            difference[total - pain] += ways
        for top, ways in tops.items():
            dominance[dominant(combo, PainRoll(parts=(), dice=(top,)))] += ways
    space = sum(difference.values())
    odds = painpool_odds(pools, 3)
    assert odds.extra["despair"] == outcome({d: Fraction(w, space) for d, w in difference.items()})
    assert odds.extra["despair_dominance"] == {n: Fraction(dominance[n], space) for n in NAMES}


def test_a_despair_tie_keeps_the_first_roll_and_its_top() -> None:
    tied = PainRoll(parts=(), dice=(6, 1, 1), rerolls=((3, 3, 2),))
    assert tied.total == 8 and tied.top == 6
    higher = PainRoll(parts=(), dice=(6, 1, 1), rerolls=((3, 3, 3),))
    assert higher.total == 9 and higher.top == 3


def test_a_hope_reroll_of_every_pool_equals_brute_force() -> None:
    pools = (("power", 1, 3), ("precision", 1, 2), ("possibility", 1, 2))
    rerolled = [
        PoolRoll(pool=name, size=size, attribute=a, rerolls=((b,),))  # type: ignore[arg-type]
        for name, _, size in pools
        for a, b in product(range(1, size + 1), repeat=2)
    ]
    by_pool = [[p for p in rerolled if p.pool == name] for name, _, _ in pools]
    rolls = [PainRoll(parts=(), dice=f) for f in faces(3, 6)]
    pains, tops = Counter(p.total for p in rolls), Counter(p.top for p in rolls)
    difference: Counter[int] = Counter()
    dominance: Counter[str] = Counter()
    for combo in product(*by_pool):
        total = sum(p.kept for p in combo)
        for pain, ways in pains.items():
            difference[total - pain] += ways
        for top, ways in tops.items():
            dominance[dominant(combo, PainRoll(parts=(), dice=(top,)))] += ways
    space = sum(difference.values())
    odds = painpool_odds(pools, 3)
    assert odds.extra["hope"] == outcome({d: Fraction(w, space) for d, w in difference.items()})
    assert odds.extra["hope_dominance"] == {n: Fraction(dominance[n], space) for n in NAMES}


def test_despair_only_hurts_the_hero_and_hope_only_helps() -> None:
    odds = painpool_odds(BUILD, 6)
    base, despair, hope = (odds.extra[k] for k in ("outcome", "despair", "hope"))
    assert despair["success"] < base["success"] < hope["success"]  # type: ignore[index]
    assert despair["failure"] > base["failure"] > hope["failure"]  # type: ignore[index]
    pain = [odds.extra[k]["pain"] for k in ("hope_dominance", "dominance", "despair_dominance")]  # type: ignore[index]
    assert pain == sorted(pain) and pain[0] < pain[2]


# --- damage after templates, and Despair and Hope on a rolled roll ------------------------------

SLOW_BUT_STRONG = (Part("Slow but Strong", 2),)


@pytest.mark.parametrize(
    ("parts", "kind"),
    [(SLOW_BUT_STRONG, "attack"), ((Part("Fast but Weak", -1),), "attack"), ((), "maneuver")],
)
def test_the_damage_after_templates_equals_brute_force(parts, kind) -> None:
    """Every outcome through the system's own ``hero_damage`` (templates and maneuvers)."""
    pools = (("power", 2, 4), ("precision", 1, 3), ("possibility", 1, 2))
    damage: Counter[int] = Counter()
    pains = [PainRoll(parts=(), dice=f) for f in faces(3, 6)]
    for combo, pain in product(pools_of(pools), pains):
        roll = PainPoolRolled(
            hero_id="", challenge_id="", pools=combo, pain=pain, damage_parts=parts, kind=kind
        )
        damage[roll.hero_damage] += 1
    space = sum(damage.values())
    bonus = sum(part.value for part in parts)
    odds = painpool_odds(pools, 3, bonus)  # a maneuver's loss costs failure levels too
    assert odds.extra["damage"] == {d: Fraction(w, space) for d, w in sorted(damage.items())}
    hurt = space - damage[0]
    mean = sum(d * w for d, w in damage.items()) / space
    expected = (
        f"Hero's damage: {hurt * 100 / space:.1f}% chance, "
        f"{mean:.1f} on average, at most {max(damage)}"
    )
    assert odds.extra["note"] == (expected if hurt else "The hero takes no damage")


def rolled(**changes: object) -> PainPoolRolled:
    """A rolled roll: Power 2d4 kept 2, Precision 1d3 kept 1, Possibility 2d2 kept 1, against
    Pain (5, 3, 2, 1): 10; Slow but Strong adds 2 to the damage."""
    fields: dict[str, object] = {
        "hero_id": "",
        "challenge_id": "",
        "pools": (
            PoolRoll(pool="power", size=4, attribute=2, boon_dice=(1,)),
            PoolRoll(pool="precision", size=3, attribute=1),
            PoolRoll(pool="possibility", size=2, attribute=1, boon_dice=(1,)),
        ),
        "pain": PainRoll(parts=(Part("pool", 4),), dice=(5, 3, 2, 1)),
        "damage_parts": SLOW_BUT_STRONG,
    }
    return PainPoolRolled(**{**fields, **changes})  # type: ignore[arg-type]


def kept_of(roll: PainPoolRolled) -> tuple[tuple[str, int, int, int], ...]:
    return tuple((p.pool, p.count, p.size, p.kept) for p in roll.pools)


def tally(changed: list[PainPoolRolled]) -> dict[str, object]:
    """The figures of every equally likely changed roll, by the system's own properties."""
    space = len(changed)
    outcomes = Counter(r.outcome for r in changed)
    damage = [r.hero_damage for r in changed]
    return {
        "tiers": [Fraction(outcomes[o], space) for o in ("success", "tie", "failure")],
        "dominance": {n: Fraction(sum(r.dominant == n for r in changed), space) for n in NAMES},
        "damage": {d: Fraction(w, space) for d, w in sorted(Counter(damage).items())},
    }


def figures(odds) -> dict[str, object]:
    return {
        "tiers": [t.p for t in odds.tiers],
        "dominance": odds.extra["dominance"],
        "damage": odds.extra["damage"],
    }


@pytest.mark.parametrize(
    "chosen", [("power",), ("precision", "possibility"), ("power", "precision", "possibility")]
)
def test_a_hope_reroll_of_some_pools_equals_brute_force(chosen: tuple[str, ...]) -> None:
    roll = rolled()
    changed = []
    pools = {p.pool: p for p in roll.pools}
    for new in product(*(faces(pools[name].count, pools[name].size) for name in chosen)):
        event = HopeSpent(
            hero_id="", rerolls=tuple(PoolReroll(n, f) for n, f in zip(chosen, new, strict=True))
        )
        changed.append(changed_roll(roll, event))
    odds = hope_odds(kept_of(roll), chosen, roll.pain.total, roll.pain.top, 0, 2)
    assert figures(odds) == tally(changed)
    assert sum(odds.extra["difference"].values()) == 1  # type: ignore[attr-defined]


def test_a_hope_raise_is_certain_and_pain_dominates() -> None:
    roll = rolled()  # 2 + 1 + 1 = 4 against 10
    odds = hope_odds(kept_of(roll), (), roll.pain.total, roll.pain.top, 6, 2)
    changed = changed_roll(roll, HopeSpent(hero_id="", raised=6))
    assert figures(odds) == tally([changed])
    assert [t.p for t in odds.tiers] == [0, 1, 0]  # 10 against 10: a tie
    assert odds.extra["dominance"]["pain"] == 1  # type: ignore[index]


@pytest.mark.parametrize("pain", [(5, 3, 2, 1), (2, 2, 1, 1), (6, 6, 6, 6)])
def test_a_despair_reroll_of_a_rolled_roll_equals_brute_force(pain: tuple[int, ...]) -> None:
    roll = rolled(pain=PainRoll(parts=(Part("pool", 4),), dice=pain))
    changed = [changed_roll(roll, DespairSpent(dice=f)) for f in faces(4, 6)]
    odds = despair_odds(kept_of(roll), 4, roll.pain.total, roll.pain.top, 0, 2)
    assert figures(odds) == tally(changed)


def test_the_dialog_shows_the_odds_of_despair_and_hope_on_the_roll() -> None:
    from rules.systems.painpool.sheet import ChallengeSheet

    # Slow but Strong: one Pain die less (5 - 1), 2 more damage
    history = fight(hero(favor=1), ChallengeSheet(pool=5, templates=("slow-but-strong",)))
    assert SYSTEM.odds(history.state, "hope", {}) is None  # nothing rolled yet
    made = roll(history, [2, 1, 1, 5, 3, 2, 1])  # d8 2, d6 1, d4 1 against 5, 3, 2, 1
    assert made.damage_parts == SLOW_BUT_STRONG
    state = history.state.update(
        system_state=history.state.system_state.__class__(despair=1, hope=1)
    )
    kept = kept_of(made)
    values = {"mode": "reroll", "reroll_power": "yes", "reroll_precision": "no",
              "reroll_possibility": "no"}  # fmt: skip
    assert unnamed(SYSTEM.odds(state, "hope", values)) == hope_odds(kept, ("power",), 10, 5, 0, 2)
    values["reroll_precision"] = "yes"
    assert unnamed(SYSTEM.odds(state, "hope", values)) == hope_odds(
        kept, ("power", "precision"), 10, 5, 0, 2
    )
    values |= {"mode": "raise", "raise_by": "1"}
    assert unnamed(SYSTEM.odds(state, "hope", values)) == hope_odds(kept, (), 10, 5, 1, 2)
    values["raise_by"] = "2"  # more favor than the hero has: refused, so no odds
    assert SYSTEM.odds(state, "hope", values) is None
    assert unnamed(SYSTEM.odds(state, "despair", {})) == despair_odds(kept, 4, 10, 5, 0, 2)
    before = SYSTEM.last_odds(state)
    assert unnamed(before) == painpool_odds(
        (("power", 1, 8), ("precision", 1, 6), ("possibility", 1, 4)), 4, 2
    )


# --- a seeded simulation with the real roll code ------------------------------------------------


def test_a_seeded_simulation_of_the_real_roll_agrees() -> None:
    args = argparse.Namespace(power="3d8", precision="2d6", possibility="1d4", pain="9d6")
    dice = SeededDice(7)
    rolls = 10_000
    outcomes: Counter[str] = Counter()
    dominance: Counter[str] = Counter()
    for _ in range(rolls):
        rolled = headless_roll(args, dice)
        outcomes[rolled.outcome] += 1
        dominance[rolled.dominant] += 1
    odds = painpool_odds(BUILD, 9)
    for name, p in odds.extra["outcome"].items():  # type: ignore[attr-defined]
        assert abs(outcomes[name] / rolls - float(p)) < 0.02, name
    for name, p in odds.extra["dominance"].items():  # type: ignore[attr-defined]
        assert abs(dominance[name] / rolls - float(p)) < 0.02, name


# --- icepool as an independent oracle ------------------------------------------------------


def kept_die(icepool, count: int, size: int):  # type: ignore[no-untyped-def]
    """The highest of ``count`` dice of ``size``, as an icepool Die."""
    return icepool.d(size).pool(count).highest(1).sum()


@pytest.mark.parametrize("pain", [3, 6, 9])
@pytest.mark.parametrize("boons", [0, 2])
def test_icepool_agrees_on_the_difference(pain: int, boons: int) -> None:
    icepool = pytest.importorskip("icepool")
    pools = (("power", 1 + boons, 8), ("precision", 1 + boons, 6), ("possibility", 1, 4))
    kept = [kept_die(icepool, count, size) for _, count, size in pools]
    hero_total = kept[0] + kept[1] + kept[2]
    pain_total = icepool.d6.pool(pain).highest(3).sum()
    die = hero_total - pain_total
    want = {k: Fraction(die.quantity(k), die.denominator()) for k in die.outcomes()}
    got = painpool_odds(pools, pain).extra["difference"]
    assert {k: p for k, p in got.items() if p} == want  # type: ignore[union-attr]
    again = icepool.highest(pain_total, pain_total)
    despair = hero_total - again
    win = Fraction(sum(despair.quantity(k) for k in despair.outcomes() if k > 0))
    assert painpool_odds(pools, pain).extra["despair"]["success"] == win / despair.denominator()  # type: ignore[index]


def test_icepool_agrees_on_dominance_through_the_real_tie_rule() -> None:
    icepool = pytest.importorskip("icepool")
    pools = BUILD
    pain = 5

    def who(power: int, precision: int, possibility: int, top: int) -> str:
        kept = (power, precision, possibility)
        rolls = tuple(
            PoolRoll(pool=name, size=size, attribute=value)  # type: ignore[arg-type]
            for (name, _, size), value in zip(pools, kept, strict=True)
        )
        return dominant(rolls, PainRoll(parts=(), dice=(top,)))

    dice = [kept_die(icepool, count, size) for _, count, size in pools]
    dice.append(kept_die(icepool, pain, 6))
    die = icepool.map(who, *dice)
    want = {name: Fraction(die.quantity(name), die.denominator()) for name in NAMES}
    assert painpool_odds(pools, pain).extra["dominance"] == want


# --- speed ----------------------------------------------------------------------------------


# --- the CLI ---------------------------------------------------------------------------------

ODDS = ("odds", "painpool", "--power", "3d8", "--precision", "2d6", "--possibility", "1d4")


def tracker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
    )


def test_the_cli_prints_a_table_with_bars() -> None:
    result = tracker(*ODDS, "--pain", "9d6")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[:3]] == ["Best", "Good", "Worst"]
    assert "█" in result.stdout and "%" in lines[0]
    assert any(line.startswith("dominance: power") for line in lines)


def test_the_cli_json_has_exact_fractions_outcome_and_dominance() -> None:
    result = tracker(*ODDS, "--pain", "9d6", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    odds = painpool_odds(BUILD, 9)
    assert data["system"] == "painpool"
    assert [(t["label"], t["low"], t["high"]) for t in data["tiers"]] == [
        ("Best", 1, None),
        ("Good", 0, 0),
        ("Worst", None, -1),
    ]
    exact = [Fraction(t["exact"]) for t in data["tiers"]]
    assert exact == [t.p for t in odds.tiers] and sum(exact) == 1
    assert set(data["outcome"]) == {"success", "tie", "failure"}
    assert data["outcome"]["success"] == float(odds.tiers[0].p)
    assert set(data["dominance"]) == set(NAMES)
    assert abs(sum(data["dominance"].values()) - 1) < 1e-12
    assert set(data) == {"system", "tiers", "note", *ODDS_EXTRAS}
    assert set(data["despair"]) == set(data["hope"]) == {"success", "tie", "failure"}
    assert set(data["despair_dominance"]) == set(data["hope_dominance"]) == set(NAMES)
    assert sum(data["difference"].values()) == pytest.approx(1)


@pytest.mark.parametrize(
    "bad",
    [
        ("--pain", "9d6", "--bogus"),
        ("--pain", "2d6"),
        ("--pain", "9d8"),
        ("--pain", "nine"),
    ],
)
def test_bad_flags_exit_2_with_one_line(bad: tuple[str, ...]) -> None:
    result = tracker(*ODDS, *bad)
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1


def test_the_odds_command_does_not_load_textual() -> None:
    argv = [*ODDS, "--pain", "9d6", "--json"]
    code = (
        f"import sys; from tracker.cli import main; main({argv!r}); "
        "print(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout
    assert out.strip().endswith("False")


def test_pools_other_than_one_each_of_d8_d6_d4_are_refused() -> None:
    result = tracker(
        "odds", "painpool", "--power", "3d8", "--precision", "2d8", "--possibility", "1d4",
        "--pain", "4d6",
    )  # fmt: skip
    assert result.returncode == 2 and "d8, d6 and d4" in result.stderr


# --- the hooks --------------------------------------------------------------------------------


def roll_values(**extra: str) -> dict[str, str]:
    return {"hero": HERO, "challenge": FOE, **extra}


def test_the_odds_hook_follows_the_dialog() -> None:
    from rules.systems.painpool.sheet import ChallengeSheet

    history = fight(hero("Fighting +2d pre; Strong Arm +2d pow/pre"), ChallengeSheet(pool=5))
    state = history.state
    fields = {f.key: f for f in SYSTEM.action_form(state, "roll", HERO)}
    values = {key: f.default for key, f in fields.items()}
    odds = SYSTEM.odds(state, "roll", values)
    # the default boons: Strong Arm on Power, Fighting on Precision
    assert unnamed(odds) == painpool_odds(
        (("power", 3, 8), ("precision", 3, 6), ("possibility", 1, 4)), 5
    )
    assert odds is not None and odds.whose == "Bullet's chances vs Ogre"
    more = SYSTEM.odds(state, "roll", {**values, "pain_extra": "2", "boon_power": ""})
    assert unnamed(more) == painpool_odds(
        (("power", 1, 8), ("precision", 3, 6), ("possibility", 1, 4)), 7
    )
    assert SYSTEM.odds(state, "roll", {**values, "pain_extra": "lots"}) is None
    assert SYSTEM.odds(state, "roll", {**values, "boon_possibility": "Fighting"}) is None
    assert SYSTEM.odds(state, "despair", {}) is None


def test_last_odds_are_the_odds_the_last_roll_had() -> None:
    history = fight()
    assert SYSTEM.last_odds(history.state) is None
    rolled = roll(history, [5, 3, 2, 4, 3, 1])
    odds = SYSTEM.last_odds(history.state)
    assert unnamed(odds) == painpool_odds(
        (("power", 1, 8), ("precision", 1, 6), ("possibility", 1, 4)), 3
    )
    assert odds is not None and odds.tier_of(rolled.difference) == 0


def test_a_pool_of_a_million_dice_is_refused_at_once_not_counted_for_ever() -> None:
    """Found by the walk: a Pain Pool edited to 1,000,008 dice kept the roll dialog's odds
    worker counting for ever, and the app's shutdown waited on it."""
    pools = (("power", 3, 8), ("precision", 3, 6), ("possibility", 4, 4))
    with pytest.raises(ValueError, match="at most"):
        painpool_odds(pools, 1_000_008)
    with pytest.raises(ValueError, match="at most"):
        painpool_odds((("power", 1_000_000, 8), *pools[1:]), 3)
    assert painpool_odds(pools, MOST_COUNTED).tiers  # the bound itself is still counted
