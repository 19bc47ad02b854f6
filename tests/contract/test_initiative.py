"""Every system: initiative rolled and sorted in one step where it has a turn order, refused
in its own words where it has none."""

from __future__ import annotations

from rules.history import History
from rules.system import RuleSystem

from .initiative_checks import (
    check_initiative,
)


def test_initiative(system: RuleSystem, history: History) -> None:
    check_initiative(system, history)
