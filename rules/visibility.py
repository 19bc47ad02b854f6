"""What a role may see: one place that answers it, for every pane, the log, notifications,
the command palette, exports and remote seats.

A combatant is hidden while it is GM-only. Players and spectators see the same thing: the
encounter without hidden combatants and without the GM's notes on any combatant (the hidden
stats). Hidden means hidden: an event that names a hidden combatant (its rolls, its turns,
its conditions) is left out, or shown as the rule system conceals it (``RuleSystem.conceal``):
the GM's hidden dice (``:roll 1d20 hidden``) are left out too;
the wounds a hidden attacker's roll left on a combatant players see are shown, without its
margin, dice or name. Public stays public: a new round and the turn of a combatant players
see are shown whoever acted before. The Consequences pane keeps the last roll players saw.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import compress
from operator import attrgetter
from typing import Any, Literal

import msgspec
from msgspec import Struct

from rules import hp_view
from rules.encounter import AnyEncounter, CombatantAdded, CombatantEdited, Event
from rules.events import OrderSorted, TrackChanged, TurnAdvanced
from rules.mentions import mentioned
from rules.plain_dice import DiceRolled
from rules.registry import get_system
from rules.remembered import ByIdentity, EachOf

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


def hidden_ids(events: Iterable[Event], state: AnyEncounter) -> set[str]:
    """Combatants GM-only as last known: those in the encounter now, and those removed."""
    last: dict[str, bool] = {}
    for event in events:
        if isinstance(event, CombatantAdded | CombatantEdited):
            last[event.combatant.id] = event.combatant.gm_only
    for combatant in state.combatants:
        last[combatant.id] = combatant.gm_only
    return {cid for cid, hidden in last.items() if hidden}


Pairs = list[tuple[Event, AnyEncounter]]


class Sight(Struct, frozen=True):
    """What one role may see of an encounter: the filtered state, and its view of events."""

    state: AnyEncounter
    hidden: frozenset[str]
    everything: bool

    def pairs(
        self,
        pairs: Iterable[tuple[Event, AnyEncounter]],
        after: AnyEncounter,
        seen: AnyEncounter | None = None,
    ) -> Pairs:
        """The (event, state before it) pairs this role may see, each event as it may see
        it and each state filtered too. ``after``: the state after the last pair; ``seen``:
        what this role saw before the first (the last roll it saw carries on)."""
        if self.everything:
            return list(pairs)
        return follow(pairs, after, self.hidden, seen)[0]


def follow(
    pairs: Iterable[tuple[Event, AnyEncounter]],
    after: AnyEncounter,
    hidden: frozenset[str],
    seen: AnyEncounter | None = None,
) -> tuple[Pairs, AnyEncounter]:
    """Pairs as seen without the ``hidden`` combatants (see ``Sight.pairs``), and the state
    seen after them. A side whose hit points ``after`` does not show exactly has them veiled
    in every state of the pairs too (``rules.hp_view.mode_of``)."""
    listed = list(pairs)
    afters = [before for _, before in listed[1:]] + [after]
    # Hit points shown as a band or hidden now are so in every line before (rules.hp_view).
    now = after.options.hp_views
    out: Pairs = []
    for (event, before), next_state in zip(listed, afters, strict=True):
        seen = strip(before, hidden, seen, now)
        shown = conceal(before, event, next_state, hidden, now)
        if shown is not None:
            out.append((shown, seen))
    return out, strip(after, hidden, seen)


def _roll_hidden(state: AnyEncounter, hidden: frozenset[str]) -> bool:
    return state.last_roll is not None and bool(mentioned(state.last_roll, hidden))


def _roll_of(state: AnyEncounter) -> tuple[object, bool, bool]:
    return state.last_roll, state.last_roll_applied, state.last_roll_discarded


def conceal(
    before: AnyEncounter,
    event: Event,
    after: AnyEncounter,
    hidden: frozenset[str],
    now: hp_view.Views = (),
) -> Event | None:
    """An event as seen without the ``hidden`` combatants: itself, a copy without what only
    a hidden combatant's roll could tell, or None. ``after``: the state it led to; ``now``:
    the hit points shown otherwise than exactly now (``rules.hp_view.mode_of``)."""
    if isinstance(event, TurnAdvanced):
        return _turn(before, event, hidden)
    if isinstance(event, OrderSorted):  # the order of those they see is theirs to see
        current = None if event.current_id in hidden else event.current_id
        return OrderSorted(tuple(c for c in event.order_ids if c not in hidden), current)
    if isinstance(event, DiceRolled) and event.hidden:
        return None  # the GM's secret roll
    if (
        isinstance(event, TrackChanged)
        and hp_view.mode_of(before, _side(before, event), now) != "exact"
    ):
        return None  # a track changed by hand says the numbers the seat may not see
    if _reason_names_hidden(event, before, hidden):
        return None  # words written with a hidden one's name: a move's reason, a goal's
    named = mentioned(event, hidden)
    # An event that settles or changes a hidden roll (its consequence, a re-roll, suckage)
    # comes of it even when it names nobody hidden: its numbers are that roll's.
    of_hidden_roll = (
        _roll_hidden(before, hidden)
        and _roll_hidden(after, hidden)
        and _roll_of(before) != _roll_of(after)
    )
    if not named and not of_hidden_roll:
        return _veiled(after, scrub(event), now)
    system = get_system(before.system)
    if not isinstance(event, system.event_types):
        return None  # a core event naming one: a condition, a note, a discarded result
    shown = system.conceal(before, event, hidden)
    return None if shown is None or mentioned(shown, hidden) else scrub(shown)


def _veiled(state: AnyEncounter, event: Event, now: hp_view.Views = ()) -> Event:
    """A combatant added or edited, its hit points as its side's are shown (``:hp``)."""
    if not isinstance(event, CombatantAdded | CombatantEdited):
        return event
    if not state.options.hp_views and not now:
        return event
    shown = hp_view.veiled(get_system(state.system), state, event.combatant, now)
    return event if shown is event.combatant else msgspec.structs.replace(event, combatant=shown)


