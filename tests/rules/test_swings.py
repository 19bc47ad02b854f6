"""Where a fight turned (``rules.swings``): the party's chance event by event on a small saved
fight, the rolls that moved it most picked deterministically (by a chance worked out from the
state, and by a seeded forecast), fewer runs where that is enough, and the chart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from rules.encounter import Encounter
from rules.forecast import forecast, wilson
from rules.history import History
from rules.registry import get_system
from rules.replay import Timeline
from rules.swings import FIRMER, FIRST, MORE, NAMED, QUICK, REST, Ask, Swings, swings
from rules.tune import Chance, foes_of
from tests.picks import every_demo, has_demo, plays_solo
from tracker.demos import DEMOS
from tracker.headless.swings_runs import as_json, chart
from tracker.store.prepare import party_side


def saved_fight() -> History:
    return DEMOS[every_demo(has_demo, plays_solo)[0]]()


def by_standing(
    party: str, per_level: float = 0.01
) -> tuple[list[tuple[Encounter, int, int]], object]:
    """A chance read from who stands (the party's share of those in the fight, ``per_level``
    a level of a foe's track): known, so the swings can be checked by hand; and the calls it
    got."""
    calls: list[tuple[Encounter, int, int]] = []

    def chance(state: Encounter, runs: int, batch: int = 0) -> Chance:
        calls.append((state, runs, batch))
        system = get_system(state.system)
        foes = len(foes_of(state, party))
        track = [system.main_track(c) for c in state.combatants if c.side != party]
        worn = sum(t.value if t.rising else -t.value for t in track if t is not None)
        p = max(0.0, min(1.0, 0.5 + worn * per_level - foes * per_level * 5))
        return Chance(p, *wilson(round(p * runs), runs), runs)  # as wide as a forecast's

    return calls, chance


def found_by_standing(history: History) -> tuple[Swings, list[tuple[Encounter, int, int]]]:
    party = party_side(history.state)
    calls, chance = by_standing(party)
    return swings(Timeline(history), party, chance), calls  # type: ignore[arg-type]


def test_the_swings_are_the_rolls_that_moved_the_chance_most_biggest_first() -> None:
    history = saved_fight()
    found, _ = found_by_standing(history)
    system = get_system(history.state.system)
    timeline = Timeline(history)
    assert 1 <= len(found.swings) <= NAMED
    changes = [abs(s.change) for s in found.swings]
    assert changes == sorted(changes, reverse=True)
    for swing in found.swings:
        assert isinstance(timeline.events[swing.position], system.roll_event_types)
        at = {p.position: p.chance for p in found.points}
        assert swing.before == at[swing.position - 1]
    # No roll left out moved it more than the smallest named.
    rolls = [
        p.position
        for p in found.points
        if isinstance(timeline.events[p.position], system.roll_event_types)
    ]
    assert len(rolls) >= len(found.swings)


def test_a_roll_that_moved_the_chance_less_than_a_point_is_no_swing() -> None:
    """`tracker export --swings` named "took the party from 1% to 1%" a swing."""
    history = saved_fight()
    _, chance = by_standing(party_side(history.state), per_level=0.001)
    found = swings(Timeline(history), party_side(history.state), chance)  # type: ignore[arg-type]
    assert found.swings == ()
    assert any(a.chance != b.chance for a, b in pairwise(found.points))  # it moved, a little


def test_a_point_the_event_before_left_as_it_was_is_not_forecast_again() -> None:
    history = saved_fight()
    found, calls = found_by_standing(history)
    first = [state for state, _, batch in calls if batch == 0]
    assert len(first) < len(found.points)
    firm = [state for state, _, batch in calls if batch == FIRMER]
    assert 1 <= len(firm) <= 2 * 4


def test_a_seeded_forecast_picks_the_same_swings_every_time() -> None:
    history = saved_fight()
    party = party_side(history.state)

    def chance(state: Encounter, runs: int, batch: int = 0) -> Chance:
        report = forecast(state, runs=runs, seed=11 + batch)
        side = next(s for s in report.sides if s.side == party)
        return Chance(side.p, side.low, side.high, report.runs)

    first = swings(Timeline(history), party, chance, quick=12, firm=24)
    again = swings(Timeline(history), party, chance, quick=12, firm=24)
    assert first == again
    assert [s.position for s in first.swings] == [s.position for s in again.swings]


def test_the_chart_fits_80_columns_and_marks_each_named_swing() -> None:
    found, _ = found_by_standing(saved_fight())
    lines = chart(found, 75)
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) <= 12
    marks = lines[-2]
    for number in range(1, len(found.swings) + 1):
        assert str(number) in marks
    assert lines[0].startswith("100%│") and lines[7].startswith("  0%│")


def test_the_json_names_each_swing_with_its_before_and_after() -> None:
    found, _ = found_by_standing(saved_fight())
    data = as_json(found, seed=3)
    first = data["swings"][0]
    assert set(first) == {"event", "round", "roll", "before", "after", "change", "text"}
    assert first["text"].startswith(f"Round {first['round']}, event {first['event']}: ")
    assert " took the " in first["text"] and " from " in first["text"]
    assert len(data["points"]) == len(found.points)


def test_a_point_whose_first_fights_all_end_alike_is_not_played_more() -> None:
    history = saved_fight()
    party = party_side(history.state)
    asked: list[int] = []

    def lopsided(state: Encounter, runs: int, batch: int = 0) -> Chance:
        asked.append(runs)
        return Chance(1.0, 0.84, 1.0, runs)  # every one of 20 won: known well enough

    swings(Timeline(history), party, lopsided)
    assert QUICK not in asked and FIRST in asked  # between two rolls: a quarter of QUICK
    asked.clear()

    def open_question(state: Encounter, runs: int, batch: int = 0) -> Chance:
        asked.append(runs)
        return Chance(0.5, 0.3, 0.7, runs)

    swings(Timeline(history), party, open_question)
    # As many again, then the rest, each on its own seeds: never the first again.
    assert QUICK - FIRST not in asked and QUICK - 2 * FIRST in asked and FIRST in asked


def test_a_point_settled_after_twice_its_first_fights_is_not_played_the_rest() -> None:
    history = saved_fight()
    party = party_side(history.state)
    batches: list[int] = []

    def settling(state: Encounter, runs: int, batch: int = 0) -> Chance:
        batches.append(batch)
        if batch == 0:  # 18 of 20: open (more than 10 points either way)
            return Chance(0.9, *wilson(round(0.9 * runs), runs), runs)
        return Chance(1.0, *wilson(runs, runs), runs)  # then 38 of 40: within 10 points

    swings(Timeline(history), party, settling)
    assert MORE in batches and REST not in batches


def test_every_points_first_fights_are_asked_at_once_then_the_rest_at_once() -> None:
    # One question at a time left the pool idle at the end of each point.
    history = saved_fight()
    party = party_side(history.state)
    _, chance = by_standing(party)
    stages: list[list[tuple[int, int]]] = []

    def many(asks: Sequence[Ask], told: Callable[[int], None]) -> list[Chance]:
        stages.append([(runs, batch) for _, runs, batch in asks])
        told(sum(runs for _, runs, _ in asks))
        return [chance(state, runs, batch) for state, runs, batch in asks]  # type: ignore[operator]

    progress: list[tuple[int, int]] = []
    found = swings(Timeline(history), party, chance, lambda *told: progress.append(told), many=many)  # type: ignore[arg-type]
    # The first fights, as many again where open, the rest where still open, the firmer points.
    assert 2 <= len(stages) <= 4
    assert {batch for _, batch in stages[0]} == {0} and len(stages[0]) > 1
    assert all(batch == FIRMER for _, batch in stages[-1])
    assert progress[-1][0] == progress[-1][1] and progress[-1][1] > 0
    assert found == swings(Timeline(history), party, chance)  # one at a time: the same


def test_a_point_around_a_swing_known_within_five_points_is_not_played_firmer() -> None:
    history = saved_fight()
    party = party_side(history.state)
    batches: list[int] = []

    def decided(state: Encounter, runs: int, batch: int = 0) -> Chance:
        batches.append(batch)
        return Chance(1.0, 0.97, 1.0, runs)  # within 5 points either way already

    swings(Timeline(history), party, decided)
    assert FIRMER not in batches and 0 in batches
