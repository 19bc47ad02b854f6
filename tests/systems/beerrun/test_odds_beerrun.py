"""Beer Run's exact odds: against brute force, a seeded simulation, icepool, the CLI and hooks."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.errors import Rejected
from rules.odds import percent
from rules.systems.beerrun.demo import build as demo_history
from rules.systems.beerrun.dice import Die, compare, roll_dice
from rules.systems.beerrun.events import BuildPool, RollRound, RoundRolled, SetGoal
from rules.systems.beerrun.odds import BOTTOM, NONE, TOP, pool_odds, sided_odds, successes
from rules.systems.beerrun.sheet import Goal
from rules.systems.beerrun.system import PIP_TIERS, SYSTEM
from rules.systems.beerrun.table import side_bands
from tests.contract.headless_checks import loaded
from tests.helpers import unnamed
from tests.systems.beerrun.beerrun_reference import joint, padded
from tests.systems.beerrun.brawl import brawl, rolled, run

UPPER = {"tie": NONE, "top": TOP, "bottom": BOTTOM}
WHOSE = "Orla vs Goblin: who takes the upper hand, keeping how many"


def brute(
    top: tuple[int, ...], bottom: tuple[int, ...]
) -> tuple[Counter[tuple[int, int, int]], dict[str, object]]:
    """Every outcome, compared by the system's own ``compare``: the joint counts of (upper,
    top successes, bottom successes), and the figures ``pool_odds`` reports."""
    total = 1
    for size in top + bottom:
        total *= size
    p = Fraction(1, total)
    counts: Counter[tuple[int, int, int]] = Counter()
    tiers = [Fraction(0)] * len(PIP_TIERS)
    upper = {"pool": Fraction(0), "against": Fraction(0), "none": Fraction(0)}
    kept_top = [Fraction(0)] * (len(top) + 1)
    kept_bottom = [Fraction(0)] * (len(bottom) + 1)
    bands = signed_bands(top, bottom)
    sided = [Fraction(0)] * len(bands)
    rows_bottom = [
        tuple(Die(s, f) for s, f in zip(bottom, faces, strict=True))
        for faces in itertools.product(*(range(1, s + 1) for s in bottom))
    ]
    for faces_top in itertools.product(*(range(1, s + 1) for s in top)):
        row_top = tuple(Die(s, f) for s, f in zip(top, faces_top, strict=True))
        for row_bottom in rows_bottom:
            outcome = compare(row_top, row_bottom)
            counts[(UPPER[outcome.upper], outcome.top_successes, outcome.bottom_successes)] += 1
            value = outcome.kept(outcome.upper)
            tiers[next(i for i, t in enumerate(PIP_TIERS) if t.contains(value))] += p
            upper[{"top": "pool", "bottom": "against", "tie": "none"}[outcome.upper]] += p
            kept_top[outcome.top_kept] += p
            kept_bottom[outcome.bottom_kept] += p
            signed = -value if outcome.upper == "bottom" else value
            sided[next(i for i, b in enumerate(bands) if b[0] <= signed <= b[1])] += p
    figures = {
        "tiers": tiers,
        "sided": sided,
        "upper_hand": upper,
        "kept": {"pool": kept_top, "against": kept_bottom},
    }
    return counts, figures


def signed_bands(top: tuple[int, ...], bottom: tuple[int, ...]) -> list[tuple[float, float]]:
    """The rows split by who takes the upper hand, as bounds of the signed result (the top
    side's kept successes, the bottom side's negated): the bottom's most first."""
    inf = float("inf")
    rows = [(-(inf if high is None else high), -low) for _, low, high in side_bands(bottom)]
    return [
        *reversed(rows),
        (0, 0),
        *((low, inf if high is None else high) for _, low, high in side_bands(top)),
    ]


def sided(top: tuple[int, ...], bottom: tuple[int, ...]) -> list[Fraction]:
    theirs, tied, mine = sided_odds(top, bottom)
    return [*reversed(theirs), tied, *mine]


