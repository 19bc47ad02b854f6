"""The dialogs part of the contract: the actions a system offers, their forms described as
data, and the commands their values make."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from msgspec import Struct

from rules.encounter import AnyCombatant, AnyEncounter
from rules.forms import Field


class Action(Struct, frozen=True):
    """A thing a system lets the user do, offered in the app's menu and command palette.

    Every system has the action "roll" (the ``r`` key). Others are the system's own: a grim
    test, a cede, spending a token...
    """

    id: str
    title: str
    description: str = ""


class _Fighting(Protocol):  # what the default actor reads of the standing part
    def out_of_fight(self, state: AnyEncounter, combatant: AnyCombatant) -> str: ...


class Dialogs(ABC):
    """The actions and their dialogs; ``actions``, ``action_form`` and ``action_command``
    every system writes."""

    # The actions whose roll becomes the new last roll: the app asks about a consequence
    # still waiting before it opens one of them (see ``pending``).
    roll_actions: ClassVar[tuple[str, ...]] = ("roll",)
    # The action the ``L`` key opens: the GM's choice on the last roll (Generic d20's
    # Legendary Resistance turns a failed save into a success); "": none.
    overrule_action: ClassVar[str] = ""

    @abstractmethod
    def actions(self, state: AnyEncounter) -> list[Action]: ...

    @abstractmethod
    def action_form(self, state: AnyEncounter, action: str, selected: str | None) -> list[Field]:
        """The fields of an action's dialog; ``selected`` is the highlighted combatant."""

    @abstractmethod
    def action_command(
        self, state: AnyEncounter, action: str, values: Mapping[str, str]
    ) -> Any: ...

    def refilled(
        self, state: AnyEncounter, action: str, values: Mapping[str, str], changed: str
    ) -> list[Field] | None:
        """The dialog's fields again once its choice ``changed`` is ``values[changed]``, for
        the defaults that follow it (an attacker's own attacks, what it spends), the same keys
        in the same order; None when none follow it (the default). A dialog puts the new
        defaults in the fields left at the old ones, and the ``:`` line in those not typed."""
        return None

    def preview(self, state: AnyEncounter, action: str, values: Mapping[str, str]) -> str:
        """A line shown live under the dialog as the user types ("" for none)."""
        return ""

    def default_actor(
        self: _Fighting, state: AnyEncounter, selected: str | None
    ) -> AnyCombatant | None:
        """Whom a dialog proposes as acting (its first field's default): by default whoever's
        turn it is, else the highlighted combatant (``selected``), else the first still in
        the fight; None when there is nobody."""
        found = state.current or state.find(selected)
        if found is not None:
            return found
        return next((c for c in state.combatants if not self.out_of_fight(state, c)), None)
