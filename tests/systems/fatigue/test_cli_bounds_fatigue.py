"""``tracker roll`` and ``tracker odds`` refuse a Fatigue modifier beyond the rules in one
line, at once (moved from tests/cli/test_cli_bounds.py)."""

from __future__ import annotations

import pytest

from tests.cli.test_cli_bounds import HUGE, refused_at_once

ROLL = ("--attacker", "3", "--defender", "1")
DICE = ("--attacker-dice", "1d20")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("odds", "fatigue", *DICE, "--attacker", HUGE, "--defender-dice", "1d20",
             "--defender", "0"),
            "--attacker",
        ),
        (
            ("roll", "fatigue", "--attacker", "0", "--defender", "0", "--fatigue-penalty", HUGE),
            "--fatigue-penalty",
        ),
        (
            ("odds", "fatigue", *DICE, "--attacker", "1", "--defender-dice", "1d20",
             "--defender", "0", "--fumble", HUGE),
            "--fumble",
        ),
        (("roll", "fatigue", *ROLL, "--fumble", f"-{HUGE}"), "--fumble"),
    ],
)  # fmt: skip
def test_a_modifier_beyond_the_rules_is_one_line_at_once(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    refused_at_once(capsys, args, message)