def same_pools(odds: object, top: tuple[int, ...], bottom: tuple[int, ...]) -> bool:
    """A hook's odds are those of these pools: ``pool_odds``'s extras, and its tiers split
    by who takes the upper hand (``sided_odds``)."""
    bare = unnamed(odds, True)
    return (
        bare is not None
        and bare._replace(tiers=()) == pool_odds(top, bottom)._replace(tiers=())
        and [t.p for t in bare.tiers] == sided(top, bottom)
    )


def check_against_brute(top: tuple[int, ...], bottom: tuple[int, ...]) -> None:
    odds = pool_odds(top, bottom)
    counts, expected = brute(top, bottom)
    assert sided(top, bottom) == expected["sided"]
    assert [t.p for t in odds.tiers] == expected["tiers"]
    assert odds.extra["upper_hand"] == expected["upper_hand"]
    assert odds.extra["kept"] == expected["kept"]
    assert sides(top, bottom) == marginals(counts, max(len(top), len(bottom)))


def sides(top: tuple[int, ...], bottom: tuple[int, ...]):
    """The engine's counts for each side: (no upper hand, successes with it, without it)."""
    length = max(len(top), len(bottom))
    a = padded(tuple(sorted(top, reverse=True)), length)
    b = padded(tuple(sorted(bottom, reverse=True)), length)
    return successes(a, b), successes(b, a)


def marginals(counts, length: int):
    """The same, from a joint count of (upper hand, top successes, bottom successes)."""
    out = []
    for mine, theirs, index in ((TOP, BOTTOM, 1), (BOTTOM, TOP, 2)):
        ahead, behind, none = [0] * (length + 1), [0] * (length + 1), 0
        for key, weight in dict(counts).items():
            if key[0] == mine:
                ahead[key[index]] += weight
            elif key[0] == theirs:
                behind[key[index]] += weight
            else:
                none += weight
        out.append((none, tuple(ahead), tuple(behind)))
    return tuple(out)


SMALL = [
    ((6,), (4,)),
    ((4,), (4,)),
    ((8, 6), (6, 6, 4)),
    ((8, 6, 4), (6, 6, 4)),
    ((4, 4, 4), (4, 4, 4)),
    ((2,), (3, 1, 2)),
    ((6, 6, 6, 6), (1,)),
    ((5, 3, 7), (7, 2)),
]


@pytest.mark.parametrize(("top", "bottom"), SMALL)
def test_the_exact_odds_equal_brute_force_enumeration(
    top: tuple[int, ...], bottom: tuple[int, ...]
) -> None:
    check_against_brute(top, bottom)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
    st.lists(st.integers(1, 5), min_size=1, max_size=3),
)
def test_any_small_pools_equal_brute_force(top: list[int], bottom: list[int]) -> None:
    check_against_brute(tuple(top), tuple(bottom))


def test_the_order_the_dice_are_given_in_does_not_matter() -> None:
    assert pool_odds((6, 12, 8), (4, 10, 10)) == pool_odds((12, 8, 6), (10, 10, 4))


@pytest.mark.parametrize(
    ("top", "bottom"),
    [((12, 8, 6), (10, 10, 4)), ((12,) * 10, (12,) * 10), ((20, 4, 4), (6,) * 10)],
)
def test_the_tiers_the_upper_hand_and_each_sides_kept_sum_to_exactly_one(
    top: tuple[int, ...], bottom: tuple[int, ...]
) -> None:
    odds = pool_odds(top, bottom)
    assert sum(t.p for t in odds.tiers) == 1
    assert [(t.label, t.low, t.high) for t in odds.tiers] == [
        (t.label, t.low, t.high) for t in PIP_TIERS
    ]
    assert sum(odds.extra["upper_hand"].values()) == 1  # type: ignore[attr-defined]
    kept = odds.extra["kept"]
    assert sum(kept["pool"]) == 1 and len(kept["pool"]) == len(top) + 1  # type: ignore[index]
    assert sum(kept["against"]) == 1 and len(kept["against"]) == len(bottom) + 1  # type: ignore[index]
    # No upper hand exactly when every pair ties: the "ties" tier.
    assert odds.tiers[0].p == odds.extra["upper_hand"]["none"]  # type: ignore[index]


