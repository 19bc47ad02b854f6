"""LiveHack's exact odds: the closed form against enumeration, simulation, icepool, the CLI
and the system hooks."""

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules.dice import SeededDice
from rules.systems.livehack import decide as decide_
from rules.systems.livehack.events import LiveHackRolled
from rules.systems.livehack.odds import (
    ECLIPSE_ONE,
    joint_odds,
    margin_probability,
    opposed_odds,
    twelves_poly,
    twelves_tail,
)
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackJointRoll,
    LiveHackRoll,
    LiveHackSheet,
    Part,
    roll_side,
)
from tests.helpers import encounter, run, unnamed

Q = Fraction(1, 12)
LABELS = ["miss", "0-4", "5-9", "10-14", "15+"]
TAKES = ("roll", "zero", "ten")


def chains(depth):
    """Every chain with at most ``depth`` 12s: (total, weight * 12^(depth+1)), integer weights."""
    return [
        (12 * k + r, 12 ** (depth - k)) for k in range(depth + 1) for r in range(1, 12)
    ]  # P(12k + r) = 12^-(k+1)


def enumerated_tiers(offset, rollers, depth):
    """Tier chances over every outcome whose chains hold at most ``depth`` 12s (a lower bound;
    the missing mass is the chance any chain goes deeper)."""
    odds = opposed_odds(0, 0)
    counts = Counter()
    base = chains(depth)
    for outcome in product(base, repeat=2 * rollers):
        margin = offset
        weight = 1
        for i, (value, w) in enumerate(outcome):
            margin += value if i % 2 == 0 else -value  # boon +, bane -; the defender's swap
            weight *= w
        counts[odds.tier_of(margin)] += weight
    scale = 12 ** ((depth + 1) * 2 * rollers)
    return [Fraction(counts[i], scale) for i in range(5)]


def tiers_of(odds):
    return [t.p for t in odds.tiers]


# --- exactness -----------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", [-25, -7, -1, 0, 3, 12, 30])
@pytest.mark.parametrize("a_take", TAKES)
@pytest.mark.parametrize("d_take", TAKES)
def test_the_tiers_sum_to_exactly_one(attacker, a_take, d_take):
    odds = opposed_odds(attacker, 2, a_take, d_take)
    assert [t.label for t in odds.tiers] == LABELS
    assert sum(tiers_of(odds), Fraction(0)) == 1
    assert all(t.p >= 0 for t in odds.tiers)


def test_the_labels_and_bounds_are_the_systems_tiers():
    state = encounter(None, None).state
    shown = [(t.label, t.low, t.high) for t in SYSTEM.tiers(state)]
    assert shown == [(t.label, t.low, t.high) for t in opposed_odds(0, 0).tiers]


def test_no_dice_is_certain():
    odds = opposed_odds(7, 0, "ten", "zero")  # margin 17
    assert tiers_of(odds) == [0, 0, 0, 0, 1]
    assert odds.extra["eclipse"] == 0
    assert tiers_of(opposed_odds(3, 4, "zero", "zero")) == [1, 0, 0, 0, 0]


@pytest.mark.parametrize("offset", [-14, -1, 0, 4, 9, 15])
def test_one_roller_is_bracketed_exactly_by_enumeration(offset):
    depth = 3
    low = enumerated_tiers(offset, 1, depth)
    missing = 1 - (1 - Q ** (depth + 1)) ** 2  # either chain has more than ``depth`` 12s
    exact = tiers_of(opposed_odds(offset, 0, "roll", "zero"))
    for e, lo in zip(exact, low, strict=True):
        assert lo <= e <= lo + missing


@pytest.mark.parametrize("offset", [-3, 5])
def test_two_rollers_are_bracketed_exactly_by_enumeration(offset):
    depth = 1
    low = enumerated_tiers(offset, 2, depth)
    missing = 1 - (1 - Q ** (depth + 1)) ** 4
    exact = tiers_of(opposed_odds(offset, 0))
    for e, lo in zip(exact, low, strict=True):
        assert lo <= e <= lo + missing


