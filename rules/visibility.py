"""What players may see: one place that answers it, for exports and (later) remote seats.

A combatant is hidden while it is GM-only; every event that mentions a hidden combatant
(its rolls, its turns, its conditions) is hidden with it.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from rules.encounter import CombatantAdded, CombatantEdited, Encounter, Event


def _ids_in(value: object, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (
                key.endswith("_id") or (key == "id" and "sheet" in value)
            ):
                out.add(item)
            else:
                _ids_in(item, out)
    elif isinstance(value, list):
        for item in value:
            _ids_in(item, out)


def mentions(event: Event) -> set[str]:
    """The ids of every combatant an event names, however deep in the event."""
    found: set[str] = set()
    _ids_in(msgspec.to_builtins(event), found)
    return found


def hidden_ids(events: Iterable[Event], state: Encounter) -> set[str]:
    """Combatants GM-only as last known: those in the encounter now, and those removed."""
    last: dict[str, bool] = {}
    for event in events:
        if isinstance(event, CombatantAdded | CombatantEdited):
            last[event.combatant.id] = event.combatant.gm_only
    for combatant in state.combatants:
        last[combatant.id] = combatant.gm_only
    return {cid for cid, hidden in last.items() if hidden}


def visible(event: Event, hidden: set[str]) -> bool:
    return not (mentions(event) & hidden)
