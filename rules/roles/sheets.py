"""The sheets part of the contract: what a combatant is, its dialog, its main track, and
the sheet a stat block, a fight's start or a tune makes of it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

from msgspec import Struct

from rules.commands import ChangeTrack
from rules.dice import DiceSource
from rules.encounter import AnyCombatant, AnyEncounter
from rules.errors import Rejected
from rules.forms import Field


class Track(NamedTuple):
    """A combatant's main track, which quick changes move (``:wound NAME N``, ``+`` / ``-``):
    its name, where it stands and its bounds; ``rising``: a higher value is worse (Wounds)."""

    name: str
    value: int
    low: int
    high: int
    rising: bool = False


class Sheets(ABC):
    """A combatant's sheet: its Structs, its dialog, the combatants pane's columns, its main
    track; ``new_sheet``, ``sheet_form``, ``sheet_from_form`` and ``sheet_stats`` every system
    writes."""

    sheet_types: ClassVar[tuple[type[Struct], ...]]  # the first is a new combatant's default
    stat_columns: ClassVar[tuple[str, ...]]
    title: ClassVar[str]  # the system's (``RuleSystem``), which the defaults name
    # The `:` line's words for a quick change of the main track (``main_track``): worse, then
    # better. ``wound`` and ``heal`` work in every system; these are the system's own.
    track_words: ClassVar[tuple[str, str]] = ("wound", "heal")

    @abstractmethod
    def new_sheet(self) -> Any: ...

    @abstractmethod
    def sheet_form(self, sheet: Any) -> list[Field]: ...

    @abstractmethod
    def sheet_from_form(self, values: Mapping[str, str], sheet: Any) -> Any: ...

    @abstractmethod
    def sheet_stats(self, sheet: Any) -> tuple[str, ...]: ...

    def sheet_kinds(self) -> tuple[tuple[str, Any], ...]:
        """Each kind of sheet, blank, under the word a stat block names it by (``kind =
        "challenge"``); the first is ``new_sheet``'s. By default one kind, named ""."""
        return (("", self.new_sheet()),)

    def fit_sheet(self, state: AnyEncounter, sheet: Any) -> Any:
        """A sheet being added or edited, completed from the encounter (Beer Run files an
        ability typed without a category); ``Rejected`` when it cannot be. Default: as is."""
        return sheet

    def rolled_on_add(self, state: AnyEncounter, sheet: Any, dice: DiceSource) -> Any:
        """The sheet of a combatant joining the fight, with what is rolled as it joins (hit
        points written as dice), every die kept in the sheet. By default: as it is."""
        return sheet

    def fresh_sheet(self, sheet: Any) -> Any:
        """The sheet as it starts a new fight: damage healed, pools full, what a fight spends
        given back (a party carried over ``--fresh``). By default: as it is."""
        return sheet

    def scaled(self, sheet: Any, factor: float) -> Any | None:
        """The sheet with what a fight wears down (hit points) ``factor`` times as much, as
        now and at most, for a fight tuned to a difficulty (``rules.tune``); None where the
        system has nothing to scale (then a tune adds and removes foes only). Default: None."""
        return None

    def main_track(self, combatant: AnyCombatant) -> Track | None:
        """The track a quick change moves (LiveHack Wounds, Fatigue Health...), or None when
        the combatant has none (then only its sheet's form changes it). Default: none."""
        return None

    def with_track(self, sheet: Any, value: int) -> Any:
        """The sheet with its main track at ``value`` (within the track's bounds)."""
        raise Rejected(f"{self.title} has no track to change")

    def track_command(self, state: AnyEncounter, combatant: AnyCombatant, steps: int) -> Any:
        """The command that moves ``combatant``'s main track ``steps`` worse (negative:
        better). Default: the core's ``ChangeTrack``; a system with a rule about it (LiveHack
        healing that stabilizes) gives its own."""
        return ChangeTrack(combatant.id, steps)
