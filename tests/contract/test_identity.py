"""What a system is: a RuleSystem named for its folder, its types, and its save tags."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from rules import registry
from rules.encounter import CombatantAdded, CombatantEdited, NoState
from rules.engine import initial_state, new_encounter
from rules.errors import Rejected
from rules.events import CoreEvent
from rules.history import Applied, Redone, Undone
from rules.system import Action, RuleSystem
from rules.testing import Kit, kit

from .support import check_identity, check_log_styles, check_tags, check_view, tag_of

CORE_TYPES = (
    *CoreEvent.__args__,
    CombatantAdded,
    CombatantEdited,
    NoState,
    Applied,
    Undone,
    Redone,
)


def test_there_are_systems_to_check():
    assert registry.names(), "no system in rules/systems/"
    assert len(registry.all_systems()) == len(registry.names())


def test_it_is_a_rule_system_named_for_its_folder(name: str):
    check_identity(name)


def test_every_saved_type_has_a_tag_of_its_own_with_the_system_prefix(system: RuleSystem):
    check_tags(system)


def test_its_own_log_styles_are_new_and_readable(system: RuleSystem):
    check_log_styles(system)


def test_tags_are_unique_across_every_system_and_the_core():
    owner: dict[str, str] = {str(tag_of(kind)): "core" for kind in CORE_TYPES}
    for system in registry.all_systems():
        for tag, kind in check_tags(system).items():
            claimed = owner.setdefault(tag, f"{system.name}.{kind.__name__}")
            assert claimed == f"{system.name}.{kind.__name__}", f"{tag!r}: {claimed} and {kind}"


def test_actions_include_the_roll_each_once(system: RuleSystem, history):
    actions = system.actions(history.state)
    assert isinstance(actions, list) and all(isinstance(a, Action) for a in actions)
    ids = [a.id for a in actions]
    assert "roll" in ids, f"{system.name} has no 'roll' action (the r key)"
    assert len(set(ids)) == len(ids), f"repeated action ids: {ids}"
    assert all(a.id.strip() and a.title.strip() for a in actions)


def test_the_demo_is_a_fight_of_the_system_the_app_can_show(system: RuleSystem, history):
    state = history.state
    assert state.system == system.name
    assert state.combatants, "the demo has nobody in it"
    assert isinstance(state.system_state, system.state_type | NoState)
    check_view(system, state)


def test_a_new_encounter_can_be_shown(system: RuleSystem):
    state = initial_state(new_encounter("Empty", system.name))
    assert type(state.system_state) is system.state_type
    check_view(system, state)
    assert system.landing(state) is None
    assert system.last_odds(state) is None
    assert isinstance(system.actions(state), list)


@pytest.mark.parametrize("folder", ["CoinFlip", "coin_flip", "coin-flip"])
def test_a_folder_not_named_as_a_system_is_refused_in_one_line(
    folder: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    (tmp_path / folder).mkdir()
    (tmp_path / folder / "__init__.py").touch()
    package = importlib.import_module(registry.PACKAGE)
    monkeypatch.setattr(package, "__path__", [*package.__path__, str(tmp_path)])
    registry.names.cache_clear()
    try:
        assert folder in registry.names()
        with pytest.raises(TypeError, match="lowercase letters and digits") as refused:
            registry.get_system(folder)
        assert "\n" not in str(refused.value)
    finally:
        monkeypatch.undo()
        registry.names.cache_clear()
    with pytest.raises(Rejected, match="unknown rule system"):  # a save naming it: one line
        registry.get_system(folder)


def test_a_name_may_hold_digits():
    name = next(f"d{n}" for n in range(100, 1000) if f"d{n}" not in registry.names())
    assert registry.NAME.fullmatch(name)  # a good name (d20 is one)...
    with pytest.raises(Rejected, match=f"unknown rule system '{name}'"):  # ...with no folder
        registry.get_system(name)


def test_its_test_kit_if_any_is_a_kit(name: str):
    assert isinstance(kit(name), Kit)
