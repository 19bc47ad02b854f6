"""Forecasts (``rules.forecast``): certain outcomes, a duel small enough to solve exactly, the
same seed giving the same forecast however the runs are split, and workers free of the app."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest

from rules import registry
from rules.commands import AddCombatant
from rules.dice import ANY_FACE
from rules.encounter import Encounter
from rules.engine import apply, decide, new_encounter
from rules.forecast import (
    MAX_ROUNDS,
    MAX_RUNS,
    MAX_SEED,
    RUN_BITS,
    Report,
    SideChance,
    Tally,
    job_bytes,
    merged,
    play_out,
    report,
    run_seed,
    simulate,
    unready,
    wilson,
)
from rules.forecast import forecast as forecast_here
from rules.history import History
from tests.app.support import fight_of
from tests.contract.test_fifth_system import forget
from tests.picks import a_system, every_demo, has_demo, plays_solo
from tracker.demos import DEMOS
from tracker.headless.forecast_pool import MAX_SPAN, Runs, Workers, run_forecast, win_lines

ROOT = Path(__file__).resolve().parents[2]

# A duel: on its turn each duellist fires once, and a 6 on a d6 puts the other out. The first
# to fire wins with probability p + (1-p)^2 p + ... = p / (1 - (1-p)^2), p = 1/6: 6/11.
DUEL = """
from __future__ import annotations
from typing import Any
from msgspec import Struct, structs
from rules.logline import LogEntry
from rules.system import Move, Policy, RuleSystem


class DuelSheet(Struct, frozen=True, tag="duel.sheet"):
    hit: bool = False


class Fire(Struct, frozen=True):
    shooter_id: str
    target_id: str


class Fired(Struct, frozen=True, tag="duel.fired"):
    shooter_id: str
    target_id: str
    face: int


class Duel(RuleSystem):
    name = "duel"
    title = "Duel"
    sheet_types = (DuelSheet,)
    event_types = (Fired,)
    command_types = (Fire,)
    roll_event_types = (Fired,)
    stat_columns = ("Hit",)
    uses_turn_order = True
    solo_policies = (Policy("fire", "Fire"),)

    def new_sheet(self): return DuelSheet()
    def sheet_form(self, sheet): return []
    def sheet_from_form(self, values, sheet): return sheet
    def sheet_stats(self, sheet): return (str(int(sheet.hit)),)
    def actions(self, state): return []
    def action_form(self, state, action, selected): return []
    def action_command(self, state, action, values): return None
    def consequence_command(self, state): return None
    def tiers(self, state): return []
    def landing(self, state): return None
    def describe(self, state, event): return LogEntry("roll", ())

    def decide(self, state, command, dice):
        return [Fired(command.shooter_id, command.target_id, dice.roll(6))]

    def apply(self, state, event):
        target = state.combatant(event.target_id)
        if event.face == 6:
            state = state.replace_combatant(structs.replace(target, sheet=DuelSheet(True)))
        return state.update(last_roll=event)

    def out_of_fight(self, state, combatant):
        return "hit" if combatant.sheet.hit else ""

    def solo_move(self, state):
        actor = state.current
        last = state.last_roll
        if actor is None or (last is not None and last.shooter_id == actor.id):
            return None  # it has fired this turn: the table ends the turn
        foe = next(c for c in state.combatants if c.side != actor.side)
        return Move(actor.id, Fire(actor.id, foe.id), "fires")


