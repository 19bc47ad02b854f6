"""``tracker roll`` reads Beer Run's pools one way and refuses a bad one in one line (moved
from tests/cli/test_cli_bounds.py)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_bounds import HUGE, run


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("--pool", "0d6,d6", "--against", "d6"),
            "tracker: --pool: '0d6' rolls no dice; leave it out",
        ),
        (
            ("--pool", "0d6", "--against", "d6"),
            "tracker: --pool: '0d6' rolls no dice; leave it out",
        ),
        (
            ("--pool", "d" + HUGE, "--against", "d6"),
            "tracker: --pool's die must be a d1 to a d1000",
        ),
    ],
)
def test_beerrun_pools_are_read_one_way(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    status, _, err = run(capsys, "roll", "beerrun", *args)
    assert status == 2
    assert err.startswith(line)


def test_beerrun_three_digit_faces_stay_apart(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "roll", "beerrun", "--pool", "d999,d999,d999", "--against", "3d999", "--seed", "2"
    )
    assert status == 0
    rows = [
        line.split()
        for line in out.splitlines()
        if line.startswith(("  Pool", "  Against")) and "success" not in line
    ]
    assert [len(row) for row in rows] == [7, 7]  # name, three faces, three dice
    assert all(1 <= int(face) <= 999 for row in rows for face in row[1:4])
