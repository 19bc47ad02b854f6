"""``tracker roll fatigue``: the headless check, as text or JSON, and its refusals."""

from __future__ import annotations

import json

from tests.cli.support import tracker

BASE = ("roll", "fatigue", "--attacker", "3", "--defender", "2")


def test_json_has_every_die_the_margin_and_the_narrowed_tier() -> None:
    args = (*BASE, "--attacker-dice", "open-d20", "--defender-dice", "2d10")
    args += ("--fatigue-penalty", "4", "--seed", "5", "--json")
    first = json.loads(tracker(*args).stdout)
    assert first == json.loads(tracker(*args).stdout)  # the seed reproduces it
    attacker, defender = first["attacker"], first["defender"]
    assert attacker["dice"] == "open-d20" and len(defender["faces"]) == 2
    assert attacker["total"] == attacker["dice_total"] + 3
    assert first["margin"] == attacker["total"] - defender["total"]
    assert first["spacing"] == 6 and first["thresholds"] == [0, 6, 12, 18, 24]
    assert first["tier"]["level"] == (first["margin"] // 6 if first["margin"] > 0 else None)


def test_the_floor_stops_the_narrowing() -> None:
    data = json.loads(tracker(*BASE, "--fatigue-penalty", "9", "--floor", "2", "--json").stdout)
    assert data["spacing"] == 2 and data["thresholds"] == [0, 2, 4, 6, 8]


def test_text_shows_the_dice_and_the_consequence() -> None:
    result = tracker(*BASE, "--seed", "5")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Attacker: 1d20 [")
    assert "thresholds 0/10/20/30/40" in result.stdout
    assert lines[-1] == "(seed 5)"


def test_bad_arguments_get_one_line_and_status_2() -> None:
    for args in (
        (*BASE, "--attacker-dice", "3d6"),
        (*BASE, "--floor", "5"),
        (*BASE, "--fatigue-penalty", "-1"),
        ("roll", "fatigue", "--attacker", "x", "--defender", "2"),
    ):
        result = tracker(*args)
        assert result.returncode == 2, args
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
