"""LiveHack's `tracker roll`: its JSON, Take Ten and Zero, its tier, its breakdown and its own
bad arguments; its bundled demo (moved from tests/cli/test_cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.systems.livehack.demo import build as livehack_demo
from tests.cli.support import tracker
from tracker.store import storage


def test_roll_json_has_every_die_and_is_reproducible() -> None:
    args = ("roll", "livehack", "--attacker", "5", "--defender", "3", "--seed", "4", "--json")
    first = json.loads(tracker(*args).stdout)
    assert first == json.loads(tracker(*args).stdout)
    assert first["attacker"]["boon"] and first["attacker"]["bane"]
    attacker, defender = first["attacker"], first["defender"]
    assert attacker["total"] == 5 + sum(attacker["boon"]) - sum(attacker["bane"])
    assert first["margin"] == attacker["total"] - defender["total"]
    assert first["success"] == (first["margin"] >= 0)


def test_roll_with_take_ten_and_zero_rolls_no_dice() -> None:
    result = tracker(
        "roll", "livehack", "--attacker", "2", "--defender", "1",
        "--attacker-take", "ten", "--defender-take", "zero", "--json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["attacker"]["boon"] == [] and data["attacker"]["total"] == 12
    assert data["defender"]["total"] == 1 and data["margin"] == 11
    assert data["tier"] is None  # a roll to hit: its damage roll comes next (issue 30)
    assert data["margin_bonus"] == 2


def test_the_json_tier_is_the_damage_tables_only_for_a_roll_it_answers() -> None:
    """Issue 30: `--defense reflex --json` gave a roll to hit a damage-table tier."""
    result = tracker(
        "roll", "livehack", "--attacker", "2", "--defender", "1", "--defense", "fortitude",
        "--attacker-take", "ten", "--defender-take", "zero", "--json",
    )  # fmt: skip
    data = json.loads(result.stdout)
    assert data["tier"] == {"low": 10, "high": 14, "levels": 3, "condition": "Incapacitated"}
    to_hit = tracker(
        "roll", "livehack", "--attacker", "2", "--defender", "1", "--defense", "reflex",
        "--attacker-take", "ten", "--defender-take", "zero", "--json",
    )  # fmt: skip
    data = json.loads(to_hit.stdout)
    assert data["success"] and data["tier"] is None and data["margin_bonus"] == 2


def test_roll_prints_a_readable_breakdown() -> None:
    out = tracker("roll", "livehack", "--attacker", "5", "--defender", "3", "--seed", "4").stdout
    assert "Attacker vs Defender" in out and "boon [" in out and "(seed 4)" in out


def test_the_bundled_demo_is_what_the_issue_asks_for() -> None:
    state = storage.read(Path(__file__).parents[3] / "saves" / "demo-livehack.fight").state
    assert state.system == "livehack" and state.round == 2
    assert len(state.combatants) == 4
    assert state.last_roll is not None
    assert any(c.conditions for c in state.combatants)
    assert state == livehack_demo().state  # the committed file matches demo.py


@pytest.mark.parametrize(
    "args",
    [
        ("roll", "livehack", "--attacker", "x", "--defender", "1"),
        ("roll", "livehack", "--attacker", "1"),
        ("roll", "livehack", "--attacker", "1", "--defender", "1", "--attacker-take", "five"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    result = tracker(*args)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
