"""``tracker roll beerrun``: a headless comparison of two pools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.systems.beerrun.demo import build as beerrun_demo
from rules.systems.beerrun.dice import Die, compare
from tracker.store import storage

ROLL = ("roll", "beerrun", "--pool", "d12,d8,d6", "--against", "d10,d10,d4")


def tracker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
    )


def test_json_has_every_die_sorted_pairs_and_is_reproducible() -> None:
    first = json.loads(tracker(*ROLL, "--seed", "7", "--json").stdout)
    assert first == json.loads(tracker(*ROLL, "--seed", "7", "--json").stdout)
    assert [d["size"] for d in first["pool"]] == [12, 8, 6]
    assert [d["size"] for d in first["against"]] == [10, 10, 4]
    top = tuple(Die(d["size"], d["face"]) for d in first["pool"])
    bottom = tuple(Die(d["size"], d["face"]) for d in first["against"])
    outcome = compare(top, bottom)
    pairs = first["pairs"]
    assert [p["pool"] for p in pairs] == sorted((d.face for d in top), reverse=True)
    assert first["kept"] == {"pool": outcome.top_kept, "against": outcome.bottom_kept}
    assert first["upper_hand"] in ("pool", "against", None)


def test_a_shorter_pool_is_padded_with_d1s() -> None:
    data = json.loads(
        tracker("roll", "beerrun", "--pool", "d4", "--against", "d6,d6", "--json").stdout
    )
    assert len(data["pairs"]) == 2 and data["pairs"][1]["pool"] == 1


def test_the_printout_shows_both_rows_and_the_seed() -> None:
    out = tracker(*ROLL, "--seed", "3").stdout
    assert "Pool vs Against: Against has the upper hand" in out
    assert "  Pool     4  3  3   d12 d8 d6" in out
    assert "  Against 10  8  1   d10 d10 d4" in out
    assert "Pool 1 success, keeps 1 · Against 2 successes, keeps 2" in out
    assert "(seed 3)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--pool", "d12,sword", "--against", "d6"), "'sword' is not a die"),
        (("--pool", "d0", "--against", "d6"), "d1 to a d1000"),
        (("--pool", "", "--against", "d6"), "at least one die"),
        (("--pool", "d6"), "--against"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(args: tuple[str, ...], message: str) -> None:
    result = tracker("roll", "beerrun", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_bundled_demo_is_mid_conflict() -> None:
    path = Path(__file__).parents[3] / "saves" / "demo-beer-run.fight"
    state = storage.read(path).state
    assert state.system == "beerrun" and state.round == 2
    assert state.last_roll is not None and not state.last_roll_applied  # damage to land
    assert state == beerrun_demo().state  # the committed file matches demo.py
