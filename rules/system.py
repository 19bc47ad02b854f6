"""The contract every rule system implements, and the values it shares with the app.

A rule system is one package, ``rules/systems/<name>/``, whose ``system`` module holds
``SYSTEM``, an instance of a ``RuleSystem`` subclass (see ``docs/adding-a-system.md``).
Abstract methods are what every system must say; every other hook has a default here, so
callers never probe a system for what it offers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from msgspec import Struct

from rules.dice import DiceSource
from rules.encounter import Combatant, Encounter, NoState
from rules.forms import Field
from rules.logline import LogEntry
from rules.odds import Odds


class Tier(Struct, frozen=True):
    """A band of results; ``low``/``high`` are inclusive bounds, None for an open end."""

    label: str
    low: int | None
    high: int | None
    effect: str

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


class Landing(Struct, frozen=True):
    """Where the last roll fell among the tiers."""

    tier: int
    value: int
    summary: str


class Action(Struct, frozen=True):
    """A thing a system lets the user do, offered in the app's menu and command palette.

    Every system has the action "roll" (the ``r`` key). Others are the system's own: a grim
    test, a cede, spending a token...
    """

    id: str
    title: str
    description: str = ""


class Policy(Struct, frozen=True):
    """One way the tracker can play a combatant in solo play (e.g. "take-zero", "aggressive")."""

    id: str
    title: str
    description: str = ""


def policy_among(policies: tuple[Policy, ...], combatant: Combatant[Any]) -> str:
    """The policy ``combatant`` is played by: its own if ``policies`` has it, else the first."""
    if combatant.policy and any(p.id == combatant.policy for p in policies):
        return combatant.policy
    return policies[0].id if policies else ""


class Move(Struct, frozen=True):
    """A choice the tracker makes for ``actor_id`` in solo play: a command, and why."""

    actor_id: str
    command: Any
    reason: str


class RuleSystem(ABC):
    """A resolution system.

    Sheets, commands, events and the system's state are its own msgspec Structs; each
    event, sheet and state type has an explicit tag starting with the system's name (tags
    are the save format: never rename one). The registry finds the system by its folder.
    """

    # --- what the system is (class attributes every system sets) -----------------------------

    name: ClassVar[str]  # the folder's name, and the ``system`` field of its saves
    title: ClassVar[str]
    sheet_types: ClassVar[tuple[type[Struct], ...]]  # the first is a new combatant's default
    event_types: ClassVar[tuple[type[Struct], ...]]
    command_types: ClassVar[tuple[type[Struct], ...]]
    roll_event_types: ClassVar[tuple[type[Struct], ...]]  # events that become the last roll
    stat_columns: ClassVar[tuple[str, ...]]
    uses_turn_order: ClassVar[bool]  # False: every side acts each round; "next" ends it

    # Optional attributes.
    state_type: ClassVar[type[Struct]] = NoState  # per-encounter state (tokens, pots...)
    has_odds: ClassVar[bool] = False  # True: ``odds`` answers the roll dialog exactly
    solo_policies: ClassVar[tuple[Policy, ...]] = ()  # solo play; the first is the default
    # What only the GM does when seats are served (the GM's tokens, every side at once...):
    # commands refused to players, and action ids not offered to them.
    gm_commands: ClassVar[tuple[type[Struct], ...]] = ()
    gm_actions: ClassVar[frozenset[str]] = frozenset()

    REQUIRED: ClassVar[tuple[str, ...]] = (
        "name",
        "title",
        "sheet_types",
        "event_types",
        "command_types",
        "roll_event_types",
        "stat_columns",
        "uses_turn_order",
    )

    def missing(self) -> list[str]:
        """The class attributes of ``REQUIRED`` this system has not set (the registry checks)."""
        return [attr for attr in self.REQUIRED if not hasattr(self, attr)]

    def new_state(self) -> Struct:
        return NoState()

    # --- sheets ----------------------------------------------------------------------------

    @abstractmethod
    def new_sheet(self) -> Any: ...

    @abstractmethod
    def sheet_form(self, sheet: Any) -> list[Field]: ...

    @abstractmethod
    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any: ...

    @abstractmethod
    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    def fit_sheet(self, state: Encounter, sheet: Any) -> Any:
        """A sheet being added or edited, completed from the encounter (Beer Run files an
        ability typed without a category); ``Rejected`` when it cannot be. Default: as is."""
        return sheet

    # --- actions: forms described as data, turned into commands ------------------------------

    @abstractmethod
    def actions(self, state: Encounter) -> list[Action]: ...

    @abstractmethod
    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        """The fields of an action's dialog; ``selected`` is the highlighted combatant."""

    @abstractmethod
    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> Any: ...

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        """A line shown live under the dialog as the user types ("" for none)."""
        return ""

    @abstractmethod
    def consequence_command(self, state: Encounter) -> Any:
        """The command that applies the last roll's result (the ``d`` key)."""

    # --- rules -----------------------------------------------------------------------------

    @abstractmethod
    def decide(self, state: Encounter, command: Any, dice: DiceSource) -> list[Any]: ...

    @abstractmethod
    def apply(self, state: Encounter, event: Any) -> Encounter: ...

    # --- what the app shows -------------------------------------------------------------------

    @abstractmethod
    def tiers(self, state: Encounter) -> list[Tier]: ...

    @abstractmethod
    def landing(self, state: Encounter) -> Landing | None: ...

    @abstractmethod
    def describe(self, state: Encounter, event: Any) -> LogEntry: ...

    def alerts(self, state: Encounter, event: Any) -> list[str]:
        """Messages worth a notification for an event, e.g. an Eclipse."""
        return []

    def status(self, state: Encounter) -> str:
        """Extra text for the header, e.g. token counts ("" for none)."""
        return ""

    def cannot_act(self, state: Encounter, combatant: Combatant[Any]) -> str:
        """Why a combatant cannot act now ("" if it can): the turn order marks it with ✗."""
        return ""

    def badges(self, state: Encounter, combatant: Combatant[Any]) -> tuple[str, ...]:
        """Short labels for what the sheet does to a combatant now, after its conditions."""
        return ()

    # --- exact odds (``has_odds``) -----------------------------------------------------------

    def odds(self, state: Encounter, action: str, values: Mapping[str, str]) -> Odds | None:
        """The exact chance of each tier for the roll a dialog describes now, or None."""
        return None

    def last_odds(self, state: Encounter) -> Odds | None:
        """The chances the last roll had, or None."""
        return None

    # --- solo play (see ``rules.solo``) -----------------------------------------------------

    def solo_move(self, state: Encounter) -> Move | None:
        """The next choice a combatant of a solo side must make now, or None."""
        return None

    def solo_fill(
        self, state: Encounter, action: str, values: dict[str, str]
    ) -> tuple[dict[str, str], list[Move]]:
        """A user's dialog values with the solo combatants' fields chosen by their policies,
        and a Move (its command None) per choice, whose reason is logged."""
        return dict(values), []
