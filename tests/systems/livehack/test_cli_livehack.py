"""``tracker roll livehack`` with every roll component, joint rolls and clear refusals."""

from __future__ import annotations

import json

import pytest

from tracker import cli


def roll(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["roll", "livehack", "--attacker", "3", "--defender", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_component_is_a_part_of_the_roll(capsys) -> None:
    code, out, _ = roll(
        capsys,
        *("--attacker-skill", "2", "--attacker-attribute", "1", "--attacker-specialty", "1"),
        *("--attacker-bond", "2", "--attacker-item", "1", "--attacker-item", "3"),
        *("--effort", "2", "--positional", "1", "--aid-mos", "6", "--aid-mos", "-3"),
        *("--attacker-take", "zero", "--defender-take", "zero", "--json"),
    )
    data = json.loads(out)
    assert code == 0
    assert data["attacker"]["parts"] == [
        ["modifier", 3], ["skill", 2], ["attribute", 1], ["specialty", 1], ["bond", 2],
        ["item", 1], ["item", 3], ["effort", 2], ["positional", 1], ["aid", 2],
    ]  # fmt: skip
    assert data["attacker"]["total"] == 18 and data["margin"] == 17


def test_a_cooperation_uses_the_best_margin(capsys) -> None:
    _, out, _ = roll(capsys, "--joint", "cooperation", "--helper", "9", "--seed", "5", "--json")
    data = json.loads(out)
    margins = [p["margin"] for p in data["participants"]]
    assert data["margin"] == max(margins)


def test_chaos_uses_the_lowest_and_says_so(capsys) -> None:
    _, out, _ = roll(capsys, "--joint", "chaos", "--helper", "9", "--seed", "5")
    assert "Chaos: they got in each other's way, the lowest margin counts" in out
    assert "Helper 1:" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--effort", "6"), "--effort must be between 0 and 5"),
        (("--helper", "2"), "--helper needs --joint"),
        (("--joint", "chaos"), "--joint needs at least one --helper"),
    ],
)
def test_bad_components_are_refused_in_one_line(capsys, args, message) -> None:
    code, _, err = roll(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1


def test_the_defender_may_push_from_the_command_line() -> None:
    import json
    import subprocess
    import sys

    def roll(*extra: str) -> subprocess.CompletedProcess[str]:
        args = ["roll", "livehack", "--attacker", "3", "--defender", "1", *extra]
        return subprocess.run(
            [sys.executable, "-m", "tracker", *args], capture_output=True, text=True, timeout=60
        )

    data = json.loads(roll("--defender-take", "zero", "--defender-effort", "2", "--json").stdout)
    assert data["defender"]["total"] == 3
    refused = roll("--defender-effort", "9")
    assert refused.returncode == 2
    assert refused.stderr.strip() == "tracker: --defender-effort must be between 0 and 5, not 9"
