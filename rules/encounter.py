"""The encounter: combatants in turn order, the round, and the last roll.

State is never edited in place: ``rules.engine.apply`` folds events into a new value.

The core knows no rule system: a combatant's sheet, the last roll and the system's own state
are type parameters (``S``, ``R``, ``X``), and ``rules.snapshot`` decodes a save with the
types of the system its header names.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Self, TypeAlias, TypeVar

from msgspec import Meta, Struct, structs

from rules.bounds import COMBATANTS, SAVED_CONDITIONS
from rules.conditions import Condition, Duration, Expiry
from rules.errors import Rejected
from rules.events import CoreEvent, Name
from rules.table_options import TableOptions

S = TypeVar("S")  # a system's sheet
# A combatant is never changed in place, so a ``Combatant[HeroSheet]`` is also a
# ``Combatant[HeroSheet | ChallengeSheet]``: a system with two kinds of sheet passes one on
# as either.
S_co = TypeVar("S_co", covariant=True)
R = TypeVar("R")  # a system's roll events, one of which is the last roll
X = TypeVar("X")  # a system's per-encounter state
E = TypeVar("E")  # a system's own events

# Each combatant's place in a turn order by its id, for the last few turn orders asked about
# (keyed by the tuple's identity, which the entry keeps alive, so no other tuple can take its
# id): an encounter's combatants are an immutable tuple shared by every value that did not
# change them, so a fight's every move finds anyone at once, not by a walk through all of
# them (issue 45: a forecast of 40). Cleared whole when full: a dict cleared is never seen
# half-changed by another thread, and building one again is a loop over a turn order.
Places: TypeAlias = dict[str | None, int]
_PLACES: dict[int, tuple[tuple[Any, ...], Places]] = {}
KEPT_ORDERS = 8
# The last of them, looked at first: a move asks about one turn order many times. One value,
# replaced whole, so a thread reads an old pair or a new one, never half of each.
_LAST: tuple[tuple[Any, ...], Places] = ((), {})


def places(combatants: tuple[Combatant[Any], ...]) -> Places:
    """Each combatant's place by its id (the first, should a save hold an id twice)."""
    global _LAST
    found = _PLACES.get(id(combatants))
    if found is not None and found[0] is combatants:
        _LAST = found
        return found[1]
    known: Places = {}
    for index, combatant in enumerate(combatants):
        known.setdefault(combatant.id, index)
    _remember(combatants, known)
    return known


def _remember(combatants: tuple[Combatant[Any], ...], known: Places) -> None:
    global _LAST
    if len(_PLACES) >= KEPT_ORDERS:
        _PLACES.clear()
    _LAST = _PLACES[id(combatants)] = (combatants, known)


class NoState(Struct, frozen=True, tag="none"):
    """The per-encounter state of a system that keeps none of its own."""


class Combatant(Struct, Generic[S_co], frozen=True, kw_only=True):
    id: str
    name: Name
    side: str = "foes"
    gm_only: bool = False
    notes: str = ""
    # A save holding more is refused as it is decoded (rules.bounds says why the number).
    conditions: Annotated[tuple[Condition, ...], Meta(max_length=SAVED_CONDITIONS)] = ()
    policy: str = ""  # how the tracker plays it on a solo side; "" is the system's default
    initiative: int | None = None  # None: none rolled or set yet
    group: str = ""  # the id of the first of a group added together ("" alone): one roll
    delaying: bool = False  # out of the turn order until it acts (``:delay``, ``:act``)
    ready: Name = ""  # the trigger of a reaction it holds (``:ready``); "" for none
    # Only in a seat's view: its hit points' band or "hidden" (rules.hp_view); "" exact.
    hp_shown: str = ""
    sheet: S_co

    def condition(self, name: str) -> Condition | None:
        if not self.conditions:
            return None  # most combatants, most of the time: asked often (a forecast's runs)
        wanted = name.casefold()
        for condition in self.conditions:
            if condition.name.casefold() == wanted:
                return condition
        return None


