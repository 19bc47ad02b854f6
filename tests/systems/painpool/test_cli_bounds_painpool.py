"""``tracker roll`` and ``tracker odds`` name what is wrong with a Pain Pool pool, in one line
(moved from tests/cli/test_cli_bounds.py)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_bounds import HUGE, run

PAIN = ("--precision", "d6", "--possibility", "1d4", "--pain", "5d6")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (("--power", "1000d8", *PAIN), "tracker: --power must roll between 1 and 30 dice"),
        (("--power", f"{HUGE}d8", *PAIN), "tracker: --power must roll between 1 and 30 dice"),
        (("--power", "2d8", *PAIN[:-1], "5x6"), "tracker: --pain must look like 3d6, not '5x6'"),
        (("--power", "2d8", *PAIN[:-1], "31d6"), "tracker: --pain must roll between 1 and 30"),
    ],
)
def test_painpool_pools_name_what_is_wrong(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], line: str
) -> None:
    status, _, err = run(capsys, "roll", "painpool", *args)
    assert status == 2
    assert err.startswith(line)


def test_painpool_takes_a_die_without_its_count_as_beerrun_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "odds", "painpool", "--power", "d8", *PAIN)
    assert status == 0 and "%" in out
