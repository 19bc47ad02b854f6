"""The consequences part of the contract: what the last roll leaves to apply, the ``d`` key
that applies it, and setting it aside."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Protocol

from rules.dice import ANY_FACE, DiceSource
from rules.encounter import AnyEncounter
from rules.errors import Rejected


class _Deciding(Protocol):  # what the default ``pending`` reads of the rules part
    def consequence_command(self, state: AnyEncounter) -> Any: ...

    def decide(self, state: AnyEncounter, command: Any, dice: DiceSource) -> list[Any]: ...


class Consequences(ABC):
    """What waits to be applied; ``consequence_command`` every system writes."""

    @abstractmethod
    def consequence_command(self, state: AnyEncounter) -> Any:
        """The command that applies the last roll's result (the ``d`` key)."""

    def pending(self: _Deciding, state: AnyEncounter) -> str:
        """What the last roll left waiting to be applied, in a few words ("" when nothing
        waits), e.g. "Goblin takes 2 Wounds". The header and the Consequences pane show it
        until it is applied or discarded, and the app asks about it before a new roll or the
        end of a turn would leave it behind. By default: the last roll's consequence while
        ``consequence_command`` would still apply it."""
        if state.last_roll is None or state.last_roll_applied:
            return ""
        try:
            self.decide(state, self.consequence_command(state), ANY_FACE)
        except Rejected:
            return ""
        return "the last roll's consequence"

    def pending_action(self, state: AnyEncounter) -> str:
        """The action whose dialog applies what waits, when it takes the user's choices
        (Pain Pool: the boons a hero's damage crosses off); "" when ``consequence_command``
        applies it alone."""
        return ""

    def follow_up(self, state: AnyEncounter, action: str, command: object = None) -> bool:
        """Whether what waits is a step a roll of ``action`` may carry on rather than leave
        behind (LiveHack: a hit, then its damage roll), so that roll starts without a
        question; with ``command``, whether it is the roll that carries it on (else the app
        asks before it rolls)."""
        return False

    def discard(self, state: AnyEncounter) -> AnyEncounter:
        """The state once what waits is set aside unapplied (the core ``ConsequenceDiscarded``
        event): by default the last roll counts as settled."""
        return state.update(last_roll_applied=True)
