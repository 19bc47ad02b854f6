"""``tracker roll`` and ``tracker odds`` refuse a LiveHack modifier beyond the rules in one
line, at once, and answer at the largest they allow (moved from tests/cli/test_cli_bounds.py)."""

from __future__ import annotations

import pytest

from rules.bounds import MODIFIER
from tests.cli.test_cli_bounds import HUGE, refused_at_once, run

ROLL = ("--attacker", "3", "--defender", "1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("odds", "livehack", "--attacker", "50000", "--defender", "0"), "--attacker"),
        (("odds", "livehack", "--attacker", HUGE, "--defender", "0"), "--attacker"),
        (("odds", "livehack", "--attacker", "0", "--defender", "-101"), "--defender"),
        (("roll", "livehack", "--attacker", HUGE, "--defender", "0"), "--attacker"),
        (("roll", "livehack", "--attacker", "1", "--defender", f"-{HUGE}"), "--defender"),
        (("roll", "livehack", *ROLL, "--attacker-skill", "500"), "--attacker-skill"),
        (("roll", "livehack", *ROLL, "--defender-item", HUGE), "--defender-item"),
        (("roll", "livehack", *ROLL, "--positional", "-3"), "--positional"),
        (("roll", "livehack", *ROLL, "--aid-mos", HUGE), "--aid-mos"),
        (("roll", "livehack", *ROLL, "--joint", "chaos", "--helper", HUGE), "--helper"),
    ],
)
def test_a_modifier_beyond_the_rules_is_one_line_at_once(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    refused_at_once(capsys, args, message)


def test_the_largest_modifiers_the_rules_allow_still_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "odds", "livehack", "--attacker", str(MODIFIER), "--defender", str(-MODIFIER)
    )
    assert status == 0 and "100.00%" in out
