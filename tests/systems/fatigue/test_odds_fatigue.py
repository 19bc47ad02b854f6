"""Fatigue & Thresholds odds: exact against brute force, a seeded simulation and icepool."""

from __future__ import annotations

import functools
import json
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import SeededDice
from rules.systems.fatigue.arithmetic import defense_level, roll_stress, spacing, stress_total
from rules.systems.fatigue.events import FatigueChecked, Side
from rules.systems.fatigue.forms import check_form
from rules.systems.fatigue.odds import (
    KINDS,
    band_odds,
    check_odds,
    dice_distribution,
    fumble_chance,
    margin_distribution,
)
from rules.systems.fatigue.sheet import FatigueSheet
from rules.systems.fatigue.system import SYSTEM
from tests.cli.support import tracker
from tests.helpers import unnamed
from tests.systems.fatigue.duel import attack, fight

# --- brute force: every face sequence the real roll code can ask for ----------------------------


class _Path:
    """Dice that follow a prefix of faces, then show 1s, and remember what was asked."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.faces: list[int] = []
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        index = len(self.faces)
        face = self.prefix[index] if index < len(self.prefix) else 1
        self.faces.append(face)
        self.sides.append(sides)
        return face


def outcomes(kind: str) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every face tuple ``roll_stress`` can return for ``kind``, with its chance (an odometer
    over the tree of dice it rolls, so the open d20's second die comes from the real code)."""
    out = []
    prefix: list[int] = []
    while True:
        path = _Path(prefix)
        faces = roll_stress(path, kind)  # type: ignore[arg-type]
        chance = Fraction(1)
        for sides in path.sides:
            chance /= sides
        out.append((faces, chance))
        turn = [i for i, face in enumerate(path.faces) if face < path.sides[i]]
        if not turn:
            return out
        last = turn[-1]
        prefix = [*path.faces[:last], path.faces[last] + 1]


def brute_tiers(
    a_kind: str | None, a_mod: int, d_kind: str, d_mod: int, space: int, line: int | None
) -> list[Fraction]:
    """Each band's chance, every outcome judged by the rules module's own ``FatigueChecked``."""
    tiers = [Fraction(0)] * 6
    attacks = outcomes(a_kind) if a_kind else [((), Fraction(1))]
    for (a_faces, pa), (d_faces, pd) in product(attacks, outcomes(d_kind)):
        attacker = None
        if a_kind is not None:
            attacker = Side(combatant_id="a", dice=a_kind, faces=a_faces, penalty=-a_mod)  # type: ignore[arg-type]
        defender = Side(combatant_id="d", dice=d_kind, faces=d_faces, penalty=-d_mod, spacing=space)  # type: ignore[arg-type]
        roll = FatigueChecked(
            attacker=attacker,
            defender=defender,
            nature_total=a_mod,
            fumble_threshold=line if line is not None else -1000,
        )
        level = roll.defense_rolled
        tiers[0 if level is None else level + 1] += pa * pd
    return tiers


# 5d4 has 1024 face tuples: it meets one other die here, and every die alone below.
PAIRS = [(a, d) for a in KINDS for d in KINDS if "5d4" not in (a, d)]
PAIRS += [("5d4", "1d20"), ("1d20", "5d4")]


@pytest.mark.parametrize("kind", KINDS)
def test_each_situations_dice_match_brute_force(kind: str) -> None:
    want: dict[int, Fraction] = {}
    for faces, p in outcomes(kind):
        total = stress_total(kind, faces)  # type: ignore[arg-type]
        want[total] = want.get(total, Fraction(0)) + p
    assert dice_distribution(kind) == want  # type: ignore[arg-type]


@pytest.mark.parametrize(("a_kind", "d_kind"), PAIRS)
def test_every_pair_of_dice_matches_brute_force(a_kind: str, d_kind: str) -> None:
    got = check_odds(a_kind, 3, d_kind, 1, fatigue_penalty=4, fumble=6)  # type: ignore[arg-type]
    assert [t.p for t in got.tiers] == brute_tiers(a_kind, 3, d_kind, 1, 6, 6)
    assert got.extra["fumble"] == sum(
        (p for faces, p in outcomes(a_kind) if stress_total(a_kind, faces) + 3 <= 6),  # type: ignore[arg-type]
        Fraction(0),
    )