def test_a_seeded_simulation_with_the_real_roll_code_agrees() -> None:
    top, bottom = (12, 10, 8, 8, 6, 4), (10, 10, 10, 6, 6)
    odds = pool_odds(top, bottom)
    dice = SeededDice(7)
    runs = 12000
    tiers: Counter[int] = Counter()
    upper: Counter[str] = Counter()
    for _ in range(runs):
        outcome = compare(
            roll_dice(dice, tuple(("pool", s) for s in top)),
            roll_dice(dice, tuple(("against", s) for s in bottom)),
        )
        value = outcome.kept(outcome.upper)
        tiers[odds.tier_of(value)] += 1  # type: ignore[index]
        upper[outcome.upper] += 1
    for index, tier in enumerate(odds.tiers):
        assert abs(tiers[index] / runs - float(tier.p)) < 0.015, tier.label
    assert abs(upper["top"] / runs - float(odds.extra["upper_hand"]["pool"])) < 0.015  # type: ignore[index]


@pytest.mark.parametrize(
    ("top", "bottom"), [((12, 8, 6), (10, 10, 4)), ((8, 8, 6, 4), (10, 6)), ((6,) * 5, (6,) * 5)]
)
def test_icepool_sort_pair_counts_the_same_successes(
    top: tuple[int, ...], bottom: tuple[int, ...]
) -> None:
    icepool = pytest.importorskip("icepool")
    length = max(len(top), len(bottom))

    def pool(sizes: tuple[int, ...]) -> object:
        padded = sizes + (1,) * (length - len(sizes))  # the missing dice: d1s showing 1
        return icepool.Pool([icepool.d(s) for s in padded])

    table = joint(top, bottom)
    total = sum(w for _, w in table)
    for side, comparison, mine, theirs in ((1, ">", top, bottom), (2, "<", top, bottom)):
        expected = pool(mine).sort_pair(comparison, pool(theirs)).size()  # type: ignore[attr-defined]
        ours: Counter[int] = Counter()
        for key, weight in table:
            ours[key[side]] += weight
        for count in range(length + 1):
            assert Fraction(ours[count], total) == expected.probability(count), (side, count)
    ties = pool(top).sort_pair("==", pool(bottom)).size()  # type: ignore[attr-defined]
    none = sum(w for key, w in table if key[0] == NONE)
    assert Fraction(none, total) == ties.probability(length)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=6),
    st.lists(st.integers(1, 12), min_size=1, max_size=6),
)
def test_the_half_step_sweep_equals_the_first_engine(top: list[int], bottom: list[int]) -> None:
    """Pools too large to enumerate: the joint table of the first engine (both sides' dice at
    each face) gives the same counts as the two half-step sweeps."""
    length = max(len(top), len(bottom))
    reference = joint(tuple(top), tuple(bottom))
    assert sides(tuple(top), tuple(bottom)) == marginals(reference, length)


def test_ten_dice_a_side_are_answered_and_a_repeat_comes_from_the_cache() -> None:
    # Speed is the benchmark's job (bench/odds.py); here: answered, and cached.
    successes.cache_clear()
    pool_odds.cache_clear()
    ten = pool_odds((12,) * 10, (10,) * 10)
    assert sum(t.p for t in ten.tiers) == 1
    assert pool_odds((12,) * 10, (10,) * 10) is ten


def test_a_question_too_large_to_answer_quickly_is_refused() -> None:
    with pytest.raises(Rejected, match="Exact odds need smaller pools: 11 dice a side up to d100"):
        pool_odds((100,) * 11, (4,))
    pool_odds((6,) * 11, (6,) * 2)  # 11 small dice are fine


# --- the command line -------------------------------------------------------------------------