SYSTEM = Duel()
"""


@pytest.fixture
def duel(tmp_path: Path) -> Iterator[Encounter]:
    """The duel registered by its folder for the test, then forgotten."""
    (tmp_path / "duel").mkdir()
    (tmp_path / "duel" / "__init__.py").touch()
    (tmp_path / "duel" / "system.py").write_text(DUEL, encoding="utf-8")
    package = importlib.import_module(registry.PACKAGE)
    before = list(package.__path__)
    package.__path__ = [*before, str(tmp_path)]
    forget()
    try:
        state = History(new_encounter("Dawn", "duel")).state
        for name, side in (("Ann", "left"), ("Bo", "right")):
            for event in decide(state, AddCombatant(name=name, side=side), ANY_FACE):
                state = apply(state, event)
        yield state
    finally:
        package.__path__ = before
        for module in [m for m in sys.modules if m.startswith(f"{registry.PACKAGE}.duel")]:
            del sys.modules[module]
        forget()


def demo() -> Encounter:
    """The demo of the first listed system whose solo policies play a fight."""
    stem = registry.part(a_system(has_demo, plays_solo), "demo").STEM
    return DEMOS[stem]().state


def test_a_duel_small_enough_to_solve_lands_inside_the_interval(duel: Encounter) -> None:
    rounds = 50
    p, miss_both = Fraction(1, 6), Fraction(25, 36)
    first = p * (1 - miss_both**rounds) / (1 - miss_both)  # Ann fires first
    second = (1 - p) * p * (1 - miss_both**rounds) / (1 - miss_both)
    result = forecast_here(duel, runs=2000, seed=5, rounds=rounds)
    ann, bo = result.sides
    assert (ann.side, bo.side) == ("left", "right")
    assert ann.low <= float(first) <= ann.high
    assert bo.low <= float(second) <= bo.high
    assert abs(ann.p - float(first)) > 0 or ann.wins > 0  # the runs were really played
    # The first to fall is the one who lost, and the duel takes 1/(1 - (25/36)) rounds or so.
    (a, b) = result.combatants
    assert a.first_out == a.out and b.first_out == b.out
    assert a.out + b.out == pytest.approx(1 - result.none)
    mean = 1 / (1 - float(miss_both))
    assert mean - 0.3 < result.mean_rounds < mean + 0.3


def test_the_runs_count_who_went_out_and_each_side_that_lost_someone(duel: Encounter) -> None:
    result = forecast_here(duel, runs=200, seed=3)
    ann, bo = result.sides
    # In a duel the loser is the one who went out: its side lost someone in every run it lost.
    assert result.side_fell == {"left": bo.wins, "right": ann.wins}
    a, b = result.combatants
    assert (a.fell, b.fell) == (a.out, b.out)


def test_the_duel_with_the_first_shooter_already_down_is_certain(duel: Encounter) -> None:
    # Ann out at the start: Bo has won already, in every run, without a round played.
    hit = duel.replace_combatant(
        type(duel.combatants[0])(
            id="c1",
            name="Ann",
            side="left",
            sheet=type(duel.combatants[0].sheet)(True),  # type: ignore[call-arg]  # the duel's own sheet
        )
    )
    result = forecast_here(hit, runs=50, seed=1)
    assert [(s.side, s.p) for s in result.sides] == [("left", 0.0), ("right", 1.0)]
    assert result.sides[1].low > 0.9
    assert result.histogram == {0: 50}
    assert result.combatants[0].out == 1.0 and result.combatants[0].first_out == 0.0


@pytest.mark.parametrize("stem", every_demo(plays_solo))
def test_every_demo_plays_out_to_an_end_without_a_refusal(stem: str) -> None:
    result = forecast_here(DEMOS[stem]().state, runs=30, seed=2)
    assert result.runs == 30
    assert result.refused == 0
    assert result.unfinished < 0.5
    assert sum(s.p for s in result.sides) + result.none == pytest.approx(1.0)
    assert any(c.first_out for c in result.combatants)


def test_the_json_has_the_issues_shape() -> None:
    state = demo()
    doc = forecast_here(state, runs=10, seed=9).to_json()
    assert set(doc) == {"runs", "seed", "sides", "none", "rounds", "combatants"}
    assert (doc["runs"], doc["seed"]) == (10, 9)
    assert set(doc["sides"]) == {c.side for c in state.combatants}
    assert all(set(side) == {"win", "low", "high"} for side in doc["sides"].values())
    assert set(doc["rounds"]) == {"mean", "histogram"}
    assert all(isinstance(k, str) for k in doc["rounds"]["histogram"])
    first = state.combatants[0]
    assert set(doc["combatants"]) == {c.id for c in state.combatants}
    assert doc["combatants"][first.id]["name"] == first.name
    assert {"out", "first_out", "end"} <= set(doc["combatants"][first.id])


def test_tallies_add_up_the_same_however_the_runs_are_split() -> None:
    state = list(DEMOS.values())[-1]().state  # any demo: the last listed
    job = job_bytes(state, 11, 50)
    whole = simulate(job, 0, 24)
    parts = merged(simulate(job, a, b) for a, b in [(16, 24), (0, 5), (5, 16)])
    assert parts == whole
    assert report(state, parts, 11, 50) == report(state, whole, 11, 50)
    assert Tally() == merged([])


def test_same_seed_same_forecast_with_one_job_or_two() -> None:
    state = demo()
    one = run_forecast(state, 40, 123, 50)
    with Workers(2) as workers:
        two = run_forecast(state, 40, 123, 50, workers)
        again = run_forecast(state, 40, 123, 50, workers)  # warm workers, the same figures
    assert one.to_json() == two.to_json() == again.to_json()
    assert one == two
    other = run_forecast(state, 40, 124, 50)
    assert other.to_json()["seed"] == 124 and other.histogram != one.histogram


def test_a_worker_process_loads_no_textual_and_no_storage() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tests.forecast_probe import loaded_in_worker

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        assert pool.submit(loaded_in_worker).result(timeout=60) == []


def every_span(runs: int, jobs: int) -> list[tuple[int, int]]:
    """The spans in the order handed out, the front and the back taking turns."""
    left, cut = Runs(runs, jobs), []
    while (span := left.from_front()) is not None:
        cut.append(span)
        if (span := left.from_back()) is not None:
            cut.append(span)
    return cut


def test_run_seeds_never_repeat_and_the_bounds_hold() -> None:
    assert MAX_RUNS < 2**RUN_BITS
    seeds = {run_seed(s, i) for s in (0, 1, MAX_SEED) for i in (0, 1, MAX_RUNS - 1)}
    assert len(seeds) == 9
    assert every_span(10, 2) == [(0, 2), (8, 10), (2, 3), (7, 8), (3, 4), (6, 7), (4, 5),
                                 (5, 6)]  # fmt: skip
    cut = every_span(1000, 2)
    assert cut[:2] == [(0, MAX_SPAN), (1000 - MAX_SPAN, 1000)]
    assert [b - a for a, b in cut][-4:] == [1, 1, 1, 1]  # the ends meet on small spans
    big = every_span(MAX_RUNS, 2)
    assert max(b - a for a, b in big) == MAX_SPAN  # a stop is quick
    for runs, jobs in [(1, 1), (7, 3), (1001, 2), (MAX_RUNS, 8)]:
        cut = sorted(every_span(runs, jobs))
        assert cut[0][0] == 0 and cut[-1][1] == runs
        assert all(a < b for a, b in cut) and all(x[1] == y[0] for x, y in pairwise(cut))
    assert MAX_ROUNDS >= 50


def test_the_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(100, 100)
    assert high == 1.0 and low == pytest.approx(0.9630, abs=1e-4)
    assert wilson(0, 100)[0] == 0.0


def test_one_run_is_a_function_of_its_seed() -> None:
    for build in DEMOS.values():  # every demo, whose solo policies make choices
        state = build().state
        assert play_out(state, 77) == play_out(state, 77), state.system


COMMAND_LINE_WORKER = """
import json, sys
from tests.forecast_probe import DEMO, loaded_in_worker
from tracker import cli
from tracker.headless import forecast_pool

