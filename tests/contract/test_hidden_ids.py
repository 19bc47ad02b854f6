"""Every combatant id a system writes sits where ``rules.mentions`` finds it (a field named
``*_id`` or ``*_ids``): a seat hides what names a GM-only combatant by those names, so an id
under any other name (``target``, ``source``) would reach the players."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.encounter import Encounter
from rules.mentions import mentions

from .support import Rolled


def strings(value: Any) -> set[str]:
    """Every string in ``value``, however deep: values and keys."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(k) | strings(v) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(*(strings(item) for item in value))
    return set()


def unfound(state: Encounter, values: list[object]) -> list[tuple[str, set[str]]]:
    """Each value naming a combatant's id where ``mentions`` does not see it, with the ids."""
    ids = {c.id for c in state.combatants}
    out = []
    for value in values:
        missed = (strings(msgspec.to_builtins(value)) & ids) - mentions(value)
        if missed:
            out.append((type(value).__name__, missed))
    return out


def test_every_id_in_the_demos_events_and_state_is_found(rolled: Rolled) -> None:
    state = rolled.after
    events = [event for event, _ in rolled.history.in_effect()]
    written = [*events, state.last_roll, state.system_state]
    missed = unfound(state, [v for v in written if v is not None])
    assert missed == [], "name each field that holds a combatant's id *_id (several: *_ids)"


def test_the_check_sees_an_id_under_another_name(rolled: Rolled) -> None:
    state = rolled.after
    someone = state.combatants[0].id

    class Shot(msgspec.Struct):
        target: str

    assert unfound(state, [Shot(target=someone)]) == [("Shot", {someone})]