def test_odds_of_pools_written_with_commas_load_no_dice_notation() -> None:
    """The notation is a sixth of a `tracker odds beerrun` process: only `+` needs it."""
    code = "from rules.systems.beerrun.odds_cli import parse_pool; parse_pool('d12,d8,2d6')"
    assert not {module for module in loaded(code) if module.startswith("rules.notation")}
    code = "from rules.systems.beerrun.table import parse_pool; assert parse_pool('2d10+d4')"
    assert "rules.notation.field" in loaded(code)


def tracker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", "odds", "beerrun", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_cli_prints_a_table_of_the_tiers_and_the_extras() -> None:
    done = tracker("--pool", "d12,d8,d6", "--against", "d10,d10,d4")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines[:6]] == [t.label for t in PIP_TIERS]
    assert lines[6].startswith("upper_hand: pool ")
    assert lines[7].startswith("kept: pool ")


def test_the_cli_json_has_exact_fractions_the_upper_hand_and_kept() -> None:
    done = tracker("--pool", "d12,d8,d6", "--against", "d10,d10,d4", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    odds = pool_odds((12, 8, 6), (10, 10, 4))
    assert data["system"] == "beerrun"
    assert [Fraction(t["exact"]) for t in data["tiers"]] == [t.p for t in odds.tiers]
    assert sum(Fraction(t["exact"]) for t in data["tiers"]) == 1
    assert set(data["upper_hand"]) == {"pool", "against", "none"}
    assert data["upper_hand"]["none"] == pytest.approx(float(odds.tiers[0].p))
    assert len(data["kept"]["pool"]) == 4 and len(data["kept"]["against"]) == 4
    assert sum(data["kept"]["pool"]) == pytest.approx(1)


@pytest.mark.parametrize(
    "args",
    [
        ("--pool", "d12,x", "--against", "d4"),
        ("--pool", "d12", "--against", ""),
        ("--pool", "d12", "--against", "d4", "--seed", "3"),
        ("--pool", "d12"),
        ("--pool", "d12", "--against", "d0"),
        ("--pool", "30d6", "--against", "d6"),  # too large to answer quickly
    ],
)
def test_bad_dice_or_flags_exit_2_with_one_line(args: tuple[str, ...]) -> None:
    done = tracker(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("tracker")


# --- the hooks --------------------------------------------------------------------------------


def test_the_roll_dialog_shows_the_odds_of_the_rounds_first_comparison() -> None:
    history = brawl()
    assert SYSTEM.odds(history.state, "roll", {}) is None  # nobody has paid
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    # Orla: Fencing d8, Wits d6; the goblin: Stab d10, Health d4.
    assert same_pools(SYSTEM.odds(history.state, "roll", {}), (8, 6), (10, 4))
    assert SYSTEM.odds(history.state, "goal", {}) is None


def test_the_pool_dialog_shows_the_odds_of_the_pool_being_built() -> None:
    history = brawl()
    values = {"who": "c1", "dice": "", "against": "difficulty", "difficulty": "d10,d10,d4"}
    assert same_pools(SYSTEM.odds(history.state, "pool", values), (8, 6), (10, 10, 4))
    # Against a combatant who has not paid: every pair meets a missing die.
    values = {"who": "c1", "dice": "+Health", "against": "c3"}
    assert same_pools(SYSTEM.odds(history.state, "pool", values), (8, 6, 6), ())
    unpaid = SYSTEM.odds(history.state, "pool", values)
    assert unpaid is not None  # the Goblin has not paid: its side of the odds says so
    assert str(unpaid.extra["note"]).startswith("upper hand, if Goblin pays nothing: Orla ")
    # The goblin paid first: Orla's odds are seen from her side.
    run(history, BuildPool(combatant_id="c3", against="c1"))
    seen = SYSTEM.odds(history.state, "pool", values)
    assert same_pools(seen, (8, 6, 6), (10,))
    assert seen is not None and seen.whose == WHOSE
    assert str(seen.extra["note"]).startswith("upper hand: Orla ")  # it has paid
    assert SYSTEM.odds(history.state, "pool", {"who": "c1", "dice": "+Helth"}) is None


def test_a_waiting_helping_pool_leaves_the_roll_without_odds() -> None:
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    helping = SYSTEM.odds(history.state, "pool", {"who": "c2", "against": "c3"})
    assert same_pools(helping, (6, 8), (8, 8, 8))  # against three d8s
    run(history, BuildPool(combatant_id="c2"))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    assert SYSTEM.odds(history.state, "roll", {}) is None


def test_last_odds_are_the_odds_the_last_roll_had() -> None:
    history = brawl()
    assert SYSTEM.last_odds(history.state) is None
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    before = SYSTEM.odds(history.state, "roll", {})
    events = run(history, RollRound(), (7, 5, 9, 4))
    [contest] = rolled(events).contests
    assert SYSTEM.last_odds(history.state) == before
    assert same_pools(before, (8, 6), (10, 4))
    assert before is not None and before.whose == WHOSE
    assert before.extra["note"] == "upper hand: Orla 44.7%, Goblin 52.6%, neither 2.7%"
    assert contest.top_id == "c1"
    landing = SYSTEM.landing(history.state)
    assert landing is not None and before is not None
    assert before.tier_of(landing.value) == landing.tier
    assert SYSTEM.odds(history.state, "roll", {}) is None  # the round is rolled


def test_the_demos_rows_split_its_odds_by_who_takes_the_upper_hand() -> None:
    """Mags (d8 d6 d8 d8) vs the Bouncer (d10 d6), every one of the 184,320 rolls through the
    system's own ``compare``: the old row "1" (31.4%) was Mags landing 1 on the Bouncer
    (2.4%) and the Bouncer landing 1 on Mags (29.0%), labelled with the Bouncer's Health."""
    state = demo_history().state
    roll = state.last_roll
    assert isinstance(roll, RoundRolled)
    contest = roll.contests[0]
    top = tuple(d.size for d in contest.top)
    bottom = tuple(d.size for d in contest.bottom)
    assert (top, bottom) == ((8, 6, 8, 8), (10, 6))
    tiers = SYSTEM.tiers(state)
    counts = [0] * len(tiers)
    bottoms = list(itertools.product(*(range(1, s + 1) for s in bottom)))
    for faces in itertools.product(*(range(1, s + 1) for s in top)):
        row = tuple(Die(s, f) for s, f in zip(top, faces, strict=True))
        for other in bottoms:
            outcome = compare(row, tuple(Die(s, f) for s, f in zip(bottom, other, strict=True)))
            kept = outcome.kept(outcome.upper)
            value = -kept if outcome.upper == "bottom" else kept
            [index] = [i for i, tier in enumerate(tiers) if tier.contains(value)]
            counts[index] += 1
    total = sum(counts)
    odds = SYSTEM.last_odds(state)
    assert odds is not None
    assert [(t.label, t.p) for t in odds.tiers] == [
        (t.label, Fraction(n, total)) for t, n in zip(tiers, counts, strict=True)
    ]
    rows = [(t.label, t.effect, percent(o.p)) for t, o in zip(tiers, odds.tiers, strict=True)]
    assert rows == [
        ("Bouncer 2", "Health d5→d3", "9.1%"),  # the Bouncer's upper hand strikes Mags
        ("Bouncer 1", "Health d5→d4", "29.0%"),
        ("ties", "nothing lands", "0.2%"),
        ("Mags 1", "Health d6→d5", "2.4%"),  # Mags's strikes the Bouncer
        ("Mags 2", "Health d6→d4", "8.9%"),
        ("Mags 3", "Health d6→d3", "22.7%"),
        ("Mags 4", "Health d6→d2", "27.6%"),
    ]
    assert odds.extra["note"] == "upper hand: Mags 61.7%, Bouncer 38.1%, neither 0.2%"
