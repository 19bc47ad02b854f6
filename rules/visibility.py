"""What a role may see: one place that answers it, for every pane, the log, notifications,
the command palette, exports and remote seats.

A combatant is hidden while it is GM-only; every event that mentions a hidden combatant
(its rolls, its turns, its conditions) is hidden with it. Players and spectators see the
same thing: the encounter without hidden combatants, without a last roll that involved one,
and without the GM's notes on any combatant (the hidden stats).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec
from msgspec import Struct

from rules.encounter import CombatantAdded, CombatantEdited, Encounter, Event

Role = Literal["gm", "player", "spectator"]


class Viewer(Struct, frozen=True, kw_only=True):
    """Who is looking: a role, the player's name, and the combatants they act for."""

    role: Role = "gm"
    name: str = ""
    assigned: frozenset[str] = frozenset()

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


GM = Viewer()


def _ids_in(value: object, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and (
                key.endswith("_id") or (key == "id" and "sheet" in value)
            ):
                out.add(item)
            elif isinstance(item, list | tuple) and key.endswith("_ids"):
                out.update(i for i in item if isinstance(i, str))
            else:
                _ids_in(item, out)
    elif isinstance(value, list | tuple):  # msgspec.to_builtins keeps a tuple a tuple
        for item in value:
            _ids_in(item, out)


def mentions(event: object) -> set[str]:
    """The ids of every combatant an event (or command) names, however deep in it."""
    found: set[str] = set()
    _ids_in(msgspec.to_builtins(event), found)
    found.discard("")
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


class Sight(Struct, frozen=True):
    """What one role may see of an encounter: the filtered state, and a test for events."""

    state: Encounter
    hidden: frozenset[str]
    everything: bool

    def shows(self, event: Event) -> bool:
        return self.everything or not (mentions(event) & self.hidden)

    def pairs(self, pairs: Iterable[tuple[Event, Encounter]]) -> list[tuple[Event, Encounter]]:
        """The (event, state before it) pairs this role may see, each state filtered too."""
        if self.everything:
            return list(pairs)
        return [(scrub(e), strip(before, self.hidden)) for e, before in pairs if self.shows(e)]


def scrub(event: Event) -> Event:
    """An event without the GM's notes on the combatant it adds or edits."""
    if isinstance(event, CombatantAdded | CombatantEdited) and event.combatant.notes:
        combatant = msgspec.structs.replace(event.combatant, notes="")
        return msgspec.structs.replace(event, combatant=combatant)
    return event


def strip(state: Encounter, hidden: Iterable[str]) -> Encounter:
    """The encounter without hidden combatants, their last roll, or anyone's GM notes."""
    hidden = set(hidden) | {c.id for c in state.combatants if c.gm_only}
    combatants = tuple(
        c if not c.notes else msgspec.structs.replace(c, notes="")
        for c in state.combatants
        if c.id not in hidden
    )
    last_roll = state.last_roll
    if last_roll is not None and mentions(last_roll) & hidden:
        last_roll = None
    current = state.current_id if state.current_id not in hidden else None
    return state.update(combatants=combatants, last_roll=last_roll, current_id=current)


def sight(state: Encounter, viewer: Viewer, known: Iterable[str] = ()) -> Sight:
    """What ``viewer`` may see of ``state``. ``known``: ids hidden as last known (removed
    combatants included, see ``hidden_ids``), so their old rolls stay hidden."""
    if viewer.is_gm:
        return Sight(state, frozenset(), True)
    hidden = frozenset(known) | {c.id for c in state.combatants if c.gm_only}
    return Sight(strip(state, hidden), hidden, False)
