"""A fight's difficulty from its forecast (``rules.difficulty``): the band's edges, the band
only worsening as the odds do, the sequential stop's certainty, and the GM's line."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.difficulty import (
    DROP_EDGES,
    WIN_EDGES,
    Band,
    Counts,
    band,
    band_between,
    by_drop,
    by_win,
    difficulty_line,
    party_of,
    read,
    settled,
)
from rules.forecast import EndFigure, Report, Risk, SideChance, wilson

chances = st.floats(min_value=0.0, max_value=1.0)
ORDER = list(Band)


def test_the_bands_run_from_trivial_to_deadly_and_are_strings() -> None:
    assert [b.value for b in Band] == ["trivial", "easy", "hard", "deadly"]
    assert band(1.0, 0.0) == "trivial"


@pytest.mark.parametrize(("edge", "inside"), WIN_EDGES)
def test_a_win_chance_on_its_edge_is_the_bands_and_just_below_the_next(
    edge: float, inside: Band
) -> None:
    assert by_win(edge) == inside
    below = by_win(math.nextafter(edge, 0.0))
    assert ORDER.index(below) == ORDER.index(inside) + 1


@pytest.mark.parametrize(("edge", "below"), DROP_EDGES)
def test_a_drop_chance_just_below_its_edge_is_the_bands_and_on_it_the_next(
    edge: float, below: Band
) -> None:
    assert by_drop(math.nextafter(edge, 0.0)) == below
    assert ORDER.index(by_drop(edge)) == ORDER.index(below) + 1


def test_the_edges_as_the_docs_give_them() -> None:
    assert (band(0.99, 0.049), band(0.989, 0.0), band(1.0, 0.05)) == ("trivial", "easy", "easy")
    assert (band(0.9, 0.249), band(0.899, 0.0), band(1.0, 0.25)) == ("easy", "hard", "hard")
    assert (band(0.6, 0.599), band(0.599, 0.0), band(1.0, 0.6)) == ("hard", "deadly", "deadly")
    # The example: won nearly always, but one hero drops in 62%.
    assert band(0.97, 0.62) == "deadly"


@given(chances, chances)
def test_the_band_is_the_worse_of_the_two_chances_bands(win: float, drop: float) -> None:
    got = band(win, drop)
    assert ORDER.index(got) == max(ORDER.index(by_win(win)), ORDER.index(by_drop(drop)))


@given(chances, chances, chances, chances)
def test_the_band_only_worsens_as_the_win_falls_or_the_drop_rises(
    w1: float, w2: float, d1: float, d2: float
) -> None:
    (low_w, high_w), (low_d, high_d) = sorted((w1, w2)), sorted((d1, d2))
    assert ORDER.index(band(high_w, low_d)) <= ORDER.index(band(low_w, high_d))


@given(chances, chances, chances, chances, chances, chances)
def test_a_settled_band_holds_for_every_chance_inside_the_intervals(
    w1: float, w2: float, d1: float, d2: float, a: float, b: float
) -> None:
    win, drop = tuple(sorted((w1, w2))), tuple(sorted((d1, d2)))
    found = band_between(win, drop)  # type: ignore[arg-type]  # two floats sorted
    if found is not None:
        inner_w = win[0] + a * (win[1] - win[0])
        inner_d = drop[0] + b * (drop[1] - drop[0])
        assert band(inner_w, inner_d) == found


def test_out_of_range_chances_are_clamped_and_nan_refused() -> None:
    assert band(1.5, -0.2) == "trivial" and band(-1.0, 2.0) == "deadly"
    with pytest.raises(ValueError, match="from 0 to 1"):
        band(math.nan, 0.0)


def test_settled_waits_while_an_interval_straddles_an_edge() -> None:
    assert settled(Counts(0, 0, 0)) is None
    # 95 wins of 100 (91%-98%) straddles no win edge; 30 drops (22%-40%) straddles 25%.
    assert settled(Counts(100, 95, 30)) is None
    # All won, none dropped: 100 runs are not enough for trivial (its edge is 99%) ...
    assert settled(Counts(100, 100, 0)) is None
    # ... 400 are (the Wilson interval of 400 of 400 starts above 99%).
    assert wilson(400, 400)[0] > 0.99 and settled(Counts(400, 400, 0)) == "trivial"
    # Lost more often than not: deadly after a hundred runs, whatever the drops.
    assert settled(Counts(100, 30, 100)) == "deadly"


def test_the_party_is_party_or_heroes_else_the_first_side_not_a_foes() -> None:
    assert party_of(["foes", "Heroes"]) == "Heroes"
    assert party_of(["goblins", "party"]) == "party"
    assert party_of(["Challenge", "crew", "foes"]) == "crew"
    assert party_of(["foes", "challenge"]) is None


def a_report(runs: int = 100, wins: int = 84, drops: int = 41) -> Report:
    def risk(cid: str, name: str, side: str, fell: float) -> Risk:
        return Risk(cid, name, side, fell, 0.0, (EndFigure("HP", 10, 5.0),), fell)

    return Report(
        runs=runs,
        seed=1,
        rounds_limit=50,
        start_round=1,
        sides=(
            SideChance("party", wins, wins / runs, *wilson(wins, runs)),
            SideChance("foes", runs - wins, 1 - wins / runs, *wilson(runs - wins, runs)),
        ),
        none=0.0,
        unfinished=0.0,
        mean_rounds=4.24,
        histogram={4: runs},
        combatants=(
            risk("c1", "Orla", "party", 0.23),
            risk("c2", "Brannoc the Unyielding of Hollow", "party", 0.2),
            risk("c3", "Goblin", "foes", 0.9),
        ),
        refused=0,
        side_fell={"party": drops, "foes": runs},
    )


def test_the_line_says_the_band_the_chances_the_likeliest_and_the_rounds() -> None:
    assert difficulty_line(a_report()) == (
        "Hard: party wins 84%, a hero drops in 41% (Orla 23%), ~4.2 rounds"
    )


def test_the_line_never_rounds_a_rare_drop_to_nothing_and_cuts_a_long_name() -> None:
    line = difficulty_line(a_report(1000, 1000, 2), party="party")
    assert line.startswith("Trivial: party wins 100%, a hero drops in <1% (Orla 23%)")
    long = a_report()._replace(
        combatants=(Risk("c2", "Brannoc the Unyielding", "party", 0.5, 0.0, (), 0.5),)
    )
    assert "(Brannoc the Uny… 50%)" in difficulty_line(long)


def test_a_fight_with_no_party_or_no_runs_says_so_in_one_line() -> None:
    assert difficulty_line(a_report(), party="crew").startswith("Deadly: crew wins 0%")
    assert difficulty_line(a_report(), party="heroes").startswith("Deadly: heroes win 0%")
    only_foes = a_report()._replace(sides=(SideChance("foes", 1, 1.0, 0.9, 1.0),))
    assert read(only_foes) is None
    assert difficulty_line(only_foes).startswith("Difficulty: no party side")
    assert difficulty_line(a_report()._replace(runs=0)) == "Difficulty: no fights played"
