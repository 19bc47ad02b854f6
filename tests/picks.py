"""Which registered system a generic test drives: the first, as the tracker lists them, that
has what the test needs. A test outside ``tests/systems/<name>/`` never names a system, so
deleting any system's folder leaves it running on another (``make without``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.registry import get_system, part
from rules.system import RuleSystem
from tracker.defaults import systems

Need = Callable[[str], bool]


def anything(name: str) -> bool:
    return True


def has_demo(name: str) -> bool:
    return part(name, "demo") is not None


def has_turn_order(name: str) -> bool:
    return get_system(name).uses_turn_order


def plays_solo(name: str) -> bool:
    """A system whose solo policies can play a side."""
    return type(get_system(name)).solo_move is not RuleSystem.solo_move


def a_system(*needs: Need) -> str:
    """The first listed system meeting every need; the test is skipped, saying so, if none
    does (a checkout may hold a single system)."""
    for name in systems():
        if all(need(name) for need in needs):
            return name
    needed = ", ".join(need.__name__ for need in needs)
    pytest.skip(f"no registered system has what this test needs: {needed}", allow_module_level=True)


def every_system(*needs: Need) -> list[str]:
    """Every listed system meeting every need (for ``pytest.mark.parametrize``)."""
    return [name for name in systems() if all(need(name) for need in needs)]


def keeps_added_order(name: str) -> bool:
    """A system with a turn order that leaves combatants where they were added (none rolls
    initiative as it joins), so the first added acts first."""
    system = get_system(name)
    return system.uses_turn_order and (
        type(system).initiative_on_add is RuleSystem.initiative_on_add
    )