@pytest.mark.parametrize(
    ("a_mod", "d_mod", "penalty", "floor", "line"),
    [
        (0, 0, 0, 3, None),
        (12, -5, 9, 1, None),
        (-8, 4, 8, 2, 3),
        (30, 0, 20, 3, -25),
        (5, 5, 2, 3, 40),
    ],
)
def test_open_d20_against_open_d20_matches_brute_force(
    a_mod: int, d_mod: int, penalty: int, floor: int, line: int | None
) -> None:
    space = spacing(penalty, floor)
    got = check_odds("open-d20", a_mod, "open-d20", d_mod, penalty, floor, line)
    assert [t.p for t in got.tiers] == brute_tiers(
        "open-d20", a_mod, "open-d20", d_mod, space, line
    )


@functools.cache
def totals(kind: str) -> list[tuple[int, Fraction]]:
    return [(stress_total(kind, faces), p) for faces, p in outcomes(kind)]  # type: ignore[arg-type]


SMALL = [kind for kind in KINDS if kind != "5d4"]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(SMALL),
    st.sampled_from(SMALL),
    st.integers(-30, 30),
    st.integers(-30, 30),
    st.integers(0, 15),
    st.integers(1, 3),
    st.none() | st.integers(-25, 45),
)
def test_any_modifiers_and_thresholds_match_brute_force(
    a_kind: str, d_kind: str, a_mod: int, d_mod: int, penalty: int, floor: int, line: int | None
) -> None:
    space = spacing(penalty, floor)
    want = [Fraction(0)] * 6
    fumble = Fraction(0)
    for (a, pa), (d, pd) in product(totals(a_kind), totals(d_kind)):
        fumbled = line is not None and a + a_mod <= line
        fumble += pa * pd if fumbled else 0
        level = None if fumbled else defense_level(a + a_mod - d - d_mod, space)
        want[0 if level is None else level + 1] += pa * pd
    got = check_odds(a_kind, a_mod, d_kind, d_mod, penalty, floor, line)  # type: ignore[arg-type]
    assert [t.p for t in got.tiers] == want
    assert got.extra.get("fumble") == (None if line is None else fumble)


def test_the_margin_distribution_is_the_brute_force_one() -> None:
    want: dict[int, Fraction] = {}
    for (af, pa), (df, pd) in product(outcomes("open-d20"), outcomes("2d10")):
        margin = stress_total("open-d20", af) + 2 - stress_total("2d10", df) - 7
        want[margin] = want.get(margin, Fraction(0)) + pa * pd
    assert margin_distribution("open-d20", 2, "2d10", 7) == want
    assert min(want) == -19 + 2 - 27 and max(want) == 40 + 2 - 9


def test_against_nature_the_attacker_total_is_fixed() -> None:
    got = band_odds(None, 15, "1d20", 2, 10, fumble_line=99)
    assert [t.p for t in got.tiers] == brute_tiers(None, 15, "1d20", 2, 10, None)
    assert "fumble" not in got.extra  # nature never fumbles
    assert got.tiers[0].p == Fraction(8, 20)  # 13 or more on the d20 holds (ties too)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("penalty", [0, 4, 7, 8, 9, 12])
@pytest.mark.parametrize("floor", [1, 2, 3])
def test_the_tiers_sum_to_exactly_one(kind: str, penalty: int, floor: int) -> None:
    for line in (None, -30, 0, 9, 60):
        odds = check_odds(kind, 2, "open-d20", -3, penalty, floor, line)  # type: ignore[arg-type]
        assert sum((t.p for t in odds.tiers), Fraction(0)) == 1
        assert all(t.p >= 0 for t in odds.tiers)


