"""The interface every rule system implements, and the values it shares with the app."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from msgspec import Struct

from rules.dice import DiceSource
from rules.forms import Field
from rules.logline import LogEntry

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter


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


def policy_among(policies: tuple[Policy, ...], combatant: Combatant) -> str:
    """The policy ``combatant`` is played by: its own if ``policies`` has it, else the first."""
    if combatant.policy and any(p.id == combatant.policy for p in policies):
        return combatant.policy
    return policies[0].id if policies else ""


class Move(Struct, frozen=True):
    """A choice the tracker makes for ``actor_id`` in solo play: a command, and why."""

    actor_id: str
    command: Any
    reason: str


class NoState(Struct, frozen=True, tag="none"):
    """The per-encounter state of a system that keeps none of its own."""


class RuleSystem(Protocol):
    """A resolution system: one module in ``rules/systems/`` with a ``SYSTEM`` object.

    Sheets, commands, events and the system's state are its own msgspec Structs; each
    event, sheet and state type has an explicit tag starting with the system's name.
    List the module in ``rules.registry.MODULES``; the app needs no change.
    """

    name: str
    title: str
    sheet_types: tuple[type[Struct], ...]  # the first is the default for a new combatant
    event_types: tuple[type[Struct], ...]
    command_types: tuple[type[Struct], ...]
    roll_event_types: tuple[type[Struct], ...]  # events that become ``Encounter.last_roll``
    state_type: type[Struct]  # per-encounter state (tokens, pots...); NoState for none
    stat_columns: tuple[str, ...]
    uses_turn_order: bool  # False: every side acts each round, and "next" ends the round

    def new_state(self) -> Any: ...

    # sheets

    def new_sheet(self) -> Any: ...

    def sheet_form(self, sheet: Any) -> list[Field]: ...

    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any: ...

    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    # actions: forms described as data, turned into commands

    def actions(self, state: Encounter) -> list[Action]: ...

    def action_form(self, state: Encounter, action: str, selected: str | None) -> list[Field]:
        """The fields of an action's dialog; ``selected`` is the highlighted combatant."""
        ...

    def action_command(self, state: Encounter, action: str, values: Mapping[str, str]) -> Any: ...

    def preview(self, state: Encounter, action: str, values: Mapping[str, str]) -> str:
        """A line shown live under the dialog as the user types ("" for none)."""
        ...

    def consequence_command(self, state: Encounter) -> Any:
        """The command that applies the last roll's result (the ``d`` key)."""
        ...

    # rules

    def decide(self, state: Encounter, command: Any, dice: DiceSource) -> list[Any]: ...

    def apply(self, state: Encounter, event: Any) -> Encounter: ...

    # what the app shows

    def tiers(self, state: Encounter) -> list[Tier]: ...

    def landing(self, state: Encounter) -> Landing | None: ...

    def describe(self, state: Encounter, event: Any) -> LogEntry: ...

    def alerts(self, state: Encounter, event: Any) -> list[str]:
        """Messages worth a notification for an event, e.g. an Eclipse."""
        ...

    def status(self, state: Encounter) -> str:
        """Extra text for the header, e.g. token counts ("" for none)."""
        ...

    # Optional: ``cannot_act(state, combatant) -> str`` says why a combatant cannot act
    # ("" if it can); the combatants pane flags such a combatant with ✗ in the turn order.
    # Optional: ``odds(state, action, values) -> rules.odds.model.Odds | None``: the exact
    # chance of each tier for the roll the dialog describes now (shown live while typing), and
    # ``last_odds(state) -> Odds | None``: the chances the last roll had (the pane says which
    # tier it landed in and how likely that was).
    # Optional, for solo play (see rules/solo.py): ``solo_policies: tuple[Policy, ...]`` (the
    # first is the default), ``solo_move(state) -> Move | None``: the next choice a combatant
    # of a solo side must make now, or None; and ``solo_fill(state, action, values) ->
    # tuple[dict[str, str], list[Move]]``: a user's dialog values with the fields that belong
    # to solo combatants (a defender's defence, take zero/ten...) chosen by their policies,
    # plus a Move (command None) per choice, whose reason is logged.
    # Optional: ``badges(state, combatant) -> tuple[str, ...]``: short labels for what the
    # sheet does to a combatant now (e.g. "Dex -5 roll DR 0"), shown after its conditions.