def test_the_closed_form_of_the_twelves_matches_its_series():
    """P(L = l) against the defining double series, summed far enough to pin it exactly
    within 12^-60; the tails agree with the point masses."""
    geo = [(1 - Q) * Q**k for k in range(60)]
    two = [sum(geo[i] * geo[s - i] for i in range(s + 1)) for s in range(60)]
    for rollers, dist in ((1, geo), (2, two)):
        a, b = twelves_poly(rollers)
        for n in range(5):
            series = sum(dist[n + t] * dist[t] for t in range(60 - n))
            assert abs(Q**n * (a + b * n) - series) < Q**50
            assert twelves_tail(rollers, n) - twelves_tail(rollers, n + 1) == Q**n * (a + b * n)
        assert twelves_tail(rollers, 0) + twelves_tail(rollers, 1) == 1  # symmetric


def test_single_margins_add_up_to_the_tiers():
    odds = opposed_odds(2, 0)
    assert sum(margin_probability(2, 2, m) for m in range(0, 5)) == odds.tiers[1].p


def test_eclipse_is_either_roller():
    assert opposed_odds(0, 0).extra["eclipse"] == 1 - (1 - ECLIPSE_ONE) ** 2
    assert opposed_odds(0, 0, "ten").extra["eclipse"] == Fraction(1, 144)


def test_against_the_real_roll_code_by_simulation():
    dice = SeededDice(7)
    odds = opposed_odds(3, 1)
    n = 40_000
    counts = Counter()
    eclipses = 0
    for _ in range(n):
        a = roll_side((Part("a", 3),), "roll", dice)
        d = roll_side((Part("d", 1),), "roll", dice)
        counts[odds.tier_of(a.total - d.total)] += 1
        eclipses += a.dice.eclipse or d.dice.eclipse
    for i, tier in enumerate(odds.tiers):
        assert abs(counts[i] / n - float(tier.p)) < 0.01
    assert abs(eclipses / n - float(odds.extra["eclipse"])) < 0.003


def test_against_icepool():
    icepool = pytest.importorskip("icepool")
    chain = icepool.d12.explode(depth=8)
    side = chain - chain
    for attacker, defender in ((3, 1), (-6, 4)):
        margin = (side + attacker) - (side + defender)
        odds = opposed_odds(attacker, defender)
        for tier in odds.tiers:
            low = -(10**6) if tier.low is None else tier.low
            high = 10**6 if tier.high is None else tier.high
            p = margin.probability(">=", low) - margin.probability(">", high)
            assert abs(float(p) - float(tier.p)) < 1e-7
    taking = (side + 2) - 10  # the defender takes ten
    miss = opposed_odds(2, 0, "roll", "ten").tiers[0].p
    assert abs(float(taking.probability("<", 0)) - float(miss)) < 1e-7


# --- joint actions -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["cooperation", "chaos"])
@pytest.mark.parametrize("take", TAKES)
def test_one_participant_is_the_opposed_roll_exactly(kind, take):
    assert joint_odds(kind, (3,), 1, take) == opposed_odds(3, 1, "roll", take)


@pytest.mark.parametrize("kind", ["cooperation", "chaos"])
def test_joint_tiers_sum_to_one_and_order(kind):
    odds = joint_odds(kind, (4, 0, -3), 1)
    assert sum(tiers_of(odds), Fraction(0)) == 1
    alone = opposed_odds(4, 1)
    # The best of several misses less than the best one alone; the lowest misses more.
    if kind == "cooperation":
        assert odds.tiers[0].p < alone.tiers[0].p
    else:
        assert odds.tiers[0].p > alone.tiers[0].p
    assert odds.extra["eclipse"] == 1 - (1 - ECLIPSE_ONE) ** 4