def test_the_bands_are_the_panes_bands() -> None:
    history = fight(defender=FatigueSheet(wind=0))
    labels = [(t.label, t.low, t.high) for t in SYSTEM.tiers(history.state)]
    odds = check_odds("1d20", 0, "1d20", 0, fatigue_penalty=4)
    assert [(t.label, t.low, t.high) for t in odds.tiers] == labels
    # T = 1: the Ordinary band is empty and has no chance at all.
    narrow = check_odds("1d20", 0, "1d20", 0, fatigue_penalty=20, floor=1)
    assert (narrow.tiers[1].label, narrow.tiers[1].p) == ("none", 0)


def test_a_fumble_is_at_or_under_the_line() -> None:
    assert fumble_chance("1d20", 0, 8) == Fraction(8, 20)
    assert fumble_chance("open-d20", 0, 0) == Fraction(20, 400)  # a 1 then anything
    assert fumble_chance("5d4", 0, 4) == 0
    assert "fumble" not in check_odds("1d20", 0, "1d20", 0).extra
    # Everything fumbles: every check lands as a defense.
    assert check_odds("2d10", 0, "1d20", -50, fumble=20).tiers[0].p == 1


# --- a seeded simulation with the real roll code ----------------------------------------------


def test_a_seeded_simulation_agrees_with_open_d20_against_open_d20_narrowed() -> None:
    odds = check_odds("open-d20", 4, "open-d20", 1, fatigue_penalty=5, fumble=2)
    dice, rolls = SeededDice(7), 20_000
    counts = [0] * len(odds.tiers)
    fumbles = 0
    for _ in range(rolls):
        attacker = Side(combatant_id="a", dice="open-d20", faces=roll_stress(dice, "open-d20"))
        defender = Side(combatant_id="d", dice="open-d20", faces=roll_stress(dice, "open-d20"))
        roll = FatigueChecked(
            attacker=structs_with_mod(attacker, 4),
            defender=structs_with_mod(defender, 1, space=5),
            fumble_threshold=2,
        )
        fumbles += roll.fumbled
        level = roll.defense_rolled
        counts[0 if level is None else level + 1] += 1
    for tier, count in zip(odds.tiers, counts, strict=True):
        assert abs(count / rolls - float(tier.p)) < 0.015, tier.label
    assert abs(fumbles / rolls - float(odds.extra["fumble"])) < 0.01  # type: ignore[arg-type]


def structs_with_mod(side: Side, mod: int, space: int = 10) -> Side:
    from msgspec import structs

    return structs.replace(side, penalty=-mod, spacing=space)


# --- icepool, an independent oracle ------------------------------------------------------------


def _icepool_die(kind: str):  # type: ignore[no-untyped-def]
    icepool = pytest.importorskip("icepool")
    match kind:
        case "5d4":
            return 5 @ icepool.d4
        case "2d10":
            return 2 @ icepool.d10
        case "1d20":
            return icepool.d20
    d20 = icepool.d20
    return d20.map(lambda x: 1 - d20 if x == 1 else (20 + d20 if x == 20 else x))


@pytest.mark.parametrize(("a_kind", "d_kind"), [("open-d20", "open-d20"), ("5d4", "2d10")])
def test_icepool_gives_the_same_margins(a_kind: str, d_kind: str) -> None:
    margin = _icepool_die(a_kind) + 3 - (_icepool_die(d_kind) - 2)
    want = {int(m): Fraction(margin.quantity(m), margin.denominator()) for m in margin.outcomes()}
    assert margin_distribution(a_kind, 3, d_kind, -2) == want  # type: ignore[arg-type]
    for kind in (a_kind, d_kind):
        die = _icepool_die(kind)
        assert dice_distribution(kind) == {  # type: ignore[arg-type]
            int(t): Fraction(die.quantity(t), die.denominator()) for t in die.outcomes()
        }


# --- the command line --------------------------------------------------------------------------