def _side(state: AnyEncounter, event: TrackChanged) -> str:
    found = state.find(event.combatant_id)
    return found.side if found is not None else ""


def _reason_names_hidden(event: Event, state: AnyEncounter, hidden: frozenset[str]) -> bool:
    """Whether an event's ``reason``, words made with the names of the time (the tracker's
    reason for a move, Beer Run's for a goal gained in a save from before ``about_id``),
    names a hidden combatant: no id field says so."""
    reason = getattr(event, "reason", None)
    return isinstance(reason, str) and _names_hidden(reason, state, hidden)


def _names_hidden(text: str, state: AnyEncounter, hidden: frozenset[str]) -> bool:
    """Whether free text names a hidden combatant ("Goblin", not "Goblin 2": another one)."""
    return any(
        re.search(rf"(?<!\w){re.escape(c.name)}(?!\w| [0-9])", text)
        for c in state.combatants
        if c.id in hidden
    )


def _turn(before: AnyEncounter, event: TurnAdvanced, hidden: frozenset[str]) -> TurnAdvanced | None:
    """A new round and a visible combatant's turn are public, whoever acted before."""
    actor = None if event.actor_id in hidden else event.actor_id
    if actor is None and event.round == before.round:
        return None  # a hidden combatant's turn in the same round: nothing to see
    previous = None if event.previous_id in hidden else event.previous_id
    if (actor, previous) == (event.actor_id, event.previous_id):
        return event
    return TurnAdvanced(round=event.round, actor_id=actor, previous_id=previous)


def scrub(event: Event) -> Event:
    """An event without the GM's notes on the combatant it adds or edits."""
    if isinstance(event, CombatantAdded | CombatantEdited) and event.combatant.notes:
        combatant = msgspec.structs.replace(event.combatant, notes="")
        return msgspec.structs.replace(event, combatant=combatant)
    return event


