"""``tracker roll painpool``: every die, reproducible, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tracker import cli
from tracker.store import storage

ROLL = ("roll", "painpool", "--power", "3d8", "--precision", "2d6", "--possibility", "1d4")


def test_the_issue_command_prints_json_with_every_die_reproducibly() -> None:
    args = (*ROLL, "--pain", "9d6", "--seed", "4", "--json")
    result = subprocess.run(
        [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == json.loads(
        subprocess.run(
            [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
        ).stdout
    )
    pools = data["pools"]
    assert [len(pools[p]["dice"]) for p in ("power", "precision", "possibility")] == [3, 2, 1]
    assert all(pool["kept"] == max(pool["dice"]) for pool in pools.values())
    assert data["hero_total"] == sum(pool["kept"] for pool in pools.values())
    pain = data["pain"]
    assert len(pain["dice"]) == 9 and pain["kept"] == sorted(pain["dice"], reverse=True)[:3]
    assert data["difference"] == data["hero_total"] - pain["total"]
    assert data["despair"] == (data["dominant"] == "pain")


def test_the_breakdown_marks_the_kept_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*ROLL, "--pain", "9d6", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Power 3d8: " in out and "Pain 9d6 (pool 9): " in out and "[" in out
    assert "dominates" in out and "(seed 4)" in out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--pain", "2d6"), "--pain is at least 3d6"),
        (("--pain", "9d8"), "--pain is at least 3d6"),
        (("--pain", "lots"), "--pain must look like 3d6"),
    ],
)
def test_bad_dice_are_one_line_and_exit_2(
    extra: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main([*ROLL, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_pools_take_one_each_of_d8_d6_d4(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["roll", "painpool", "--power", "3d8", "--precision", "2d8", "--possibility", "1d4"]
    assert cli.main([*argv, "--pain", "9d6"]) == 2
    assert "one each of d8, d6 and d4" in capsys.readouterr().err


def test_a_missing_pool_is_an_argparse_error() -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["roll", "painpool", "--power", "3d8", "--pain", "9d6"])
    assert exit_.value.code == 2


def test_the_bundled_demo_is_mid_challenge() -> None:
    path = Path(__file__).parents[3] / "saves" / "demo-pain-pool.fight"
    state = storage.read(path).state
    assert state.system == "painpool"
    juggernaut = next(c for c in state.combatants if c.name == "Juggernaut")
    assert 0 < juggernaut.sheet.remaining < juggernaut.sheet.tokens
