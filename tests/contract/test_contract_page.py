"""The contract as docs/contributing/adding-a-system.md tells it: every part of ``RuleSystem`` has
its section there, naming each of its hooks, and what the page says is refused when a class is
defined is."""

from __future__ import annotations

import re

import pytest

from rules.system import RuleSystem

from .support import ROOT

DOC = ROOT / "docs" / "contributing" / "adding-a-system.md"
# The parts ``RuleSystem`` is composed of, one by role (``rules/roles/``).
PARTS = [part for part in RuleSystem.__mro__ if part.__module__.startswith("rules.roles.")]
# Not a hook a system writes: what the screen shows of an event (``alerts`` and
# ``condition_note`` together).
NOT_HOOKS = {"notices"}


def section(page: str, part: type) -> str:
    """The page's section on ``part``: from its heading, which names its module, to the next."""
    path = part.__module__.replace(".", "/") + ".py"
    heading = rf"^### {part.__name__}\b[^\n]*`{path}`[^\n]*$"
    found = re.search(rf"{heading}(.*?)(?=^#)", page, re.M | re.S)
    assert found, (
        f"docs/contributing/adding-a-system.md has no section '### {part.__name__}: ... (`{path}`)'"
    )
    return found.group(1)


def test_rulesystem_is_composed_of_the_parts_of_rules_roles() -> None:
    assert len(PARTS) >= 10
    assert sum(len(vars(part)) for part in PARTS) > 50


@pytest.mark.parametrize("part", PARTS, ids=lambda part: part.__name__)
def test_every_public_hook_of_a_part_is_named_in_its_section_of_the_page(part: type) -> None:
    text = section(DOC.read_text(encoding="utf-8"), part)
    hooks = [name for name in vars(part) if not name.startswith("_") and name not in NOT_HOOKS]
    unnamed = [h for h in hooks if not re.search(rf"[`.]{h}\b", text)]
    assert unnamed == [], (
        f"name each in its part's table of docs/contributing/adding-a-system.md: {unnamed}"
    )


def test_a_part_of_a_system_is_one_of_rulesystems_parts() -> None:
    # A module's part (``LiveHackLog(Log)``) fills hooks of one role, never a new one.
    from rules import registry

    for name in registry.names():
        system = type(registry.get_system(name))
        for part in system.__mro__[1 : system.__mro__.index(RuleSystem)]:
            roles = [base for base in PARTS if issubclass(part, base)]
            assert len(roles) == 1, f"{part.__qualname__} is a part of one role: {roles}"
            extra = set(vars(part)) - {"__module__", "__qualname__", "__doc__", "__dict__"}
            own = {h for h in extra if not h.startswith("_")}
            assert own <= set(vars(roles[0])), f"not hooks of {roles[0].__name__}: {own}"


def test_a_system_missing_a_required_attribute_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match=r"Half must set .*event_types.*uses_turn_order"):

        class Half(RuleSystem):
            name = "half"
            title = "Half"