@pytest.mark.parametrize("kind", ["cooperation", "chaos"])
def test_joint_against_icepool(kind):
    icepool = pytest.importorskip("icepool")
    chain = icepool.d12.explode(depth=5)
    side = chain - chain
    pick = icepool.highest if kind == "cooperation" else icepool.lowest
    for defender, take in ((side + 2, "roll"), (icepool.Die([12]), "ten")):
        margin = pick(side + 3, side + 1, side - 2) - defender
        odds = joint_odds(kind, (3, 1, -2), 2, take)
        for tier in odds.tiers:
            low = -(10**6) if tier.low is None else tier.low
            high = 10**6 if tier.high is None else tier.high
            p = margin.probability(">=", low) - margin.probability(">", high)
            assert abs(float(p) - float(tier.p)) < 1e-8


def test_cooperation_against_the_real_roll_code_by_simulation():
    dice = SeededDice(11)
    odds = joint_odds("cooperation", (2, 0), 1)
    n = 20_000
    counts = Counter()
    for _ in range(n):
        a = roll_side((Part("a", 2),), "roll", dice)
        b = roll_side((Part("b", 0),), "roll", dice)
        d = roll_side((Part("d", 1),), "roll", dice)
        counts[odds.tier_of(max(a.total, b.total) - d.total)] += 1
    for i, tier in enumerate(odds.tiers):
        assert abs(counts[i] / n - float(tier.p)) < 0.012


# --- CLI -----------------------------------------------------------------------------------


