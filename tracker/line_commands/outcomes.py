"""What a typed line asks for, and what it is read against."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules import solo
from rules.encounter import AnyEncounter
from rules.system import RuleSystem
from tracker.store.library import Library


@dataclass(frozen=True)
class Execute:
    """A command for the session, with the choices made for solo sides inside it."""

    command: object
    label: str
    moves: tuple[solo.Move, ...] = ()
    leaves: str = ""  # what it would leave a waiting result behind to do ("roll again")
    action: str = ""  # the system action it comes from, if any


@dataclass(frozen=True)
class Undo:
    steps: int


@dataclass(frozen=True)
class Redo:
    steps: int


@dataclass(frozen=True)
class ScreenAction:
    """An action of the encounter screen, e.g. "help" or "system('grim')" (opens its dialog)."""

    action: str


@dataclass(frozen=True)
class Say:
    """A line to show the user, changing nothing (``:help attack``)."""

    text: str


Outcome = Execute | Undo | Redo | ScreenAction | Say


@dataclass(frozen=True)
class Context:
    """What a line is read against: the state, its system, and the screen's palette list."""

    state: AnyEncounter
    system: RuleSystem
    palette: Sequence[tuple[str, str, str]] = ()  # (title, action, help), as the palette lists
    selected: str | None = None
    known_conditions: Sequence[str] = ()  # condition names seen in the log, for completion
    library: Library | None = None  # the stat blocks ``add`` finds by name
    # Whether the screen offers an action to whoever types (a seat's role): what completion
    # lists, so a player is not offered the GM's commands (the session refuses them anyway).
    allows: Callable[[str, str], bool] = lambda action, argument: True
    # The combatants a player's seat acts for (None: everyone's, the GM's): a player's note
    # is about one of theirs, and the prompt's example offers only what they may do now.
    mine: frozenset[str] | None = None
