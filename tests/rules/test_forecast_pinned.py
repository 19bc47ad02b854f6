"""Every system's forecast pinned: the reports of fixed seeds, taken before the forecast kept
who is out and where each combatant stands indexed (issue 45), are the reports now. The
demo as saved, and fresh fights of 2, 10 and 40 (``bench/crowd.py``), where several go out in
one move and the turn order skips the fallen; each system's figures are in its own test
folder (``tests/systems/<name>/forecast_pinned.json``), so deleting a system deletes them."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.crowd import crowd
from rules.encounter import Encounter
from rules.forecast import forecast
from rules.registry import part
from tests.picks import every_system, has_demo, plays_solo

TESTS = Path(__file__).resolve().parents[1]
SEED = 45
# (the fight, its runs, the round limit): a crowd of 40 is long in some systems, so a few
# runs of it, to a lower limit, keep the test short.
CASES: tuple[tuple[str, int, int], ...] = (
    ("demo", 20, 50),
    ("2", 20, 50),
    ("10", 6, 50),
    ("40", 2, 20),
)


def fight(system: str, which: str) -> Encounter:
    if which == "demo":
        demo = part(system, "demo")
        assert demo is not None
        state: Encounter = demo.build().state
        return state
    return crowd(system, int(which))


def reports(system: str) -> dict[str, Any]:
    """Each case's report, as ``tracker forecast --json`` writes it."""
    return {
        which: forecast(fight(system, which), runs=runs, seed=SEED, rounds=rounds).to_json()
        for which, runs, rounds in CASES
    }


def pinned_path(system: str) -> Path:
    return TESTS / "systems" / system / "forecast_pinned.json"


@pytest.mark.parametrize("system", every_system(plays_solo, has_demo))
def test_the_forecasts_of_fixed_seeds_are_the_ones_pinned(system: str) -> None:
    path = pinned_path(system)
    if not path.exists():
        pytest.skip(f"{system} has no forecast pinned (a system added since)")
    assert reports(system) == json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":  # writes the pins: only ever from code whose forecasts are right
    for name in sys.argv[1:]:
        pinned_path(name).write_text(json.dumps(reports(name), indent=1) + "\n", encoding="utf-8")
