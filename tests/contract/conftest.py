"""Fixtures of the contract suite: every test that takes ``name`` runs once per registered
system (``rules.registry.names()``, never a list written here), so a fifth system's folder
is enough for it to be checked like the others."""

from __future__ import annotations

import pytest

from rules import registry
from rules.history import History
from rules.system import RuleSystem

from .support import Rolled, demo, roll_from_demo


def system_actions() -> list[tuple[str, str]]:
    """(system, action) for every action each system offers on its demo's state."""
    pairs = []
    for name in registry.names():
        state = demo(name).state
        pairs += [(name, action.id) for action in registry.get_system(name).actions(state)]
    return pairs


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "name" not in metafunc.fixturenames:
        return
    if "action" in metafunc.fixturenames:
        pairs = system_actions()
        metafunc.parametrize(("name", "action"), pairs, ids=[f"{n}-{a}" for n, a in pairs])
    else:
        metafunc.parametrize("name", registry.names())


@pytest.fixture
def system(name: str) -> RuleSystem:
    return registry.get_system(name)


@pytest.fixture
def history(name: str) -> History:
    """A fresh copy of the system's demo encounter."""
    return demo(name)


@pytest.fixture
def rolled(system: RuleSystem, history: History) -> Rolled:
    """The demo after a roll with the roll dialog's defaults."""
    return roll_from_demo(system, history)
