"""The contract as docs/contributing/adding-a-system.md tells it: every hook of ``RuleSystem`` is
named there, and what the page says is refused when a class is defined is."""

from __future__ import annotations

import re

import pytest

from rules.system import RuleSystem

from .support import ROOT

DOC = ROOT / "docs" / "contributing" / "adding-a-system.md"
# Not hooks a system writes: the registry's check of REQUIRED, and what the screen shows of
# an event (``alerts`` and ``condition_note`` together).
NOT_HOOKS = {"missing", "notices"}


def test_every_public_hook_of_rulesystem_is_named_on_the_page() -> None:
    page = DOC.read_text(encoding="utf-8")
    hooks = [name for name in vars(RuleSystem) if not name.startswith("_")]
    assert len(hooks) > 50
    unnamed = [h for h in hooks if h not in NOT_HOOKS and not re.search(rf"[`.]{h}\b", page)]
    assert unnamed == [], f"name each in docs/contributing/adding-a-system.md's tables: {unnamed}"


def test_a_system_missing_a_required_attribute_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match=r"Half must set .*event_types.*uses_turn_order"):

        class Half(RuleSystem):
            name = "half"
            title = "Half"
