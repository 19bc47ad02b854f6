"""``tracker roll fatigue``: the headless check, as text or JSON, and its refusals."""

from __future__ import annotations

import json
from typing import Any

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


def test_a_fumble_line_is_reported_as_the_odds_count_it() -> None:
    def rolled(*more: str) -> Any:
        return json.loads(tracker(*BASE, "--seed", "4", *more, "--json").stdout)

    plain = rolled()
    total = plain["attacker"]["total"]
    assert plain["fumble"] is None
    at_the_line = rolled("--fumble", str(total))  # at or under the line: a fumble
    assert at_the_line["fumble"] == {"line": total, "fumbled": True}
    assert at_the_line["defender_wins"] and at_the_line["tier"]["level"] is None
    assert at_the_line["tier"]["name"] == "Successful defense"
    under = rolled("--fumble", str(total - 1))
    assert under["fumble"] == {"line": total - 1, "fumbled": False}
    assert under["tier"] == plain["tier"]
    # The odds at the same line: the attacker's 1d20 + 3 at or under it, in the <=0 band.
    odds = ("odds", "fatigue", "--attacker-dice", "1d20", "--attacker", "3")
    odds += ("--defender-dice", "1d20", "--defender", "-50", "--fumble", str(total), "--json")
    answer = json.loads(tracker(*odds).stdout)
    assert answer["fumble"] == (total - 3) / 20
    assert answer["tiers"][0]["label"] == "<=0" and answer["tiers"][0]["p"] == answer["fumble"]


def test_a_fumble_wins_no_threshold_whatever_the_margin() -> None:
    args = ("roll", "fatigue", "--attacker", "3", "--defender", "-50", "--seed", "2")
    result = tracker(*args, "--fumble", "100")
    assert "Fumble line 100: attacker's " in result.stdout and "fumbles" in result.stdout
    assert "Successful defense" in result.stdout and "margin +" in result.stdout
    assert "Catastrophic" in tracker(*args).stdout


def test_odds_help_lists_the_stress_dice() -> None:
    """``--attacker-dice D`` hid the choices: only a wrong one's error listed them."""
    done = tracker("odds", "fatigue", "--help")
    assert done.returncode == 0
    assert done.stdout.count("the stress dice: 5d4, 2d10, 1d20, open-d20") == 2