class Encounter(Struct, Generic[S, R, X], frozen=True, kw_only=True):
    name: Name
    system: str
    round: int = 1
    # In turn order; a save holding more is refused as it is decoded (rules.bounds: why).
    combatants: Annotated[tuple[Combatant[S], ...], Meta(max_length=COMBATANTS)] = ()
    current_id: str | None = None
    next_number: int = 1  # for the next combatant id
    last_roll: R | None = None
    last_roll_applied: bool = False
    last_roll_discarded: bool = False  # settled by a ``ConsequenceDiscarded``, not applied
    # The system's own tokens, pots...: its ``new_state()`` from the start (NoState for a
    # system that keeps none), so the default only fills saves that predate the field.
    system_state: X = NoState()  # type: ignore[assignment]  # NoState stands for any X here
    # The sides the tracker plays by itself: each is some combatant's side.
    solo_sides: Annotated[tuple[str, ...], Meta(max_length=COMBATANTS)] = ()
    options: TableOptions = TableOptions()  # the GM's table options (rules.table_options)

    def is_solo(self, combatant: Combatant[Any]) -> bool:
        """Whether the tracker makes this combatant's choices."""
        return combatant.side in self.solo_sides

    @property
    def current(self) -> Combatant[S] | None:
        return self.find(self.current_id) if self.current_id else None

    def find(self, combatant_id: str | None) -> Combatant[S] | None:
        # The last turn order asked about without a call (nearly always): many times a move.
        combatants = self.combatants
        last = _LAST
        known = last[1] if last[0] is combatants else places(combatants)
        index = known.get(combatant_id)
        return None if index is None else combatants[index]

    def combatant(self, combatant_id: str) -> Combatant[S]:
        found = self.find(combatant_id)
        if found is None:
            raise Rejected(f"no combatant with id {combatant_id!r}")
        return found

    def name_of(self, combatant_id: str | None, fallback: str = "?") -> str:
        found = self.find(combatant_id)
        return found.name if found else fallback

    def index_of(self, combatant_id: str | None) -> int:
        combatants = self.combatants  # as ``find``
        last = _LAST
        known = last[1] if last[0] is combatants else places(combatants)
        return known.get(combatant_id, -1)

    def update(self, **changes: object) -> Self:
        return structs.replace(self, **changes)

    def replace_combatant(self, combatant: Combatant[S]) -> Self:
        """The encounter with ``combatant`` in the place of the one with its id (in each
        such place, should a save hold an id twice; in none when nobody has it). The new turn
        order holds the same ids in the same places: it is known at once."""
        combatants = self.combatants
        known = places(combatants)
        index = known.get(combatant.id)
        if index is not None and len(known) == len(combatants):  # each id once: one place
            filled = list(combatants)
            filled[index] = combatant
            changed = tuple(filled)
        else:
            changed = tuple([combatant if c.id == combatant.id else c for c in combatants])
        _remember(changed, known)
        return self.update(combatants=changed)

    def expiry_for(self, combatant_id: str, duration: Duration) -> Expiry | None:
        """Turn a duration chosen now into the point where it ends."""
        match duration.kind:
            case "until-removed":
                return None
            case "end-of-round":
                return Expiry(self.round)
            case "rounds":
                return Expiry(self.round + max(duration.rounds, 1) - 1)
            case "end-of-next-turn":
                # The bearer's next turn is in this round if it is still to come, otherwise
                # in the next one (its own current turn does not count as "next").
                ahead = self.index_of(combatant_id) > self.index_of(self.current_id)
                return Expiry(self.round if ahead else self.round + 1, combatant_id)


class CombatantAdded(Struct, Generic[S], frozen=True, tag="combatant-added"):
    combatant: Combatant[S]
    index: int | None = None  # None appends to the turn order


class CombatantEdited(Struct, Generic[S], frozen=True, tag="combatant-edited"):
    """The combatant as it is after the edit (its conditions included)."""

    combatant: Combatant[S]


Event: TypeAlias = CoreEvent | CombatantAdded[Any] | CombatantEdited[Any] | Struct
"""Any event in memory: a core event, or one of a system's (``rules.snapshot`` decodes the
exact union of the system a save is for)."""


# What code that serves every system holds (the core, the app): each system's own modules
# annotate with the system's alias (``Encounter[<its sheet>, <its roll events>, <its state>]``,
# in its ``events.py``), so only these read a sheet or a state as ``Any``.
AnyEncounter: TypeAlias = Encounter[Any, Any, Any]
AnyCombatant: TypeAlias = Combatant[Any]
