"""``tracker export --swings``: where a saved fight turned, as Markdown (a chart, the three
swings, the points) and JSON; a fight with GM-only combatants only with ``--gm``."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from rules.commands import AddCombatant
from rules.engine import decide
from tests.helpers import no_dice
from tests.picks import a_demo, plays_solo
from tracker.store import storage

from .support import tracker

ROOT = Path(__file__).resolve().parents[2]
QUICK = ("--swings", "--runs", "10", "--seed", "1", "--jobs", "1")


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "brawl.fight"
    shutil.copy(ROOT / "saves" / f"{a_demo(plays_solo)}{storage.SUFFIX}", path)
    return path


def test_swings_as_markdown_draw_the_chart_and_name_the_swings(save: Path) -> None:
    done = tracker("export", str(save), *QUICK)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("# Where ") and lines[0].endswith(" turned")
    assert any(line.startswith("100%│") for line in lines)
    swings = lines[lines.index("## The swings") + 2 :]
    assert swings[0].startswith("1. Round ") and " took the " in swings[0]
    assert "| Event | Round | Win | 95% interval | Runs |" in lines
    assert lines[-1] == "Forecast seed 1: every point played on the same dice."


def test_swings_as_json_give_every_point_and_the_swings(save: Path) -> None:
    done = tracker("export", str(save), *QUICK, "--format", "json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["seed"] == 1
    assert 1 <= len(found["swings"]) <= 3
    assert {"event", "round", "win", "low", "high", "runs"} == set(found["points"][0])


def test_swings_of_a_fight_with_a_gm_only_combatant_need_gm(save: Path) -> None:
    history = storage.read(save)
    hidden = AddCombatant(name="Lurker", side="foes", gm_only=True)
    history.commit(decide(history.state, hidden, no_dice()), "add")
    storage.write(save, history)
    done = tracker("export", str(save), *QUICK)
    assert done.returncode == 2
    assert done.stderr == (
        "tracker: the swings read the whole fight, GM-only combatants too: add --gm\n"
    )


def test_swings_json_is_the_same_with_one_job_or_two_and_quiet_off_a_terminal(
    save: Path,
) -> None:
    # Every point's spans in one queue on the pool: the same seeds played, in any order.
    outs = [tracker("export", str(save), *QUICK[:-1], jobs, "--format", "json") for jobs in "12"]
    assert all(done.returncode == 0 for done in outs), outs[1].stderr
    assert outs[0].stdout == outs[1].stdout
    assert outs[0].stderr == outs[1].stderr == ""  # no progress into a pipe


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_swings_progress_shows_on_a_terminal_and_is_cleared_at_the_end() -> None:
    from tracker.cli.progress import CLEAR, on_terminal

    screen = Terminal()
    with on_terminal("swings", screen) as told:
        assert told is not None
        for done in (0, 50, 55, 500, 1000):
            told(done, 1000)
    drawn = screen.getvalue()
    assert drawn.count("\rswings ") == 4  # 50 and 55 of 1000 are both 5%
    assert drawn.endswith(f"100%{CLEAR}")
    with on_terminal("swings", io.StringIO()) as told:
        assert told is None