seen = {}
play = forecast_pool.run_forecast

def probed(state, runs, seed, rounds, workers=None, *rest):
    seen["method"] = workers.method
    seen["loaded"] = workers.pool.submit(loaded_in_worker).result(timeout=60)
    seen["parent has storage"] = "tracker.store.storage" in sys.modules
    return play(state, runs, seed, rounds, workers, *rest)

forecast_pool.run_forecast = probed
code = cli.main(["forecast", str(DEMO), "--runs", "4", "--jobs", "2", "--json"])
print(json.dumps(seen), file=sys.stderr)
sys.exit(code)
"""


def test_the_command_lines_workers_are_forked_before_it_loads_the_storage() -> None:
    import json
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", COMMAND_LINE_WORKER],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # Its own line: anything else a process may write to stderr as it ends comes around it.
    probe = [line for line in done.stderr.splitlines() if line.startswith('{"method"')]
    assert probe, done.stderr
    seen = json.loads(probe[-1])
    assert seen == {"method": "fork", "loaded": [], "parent has storage": True}
    assert json.loads(done.stdout)["runs"] == 4


def test_a_killed_worker_costs_time_not_the_forecast() -> None:
    import os

    state = demo()
    alone = run_forecast(state, 40, 123, 50)
    with Workers(2) as workers:
        assert workers.pool is not None
        workers.pool.submit(os._exit, 9)  # as the kernel's OOM killer or a kill -9 would
        assert run_forecast(state, 40, 123, 50, workers) == alone
        assert run_forecast(state, 40, 123, 50, workers) == alone  # the pool stays broken


def test_workers_closed_under_a_forecast_stop_it() -> None:
    from tracker.headless.forecast_pool import Cancelled

    with Workers(2) as workers:
        assert workers.pool is not None
        workers.pool.shutdown(wait=True)  # what the screen's closing does mid-forecast
        with pytest.raises(Cancelled):
            run_forecast(demo(), 40, 123, 50, workers)


def test_the_switch_interval_is_set_back_when_the_last_forecast_ends() -> None:
    from tracker.headless.forecast_pool import SWITCH_INTERVAL, QuickHandoffs

    handoffs, before = QuickHandoffs(), sys.getswitchinterval()
    first, second = handoffs, handoffs  # two seats' forecasts, overlapping
    first.__enter__()
    second.__enter__()
    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    first.__exit__(None, None, None)
    assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)  # the second still runs
    second.__exit__(None, None, None)
    assert sys.getswitchinterval() == before


def test_a_chance_seen_but_tiny_is_printed_below_a_tenth_never_as_none() -> None:
    # One fight of 5,000 the foes won: 0.02%, which "0.0%" would say never happened.
    sides = (SideChance("party", 4999, 0.9998, 0.9989, 1.0), SideChance("foes", 1, 0.0002,
                                                                       0.0, 0.0011))  # fmt: skip
    result = Report(5000, 1, 50, 1, sides, 0.0, 0.0, 4.0, {4: 5000}, (), 0)
    lines = win_lines(result)
    assert "<0.1%" in lines[1] and "0.0%" in lines[2]  # the foes' win; no winner at all


def test_a_forecast_needs_two_sides_and_says_so_before_it_starts() -> None:
    """``unready``: the one check of the app's F and ``tracker forecast``."""
    system = a_system(plays_solo)
    goblins = [AddCombatant(name=n, side="foes") for n in ("Goblin 1", "Goblin 2")]
    assert unready(fight_of(system).state) == "nobody in the fight yet"
    one = fight_of(system, *goblins).state
    assert unready(one) == "one side only (foes): a forecast needs two sides"
    two = fight_of(system, *goblins, AddCombatant(name="Orla", side="party")).state
    assert unready(two) == ""