ODDS = ("odds", "fatigue", "--attacker-dice", "open-d20", "--attacker", "3")
ODDS += ("--defender-dice", "open-d20", "--defender", "1", "--fatigue-penalty", "4")


def test_the_table_has_a_bar_per_band() -> None:
    result = tracker(*ODDS)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["<=0", "1-5", "6-11", "12-17", "18-23", "24+"]
    assert all(line.endswith("%") for line in lines)


def test_json_has_exact_fractions_and_a_fumble_only_when_asked() -> None:
    data = json.loads(tracker(*ODDS, "--json").stdout)
    assert data["system"] == "fatigue" and "fumble" not in data
    want = check_odds("open-d20", 3, "open-d20", 1, fatigue_penalty=4)
    assert [t["exact"] for t in data["tiers"]] == [
        f"{t.p.numerator}/{t.p.denominator}" for t in want.tiers
    ]
    assert (data["tiers"][0]["low"], data["tiers"][0]["high"]) == (None, 0)
    assert data["tiers"][-1]["high"] is None
    assert sum(Fraction(t["exact"]) for t in data["tiers"]) == 1
    fumbling = json.loads(tracker(*ODDS, "--fumble", "8", "--json").stdout)
    assert fumbling["fumble"] == pytest.approx(float(fumble_chance("open-d20", 3, 8)))
    assert "fumble: 25.00%" in tracker(*ODDS, "--fumble", "8").stdout


def test_bad_flags_get_one_line_and_status_2() -> None:
    for args in (
        (*ODDS[:3], "3d6", *ODDS[4:]),
        (*ODDS, "--floor", "5"),
        (*ODDS, "--fatigue-penalty", "-1"),
        (*ODDS, "--fumble", "x"),
        ("odds", "fatigue", "--attacker", "1", "--defender", "2"),  # the dice are required
    ):
        result = tracker(*args)
        assert result.returncode == 2, args
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


# --- the hooks ---------------------------------------------------------------------------------


def dialog(history, **changes: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {f.key: f.default for f in check_form(history.state)} | changes


def test_the_dialog_odds_use_the_checks_own_numbers() -> None:
    history = fight(defender=FatigueSheet(wind=0, skills=()))
    # Ann: Sword 3 with her Sword (fumble 8); Bob: no skills, empty Wind (penalty 4, spacing 6).
    values = dialog(history, attacker_dice="open-d20", defender_dice="2d10", defender_skills="")
    odds = SYSTEM.odds(history.state, "roll", values)
    assert unnamed(odds, True) == check_odds("open-d20", 3, "2d10", -4, fatigue_penalty=4, fumble=8)
    assert odds is not None and odds.tiers[1].label == "1-5"
    assert SYSTEM.odds(history.state, "roll", dialog(history, fumble="x")) is None
    assert SYSTEM.odds(history.state, "calloff", values) is None


def test_last_odds_are_the_odds_the_check_had() -> None:
    history = fight()
    assert SYSTEM.last_odds(history.state) is None
    before = SYSTEM.odds(history.state, "roll", dialog(history))
    roll = attack(history, 5, 12)  # 5 + 3 = 8: at the Sword's line of 8, a fumble
    assert roll.fumbled
    after = SYSTEM.last_odds(history.state)
    assert after is not None and after == before
    landing = SYSTEM.landing(history.state)
    assert landing is not None and landing.tier == 0  # a fumble lands as a defense
    assert after.extra["fumble"] == Fraction(5, 20)
    assert after.whose == "Ann's chances vs Bob"
    assert after.extra["note"] == "Ann fumbles: 25.0% (8 or less; in <=0)"


def test_against_nature_the_dialog_has_no_fumble() -> None:
    history = fight()
    values = dialog(history, attacker="nature", nature_total="15", defender_skills="Dodge")
    odds = SYSTEM.odds(history.state, "roll", values)
    assert unnamed(odds) == band_odds(None, 15, "1d20", 2, 10)
    assert odds is not None and "fumble" not in odds.extra and "note" not in odds.extra
    assert odds.whose == "Nature's chances vs Bob"
