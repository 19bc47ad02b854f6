"""The rules part of the contract: a command decided into events, and an event folded into
the encounter."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from msgspec import Struct

from rules.dice import DiceSource
from rules.encounter import AnyEncounter, NoState


class Decisions(ABC):
    """``decide`` and ``apply``, which every system writes, the state they keep, and what
    the rules make follow of a core command."""

    event_types: ClassVar[tuple[type[Struct], ...]]
    command_types: ClassVar[tuple[type[Struct], ...]]
    roll_event_types: ClassVar[tuple[type[Struct], ...]]  # events that become the last roll
    state_type: ClassVar[type[Struct]] = NoState  # per-encounter state (tokens, pots...)

    def new_state(self) -> Struct:
        """A fresh per-encounter state: by default ``state_type()``."""
        return self.state_type()

    @abstractmethod
    def decide(self, state: AnyEncounter, command: Any, dice: DiceSource) -> list[Any]: ...

    @abstractmethod
    def apply(self, state: AnyEncounter, event: Any) -> AnyEncounter: ...

    def follows(self, state: AnyEncounter, events: list[Any]) -> list[Any]:
        """What the system's rules make follow of themselves from a core command's events
        that can change what a combatant is (a combatant added, a condition added, a sheet
        edited, a track changed): more events, after them in the same record (``state``:
        before them). Generic d20: a caster stunned by hand stops concentrating, a troll
        joining regenerates. By default nothing."""
        return []
