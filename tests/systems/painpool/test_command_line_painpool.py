"""The `:` command line in Pain Pool's demo: a roll from its own form's fields."""

from __future__ import annotations

from rules.systems.painpool import demo as painpool
from tests.app.line_support import run


def test_a_roll_from_its_own_form() -> None:
    pains = run('roll bullet juggernaut maneuver +intent "find the weak plate"', painpool.build())
    assert pains.kind == "maneuver" and pains.intent == "find the weak plate"  # type: ignore[attr-defined]