def strip(
    state: AnyEncounter,
    hidden: Iterable[str],
    seen: AnyEncounter | None = None,
    now: hp_view.Views = (),
) -> AnyEncounter:
    """The encounter without hidden combatants, what names them, or anyone's GM notes
    (``now``: hit points shown otherwise than exactly now, veiled in this state too).

    A last roll that names a hidden combatant is shown as the system conceals it, else the
    last roll seen before (``seen``: the state seen then) stays in its place; what waited on
    it is set aside, as a new roll left it behind."""
    given = frozenset(hidden)
    hidden, combatants = _STRIPPED.get(
        state.combatants, given, lambda: _stripped(state.combatants, given)
    )
    shown = _roll_shown(state, hidden)
    if shown is None:
        shown = _roll_of(seen) if seen is not None else (None, False, False)
        if seen is not None and not shown[1] and get_system(state.system).pending(seen):
            shown = (shown[0], True, True)  # what waited on it will not be applied now
    roll, applied, discarded = shown
    current = state.current_id if state.current_id not in hidden else None
    stripped = state.update(
        combatants=combatants,
        last_roll=roll,
        last_roll_applied=applied,
        last_roll_discarded=discarded,
        current_id=current,
    )
    # Last: hit points shown as a band or hidden (the GM's ``:hp``) lose their number here.
    return hp_view.veil(get_system(state.system).conceal_state(stripped, hidden), now)


def seen_alone(state: AnyEncounter, hidden: frozenset[str]) -> bool:
    """Whether players see ``state`` the same whatever they saw before it: its last roll
    is one they may see, as it is or concealed (else only the states before it say which
    roll they saw last: ``seen_after``)."""
    every, _ = _STRIPPED.get(state.combatants, hidden, lambda: _stripped(state.combatants, hidden))
    return _roll_shown(state, every) is not None


def seen_after(
    pairs: Iterable[tuple[Event, AnyEncounter]], after: AnyEncounter, hidden: frozenset[str]
) -> AnyEncounter:
    """The state players see after ``pairs`` (``follow``'s, without its events): from
    pairs that begin with a state ``seen_alone``, the same as from the whole fight's."""
    seen = None
    for _, before in pairs:
        seen = strip(before, hidden, seen)
    return strip(after, hidden, seen)


def _roll_shown(state: AnyEncounter, hidden: frozenset[str]) -> tuple[object, bool, bool] | None:
    """The last roll as players may see it, with whether it was applied or discarded; None
    where they may not see it at all (then the last one they saw stays in its place)."""
    roll = state.last_roll
    if roll is None or not mentioned(roll, hidden):
        return _roll_of(state)
    concealed = get_system(state.system).conceal(state, roll, hidden)
    if concealed is None or mentioned(concealed, hidden):
        return None
    return concealed, state.last_roll_applied, state.last_roll_discarded


# Consecutive states share their combatants until an event changes one: stripped once, and
# a changed tuple only where it changed.
_STRIPPED: ByIdentity[tuple[frozenset[str], tuple[Any, ...]]] = ByIdentity()
_SHOWN: EachOf[Any] = EachOf()


def _stripped(
    combatants: tuple[Any, ...], hidden: frozenset[str]
) -> tuple[frozenset[str], tuple[Any, ...]]:
    """The ids hidden (those given and every GM-only one), and the combatants players see."""

    def shown(c: Any) -> Any:
        if c.id in hidden or c.gm_only:
            return None
        return c if not c.notes else msgspec.structs.replace(c, notes="")

    gm_only = compress(combatants, map(attrgetter("gm_only"), combatants))
    every = hidden.union(map(attrgetter("id"), gm_only))
    return every, tuple(filter(None, _SHOWN.map(combatants, hidden, shown)))


def sight(
    state: AnyEncounter, viewer: Viewer, known: Iterable[str] = (), seen: AnyEncounter | None = None
) -> Sight:
    """What ``viewer`` may see of ``state``. ``known``: ids hidden as last known (removed
    combatants included, see ``hidden_ids``), so their old rolls stay hidden; ``seen``: the
    state the viewer saw before, whose last roll carries on (see ``strip``)."""
    if viewer.is_gm:
        return Sight(state, frozenset(), True)
    hidden = frozenset(known) | {c.id for c in state.combatants if c.gm_only}
    return Sight(strip(state, hidden, seen), hidden, False)