def tracker(*args):
    return subprocess.run(
        [sys.executable, "-m", "tracker", "odds", "livehack", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_table():
    out = tracker("--attacker", "3", "--defender", "1")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line.split()[0] for line in lines[:5]] == LABELS
    assert lines[0].endswith("38.49%")
    assert lines[-1] == "eclipse: 1.38%"


def test_cli_json_with_takes():
    out = tracker("--attacker", "3", "--defender", "1", "--defender-take", "ten", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["system"] == "livehack"
    odds = opposed_odds(3, 1, "roll", "ten")
    assert [t["exact"] for t in data["tiers"]] == [
        f"{t.p.numerator}/{t.p.denominator}" for t in odds.tiers
    ]
    first = data["tiers"][0]
    assert (first["label"], first["low"], first["high"]) == ("miss", None, -1)
    assert data["eclipse"] == pytest.approx(1 / 144)


@pytest.mark.parametrize(
    "args",
    [
        ("--attacker", "3", "--defender", "1", "--attacker-take", "eleven"),
        ("--attacker", "x", "--defender", "1"),
        ("--attacker", "3"),
    ],
)
def test_cli_bad_flags_exit_2_with_one_line(args):
    out = tracker(*args)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert out.stdout == ""


# --- hooks ---------------------------------------------------------------------------------


def duel():
    return encounter(LiveHackSheet(attack=4), LiveHackSheet(reflex=2))


def roll_values(history, **changes):
    values = {f.key: f.default for f in SYSTEM.roll_form(history.state)}
    values.update(changes)
    return values


def test_the_dialog_odds_use_the_rolls_parts():
    history = duel()
    state = history.state
    odds = SYSTEM.odds(state, "roll", roll_values(history, attacker_extra="1"))
    assert unnamed(odds) == opposed_odds(5, 2)
    assert odds is not None and odds.whose == "A's chances vs B"
    odds = SYSTEM.odds(state, "roll", roll_values(history, defender_take="ten-gm"))
    assert unnamed(odds) == opposed_odds(4, 2, "roll", "ten")
    # F4-05: a plain Take Ten (without the GM's leave) is refused, and has no odds.
    assert SYSTEM.odds(state, "roll", roll_values(history, defender_take="ten")) is None


def test_the_dialog_odds_are_none_when_the_values_do_not_parse():
    history = duel()
    assert SYSTEM.odds(history.state, "roll", roll_values(history, attacker_extra="x")) is None
    assert SYSTEM.odds(history.state, "roll", roll_values(history, skill="Nope")) is None
    assert SYSTEM.odds(history.state, "heal", {}) is None


def test_a_grim_tests_odds():
    history = duel()
    values = {"who": "c2", "experience": "tortured", "watching": "no", "take": "roll"}
    odds = SYSTEM.odds(history.state, "grim", values)
    plain = opposed_odds(8, 0, "zero", "roll")  # DR 8 against Will 0 + Grimness 0
    tie = margin_probability(1, 8, 0)  # the character's tie resists (issue 30, R3-02)
    assert [t.p for t in unnamed(odds).tiers] == [
        plain.tiers[0].p + tie,
        plain.tiers[1].p - tie,
        *(t.p for t in plain.tiers[2:]),
    ]
    assert [(t.label, t.low, t.high) for t in odds.tiers[:2]] == [
        ("resisted", None, 0),
        ("1-4", 1, 4),
    ]
    assert odds is not None and odds.whose == "the grim test's chances vs B"


def test_the_joint_dialog_odds():
    history = encounter(LiveHackSheet(attack=4), LiveHackSheet(reflex=2), LiveHackSheet(attack=1))
    values = {"kind": "chaos", "who0": "c1", "who1": "c3", "defender": "c2"}
    odds = SYSTEM.odds(history.state, "joint", values)
    assert unnamed(odds) == joint_odds("chaos", (4, 1), 2)
    assert odds is not None and odds.whose == "A and C's chaos vs B"
    values["who1"] = "c2"  # the defender cannot join in
    assert SYSTEM.odds(history.state, "joint", values) is None


def test_last_odds_after_a_roll():
    history = duel()
    assert SYSTEM.last_odds(history.state) is None
    [event] = run(
        history,
        LiveHackRoll(
            attacker_id="c1", defender_id="c2", attacker_take="ten", attacker_gm_allows_ten=True
        ),
        SeededDice(1),
    )
    assert isinstance(event, LiveHackRolled)
    assert unnamed(SYSTEM.last_odds(history.state)) == opposed_odds(4, 2, "ten", "roll")


@pytest.mark.parametrize(("kind", "take"), [("cooperation", "roll"), ("chaos", "ten")])
def test_last_odds_after_a_joint_action_are_the_whole_actions(kind, take):
    """After Cooperation or Chaos the landing's odds are those of the action (every
    participant's roll, the best or lowest margin used), not the chosen participant's alone;
    the next ordinary roll has its own odds again."""
    history = encounter(LiveHackSheet(attack=4), LiveHackSheet(reflex=2), LiveHackSheet(attack=1))
    command = LiveHackJointRoll(
        kind=kind,
        participant_ids=("c1", "c3"),
        defender_id="c2",
        defender_take=take,
        gm_allows_ten=True,
    )
    [event] = run(history, command, SeededDice(3))
    mods = tuple(roll.attacker.modifier for roll in event.rolls)
    assert mods == (4, 1)
    expected = joint_odds(kind, mods, 2, take)
    chosen = event.rolls[event.chosen]
    assert unnamed(SYSTEM.last_odds(history.state)) == expected
    assert expected != opposed_odds(chosen.attacker.modifier, 2, "roll", take)
    # They are the chances of the chosen margin of the real joint action: a seeded simulation
    # with the system's own decision agrees.
    dice, runs = SeededDice(11), 4000
    landed: Counter[int] = Counter()
    for _ in range(runs):
        joint = decide_.joint_roll(history.state, command, dice)
        landed[expected.tier_of(joint.rolls[joint.chosen].margin)] += 1  # type: ignore[index]
    for index, tier in enumerate(expected.tiers):
        assert abs(landed[index] / runs - float(tier.p)) < 0.025, tier.label
    run(history, LiveHackRoll(attacker_id="c1", defender_id="c2"), SeededDice(4))
    assert unnamed(SYSTEM.last_odds(history.state)) == opposed_odds(4, 2)
