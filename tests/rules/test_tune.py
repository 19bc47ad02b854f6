"""A fight tuned to a difficulty (``rules.tune``): the search on small fights, by a chance
worked out from the state (deterministic) and by a seeded forecast, bounded, saying when the
target cannot be reached; the change is one command, one undo step."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.commands import AddNote, Commands, RemoveCombatant
from rules.dice import DiceSource, SeededDice
from rules.encounter import Encounter
from rules.engine import decide
from rules.errors import Rejected
from rules.forecast import forecast
from rules.history import History
from rules.registry import get_system
from rules.tune import MAX_STEPS, TOLERANCE, Chance, foes_of, planned, tune
from tests.picks import every_demo, has_demo, plays_solo
from tracker.demos import DEMOS
from tracker.store.prepare import party_side


def scales_hit_points(name: str) -> bool:
    system = get_system(name)
    return system.scaled(system.new_sheet(), 2.0) is not None


def demo_state(*needs: Callable[[str], bool]) -> Encounter:
    stem = every_demo(has_demo, plays_solo, *needs)
    if not stem:
        pytest.skip("no demo of a system with what this test needs")
    return DEMOS[stem[0]]().state


def seeded() -> DiceSource:
    return SeededDice(5)


def by_count(state: Encounter) -> Chance:
    """The party wins 10 points less for each foe in the fight: known, so the search can be
    checked exactly."""
    foes = len(foes_of(state, party_side(state)))
    p = max(0.0, min(1.0, 1.0 - foes / 10))
    return Chance(p, p, p, 0)


def test_the_count_of_foes_is_searched_to_the_target_and_each_step_is_shown() -> None:
    state = demo_state()
    party = party_side(state)
    tuning = tune(state, party, 0.30, by_count, seeded, scale_hp=False)
    assert tuning.reached
    assert abs(tuning.chance.p - 0.30) <= TOLERANCE
    assert len(foes_of(planned(state, tuning.command, seeded()), party)) == 7
    assert tuning.steps[0].what == "as it is"
    assert len(tuning.steps) <= MAX_STEPS
    assert tuning.line.startswith("Settled on +")


def test_foes_are_removed_when_the_party_wins_too_seldom_but_never_the_last() -> None:
    state = demo_state()
    party = party_side(state)
    tuning = tune(state, party, 0.95, by_count, seeded, scale_hp=False)
    after = planned(state, tuning.command, seeded())
    assert len(foes_of(after, party)) == 1
    assert not tuning.reached
    assert tuning.line.startswith("Cannot reach 95%")


def test_a_target_out_of_reach_says_so_in_one_line_within_the_bounded_steps() -> None:
    state = demo_state()
    calls: list[Encounter] = []

    def never(state: Encounter) -> Chance:
        calls.append(state)
        return Chance(0.9, 0.88, 0.92, 1000)

    tuning = tune(state, party_side(state), 0.1, never, seeded)
    assert not tuning.reached
    assert len(calls) <= MAX_STEPS
    assert "\n" not in tuning.line and tuning.line.startswith("Cannot reach 10%")


def test_hit_points_are_scaled_by_bisection_where_a_count_alone_cannot_land() -> None:
    state = demo_state(scales_hit_points)
    party = party_side(state)
    system = get_system(state.system)

    def by_hit_points(state: Encounter) -> Chance:
        # Smooth in the foes' total hit points: no whole count of foes lands on 50%.
        track = [system.main_track(c) for c in foes_of(state, party)]
        total = sum(t.value for t in track if t is not None)
        p = max(0.0, min(1.0, 1.0 - total / 400))
        return Chance(p, p, p, 0)

    tuning = tune(state, party, 0.5, by_hit_points, seeded, tolerance=0.01)
    assert tuning.reached, tuning.steps
    assert tuning.plan.scale != 1.0
    assert "hit points x" in tuning.line


def test_a_seeded_forecast_tunes_the_same_way_every_time() -> None:
    state = demo_state()
    party = party_side(state)

    def chance(state: Encounter) -> Chance:
        report = forecast(state, runs=60, seed=3)
        side = next(s for s in report.sides if s.side == party)
        return Chance(side.p, side.low, side.high, report.runs)

    first = tune(state, party, 0.5, chance, seeded, tolerance=0.1, max_steps=4)
    again = tune(state, party, 0.5, chance, seeded, tolerance=0.1, max_steps=4)
    assert first.steps == again.steps
    assert first.command == again.command
    assert 1 <= len(first.steps) <= 4


def test_the_tuned_change_is_one_undo_step() -> None:
    history: History = DEMOS[every_demo(has_demo, plays_solo)[0]]()
    before = history.state
    party = party_side(before)
    tuning = tune(before, party, 0.30, by_count, seeded, scale_hp=False)
    assert tuning.command is not None
    history.commit(decide(before, tuning.command, seeded()), "tune the fight")
    assert len(foes_of(history.state, party)) == 7
    history.undo()
    assert history.state == before


def test_several_commands_are_refused_whole_when_one_step_is_refused() -> None:
    state = demo_state()
    first = state.combatants[0].id
    with pytest.raises(Rejected):
        decide(state, Commands((AddNote("kept?"), RemoveCombatant("nobody"))), seeded())
    with pytest.raises(Rejected, match="cannot hold another"):
        decide(state, Commands((Commands((RemoveCombatant(first),)),)), seeded())
    with pytest.raises(Rejected, match="nothing to do"):
        decide(state, Commands(()), seeded())


def test_a_fight_with_no_foe_or_a_target_beyond_a_chance_is_refused_in_one_line() -> None:
    state = demo_state()
    party = party_side(state)
    with pytest.raises(Rejected, match="0% to 100%"):
        tune(state, party, 1.5, by_count, seeded)
    with pytest.raises(Rejected, match="no side"):
        tune(state, "nobody", 0.5, by_count, seeded)


def test_a_step_near_the_target_plays_the_rest_on_new_seeds_not_the_first_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tracker.headless import tune_runs as headless

    state = demo_state()
    party = party_side(state)
    asked: list[tuple[int, int]] = []
    real = headless.run_forecast

    def counted(state: Encounter, runs: int, seed: int, *rest: object) -> object:
        asked.append((runs, seed))
        return real(state, runs, seed, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(headless, "run_forecast", counted)
    monkeypatch.setattr(headless, "FIRST_RUNS", 10)
    wide_open = headless.estimator(party, 0.5, 7, None, runs=30, tolerance=1.0)
    chance = wide_open(state)
    assert asked == [(10, 7), (20, 8)]
    assert chance.runs == 30
