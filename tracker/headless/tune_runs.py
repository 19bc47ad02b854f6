"""``tracker tune`` and the app's "Balance...": the party's chance to win a fight, for
``rules.tune``'s search, from the forecast's worker pool (``tracker.headless.forecast_pool``), the
same seed for every step; and the tune's steps as text.

A step first plays ``FIRST_RUNS`` fights; only when the target lies near its interval does it
play the rest of ``runs`` (a step far off needs no more to say which way to go). A fight the
system can work out exactly (``RuleSystem.exact_wins``: a duel) is not played at all.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rules.dice import DiceSource, SeededDice
from rules.encounter import AnyEncounter
from rules.forecast import DEFAULT_ROUNDS
from rules.odds import whole_percent
from rules.registry import get_system
from rules.tune import TOLERANCE, Chance, Estimate, Step, Tuning, together
from tracker.headless.forecast_pool import Workers, run_forecast

RUNS = 1000
FIRST_RUNS = 200


def exact_chance(state: AnyEncounter, party: str) -> Chance | None:
    """The party's exact chance, where the system can work it out (a duel); else None."""
    exact = get_system(state.system).exact_wins(state, DEFAULT_ROUNDS)
    if exact is None:
        return None
    p = float(exact.get(party, 0))
    return Chance(p, p, p, 0)


def estimator(
    party: str,
    target: float,
    seed: int,
    workers: Workers | None,
    *,
    runs: int = RUNS,
    tolerance: float = TOLERANCE,
    cancel: threading.Event | None = None,
    told: Callable[[int], None] | None = None,
) -> Estimate:
    """The party's chance in a state: exact where it can be, else a forecast of
    ``FIRST_RUNS`` fights, and of ``runs`` when the target is within reach of its interval.
    ``told``: the runs played so far in this step (a progress bar)."""

    def chance(state: AnyEncounter) -> Chance:
        exact = exact_chance(state, party)
        if exact is not None:
            return exact
        found = _played(state, min(FIRST_RUNS, runs), seed)
        if found.runs < runs and found.low - tolerance <= target <= found.high + tolerance:
            # The rest on seeds of their own (the forecast's are the seed's bits and the
            # run's index): the first fights are not played again.
            found = together(found, _played(state, runs - found.runs, seed + 1))
        return found

    def _played(state: AnyEncounter, count: int, seed: int) -> Chance:
        result = run_forecast(state, count, seed, DEFAULT_ROUNDS, workers, told, cancel)
        side = next(s for s in result.sides if s.side == party)
        return Chance(side.p, side.low, side.high, result.runs)

    return chance


def scratch_dice(seed: int) -> Callable[[], DiceSource]:
    """The dice a scratch copy rolls with as foes join: the same for every step."""
    return lambda: SeededDice(seed)


def chance_text(chance: Chance) -> str:
    if chance.exact:
        return f"{whole_percent(chance.p)} (exact)"
    low, high = whole_percent(chance.low), whole_percent(chance.high)
    return f"{whole_percent(chance.p)} ({low}-{high}, {chance.runs:,} runs)"


def step_line(number: int, step: Step, width: int = 80) -> str:
    """ "3. +2 Goblin   party wins 62% (59%-65%, 1,000 runs)": the change cut to fit."""
    said = f"party wins {chance_text(step.chance)}"
    room = max(8, width - 4 - 41)  # the chance's words are at most 41 characters
    what = step.what if len(step.what) <= room else step.what[: room - 1] + "…"
    return f"{number:>2}. {what:<{room}} {said}".rstrip()


def as_lines(tuning: Tuning, width: int = 80) -> list[str]:
    lines = [step_line(n, step, width) for n, step in enumerate(tuning.steps, 1)]
    return [*lines, tuning.line]


def as_json(tuning: Tuning) -> dict[str, Any]:
    def chance(c: Chance) -> dict[str, Any]:
        return {
            "win": round(c.p, 4),
            "low": round(c.low, 4),
            "high": round(c.high, 4),
            "runs": c.runs,
        }

    return {
        "target": tuning.target,
        "reached": tuning.reached,
        "settled": tuning.line,
        "steps": [{"change": s.what, **chance(s.chance)} for s in tuning.steps],
        "chance": chance(tuning.chance),
        "change": {
            "added": list(tuning.plan.added),
            "removed": list(tuning.plan.removed),
            "hit_points_scale": tuning.plan.scale,
        },
    }
