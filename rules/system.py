"""The interface every rule system implements, and the values it shares with the app."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from msgspec import Struct

from rules.dice import DiceSource
from rules.forms import Field
from rules.logline import LogEntry

if TYPE_CHECKING:
    from rules.encounter import Encounter


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


class RuleSystem(Protocol):
    """A resolution system. Register an instance in ``rules.systems``; the app needs no change.

    Sheets, commands and events are the system's own msgspec Structs; each event type has
    an explicit tag starting with the system's name.
    """

    name: str
    title: str
    sheet_type: type[Struct]
    event_types: tuple[type[Struct], ...]
    command_types: tuple[type[Struct], ...]
    roll_event_type: type[Struct]
    stat_columns: tuple[str, ...]

    def new_sheet(self) -> Any: ...

    def sheet_form(self, sheet: Any) -> list[Field]: ...

    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any: ...

    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    def roll_form(self, state: Encounter) -> list[Field]: ...

    def roll_command(self, state: Encounter, values: Mapping[str, str]) -> Any: ...

    def consequence_command(self, state: Encounter) -> Any: ...

    def decide(self, state: Encounter, command: Any, dice: DiceSource) -> list[Any]: ...

    def apply(self, state: Encounter, event: Any) -> Encounter: ...

    def tiers(self, state: Encounter) -> list[Tier]: ...

    def landing(self, state: Encounter) -> Landing | None: ...

    def describe(self, state: Encounter, event: Any) -> LogEntry: ...
