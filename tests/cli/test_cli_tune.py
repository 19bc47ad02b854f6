"""``tracker tune``: each step and what it settled on, one line a step; the save untouched
without ``--apply``, one undoable change with it; one line and exit 2 for bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.history import History
from rules.registry import get_system
from tests.picks import a_demo, every_demo, plays_solo, scales_nothing
from tracker.store import storage

from .support import tracker

ROOT = Path(__file__).resolve().parents[2]
QUICK = ("--runs", "20", "--seed", "1", "--jobs", "1", "--within", "10")


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}", path)
    return path


def test_tune_prints_each_step_and_what_it_settled_on_and_writes_nothing(save: Path) -> None:
    before = save.read_bytes()
    done = tracker("tune", str(save), "--party-wins", "50%", *QUICK)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Tuning ") and "to win 50%, within 10 points (seed 1)" in lines[0]
    assert lines[1].startswith(" 1. as it is") and "party wins" in lines[1]
    assert all(line[:2].strip().isdigit() for line in lines[1:-2])
    assert lines[-2].startswith(("Settled on ", "Cannot reach 50%"))
    assert lines[-1] == "Not written: --apply writes it (one change, undone with u)."
    assert all(len(line) <= 80 for line in lines[1:-2])
    assert save.read_bytes() == before
    assert done.returncode in (0, 1), done.stderr


def test_tune_with_apply_writes_one_change_that_one_undo_takes_back(save: Path) -> None:
    before = storage.read(save)
    done = tracker("tune", str(save), "--party-wins", "50%", "--apply", *QUICK)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("Wrote ")
    after: History = storage.read(save)
    assert len(after.records) == len(before.records) + 1
    # The nearest is applied when 50% is out of reach (as with Beer Run's demo, when it is
    # the system picked): one change either way.
    assert after.records[-1].label.startswith(("tune: Settled on", "tune: Cannot reach 50%"))
    assert after.state != before.state
    after.undo()
    assert after.state == before.state


def test_tune_as_json_names_the_steps_and_the_change(save: Path) -> None:
    done = tracker("tune", str(save), "--party-wins", "50", "--json", *QUICK)
    found = json.loads(done.stdout.splitlines()[-2])
    assert found["target"] == 0.5
    assert found["steps"][0]["change"] == "as it is"
    assert set(found["change"]) == {"added", "removed", "hit_points_scale"}


@pytest.mark.parametrize(
    ("chance", "said"),
    [("120%", "not from 0% to 100%"), ("most", "is not a chance like 80%")],
)
def test_a_chance_that_is_none_is_one_line_and_exit_2(save: Path, chance: str, said: str) -> None:
    done = tracker("tune", str(save), "--party-wins", chance)
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr


def test_a_library_challenge_with_no_stat_block_is_one_line(save: Path, tmp_path: Path) -> None:
    args = ("--library", str(tmp_path / "empty"), "--from-library", "99")
    done = tracker("tune", str(save), "--party-wins", "50%", *args, *QUICK)
    assert done.returncode == 2
    assert done.stderr == "tracker: no stat block of challenge '99' in the library\n"


@pytest.mark.parametrize("demo", every_demo(plays_solo, scales_nothing))
def test_hp_only_where_the_system_has_no_hit_points_is_one_line(tmp_path: Path, demo: str) -> None:
    """It ran the forecast and said it could not reach the chance "in 1 steps"."""
    path = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{demo}{storage.SUFFIX}", path)
    done = tracker("tune", str(path), "--party-wins", "50%", "--hp-only", *QUICK)
    assert done.returncode == 2
    title = get_system(storage.read(path).state.system).title
    said = f"tracker: {title} has no hit points to scale: a tune there adds or removes foes\n"
    assert done.stderr == said
