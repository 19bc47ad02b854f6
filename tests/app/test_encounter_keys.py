"""The encounter screen is built from its areas of keys: each key in one area, beside its
action, and what a role is offered named there."""

from __future__ import annotations

from textual.binding import Binding

from tracker.screens.encounter_keys.roles import AREAS, PLAYER_ACTIONS, SPECTATOR_ACTIONS
from tracker.screens.encounter_screen import EncounterScreen


def test_the_screen_is_every_area_in_the_order_its_keys_are_listed() -> None:
    assert EncounterScreen.__bases__[: len(AREAS)] == AREAS
    assert [b for area in AREAS for b in area.KEYS] == EncounterScreen.BINDINGS


def test_each_key_is_bound_once_and_runs_an_action_of_its_own_area() -> None:
    keys = [key for area in AREAS for b in area.KEYS for key in b.key.split(",")]
    assert len(keys) == len(set(keys))
    for area in AREAS:
        for binding in area.KEYS:
            assert isinstance(binding, Binding) and binding.description
            name = binding.action.partition("(")[0]
            assert f"action_{name}" in vars(area), (area.__name__, name)


def test_what_a_role_is_offered_is_declared_beside_its_action() -> None:
    assert SPECTATOR_ACTIONS <= PLAYER_ACTIONS
    for area in AREAS:
        own = {name.removeprefix("action_") for name in vars(area) if name.startswith("action_")}
        assert own >= area.PLAYERS | area.SPECTATORS, area.__name__
        assert set(area.OPENS) <= own, area.__name__
