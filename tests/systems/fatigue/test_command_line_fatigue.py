"""The `:` command line in Fatigue's demo: a roll from its own form's fields, completed."""

from __future__ import annotations

from rules.systems.fatigue import demo as fatigue
from tests.app.line_support import options, run


def test_a_check_from_its_own_form() -> None:
    mara = run("roll mara brute +attacker-dice 2d10 relaxed", fatigue.build())
    assert (mara.attacker_id, mara.defender_id) == ("c1", "c3")  # type: ignore[attr-defined]
    assert mara.attacker_dice == "2d10" and mara.attacker_attitude == "relaxed"  # type: ignore[attr-defined]


def test_completes_the_dice() -> None:
    assert options("roll mara brute +attacker-dice ", fatigue.build()) == [
        "5d4",
        "2d10",
        "1d20",
        "open-d20",
    ]
