"""System-agnostic commands; `rules.engine.decide` turns them into events.

Commands are never saved, so a sheet is typed loosely here: the engine checks it is one of
the encounter's system's sheet types.
"""

from typing import Any

from msgspec import Struct

from rules.conditions import Duration


class AddCombatant(Struct, frozen=True, kw_only=True):
    name: str
    side: str = "foes"
    gm_only: bool = False
    notes: str = ""
    sheet: Any = None  # None: the system's blank sheet
    index: int | None = None


class AddCombatants(Struct, frozen=True):
    """Several combatants at once (a group of foes, a party carried over): one undo step,
    each added as ``AddCombatant`` adds it, so repeated names are numbered in turn."""

    members: tuple[AddCombatant, ...]
    together: bool = False  # a group (``goblin x3``): one initiative roll for them all


class EditCombatant(Struct, frozen=True, kw_only=True):
    """Change some of a combatant's details; a field left as None stays as it is."""

    combatant_id: str
    name: str | None = None
    side: str | None = None
    gm_only: bool | None = None
    notes: str | None = None
    sheet: Any = None


class RemoveCombatant(Struct, frozen=True):
    combatant_id: str


class MoveCombatant(Struct, frozen=True):
    combatant_id: str
    index: int


class NextTurn(Struct, frozen=True):
    pass


class PassTurn(Struct, frozen=True):
    """A player ends their own combatant's turn (at a served table): the turn passes as
    ``NextTurn`` passes it, logged as the player's. ``by``: the player's name (the seat's)."""

    combatant_id: str
    by: str = ""


class AddCondition(Struct, frozen=True):
    combatant_id: str
    name: str
    duration: Duration = Duration()


class RemoveCondition(Struct, frozen=True):
    combatant_id: str
    name: str


class AddNote(Struct, frozen=True):
    text: str
    combatant_id: str | None = None


class SetSolo(Struct, frozen=True):
    """Let the tracker play a side (``on``) or hand it back to the user."""

    side: str
    on: bool = True


class SetPolicy(Struct, frozen=True):
    """Choose how the tracker plays one combatant; "" is the system's default policy."""

    combatant_id: str
    policy: str = ""


class DiscardConsequence(Struct, frozen=True):
    """Set aside what the last roll left waiting, unapplied (logged, never silent)."""


class RollDice(Struct, frozen=True):
    """Roll plain dice in standard notation (``rules.plain_dice``), in any system. ``by``:
    the player who rolled at a served table (their seat says it, never the player); a
    ``hidden`` roll is the GM's alone to roll and to see."""

    notation: str
    by: str = ""
    hidden: bool = False


class ChangeTrack(Struct, frozen=True):
    """Move a combatant's main track by ``steps``: positive is worse (a wound), negative
    better (healing)."""

    combatant_id: str
    steps: int


class SetInitiative(Struct, frozen=True):
    """Set a combatant's initiative: ``value`` is a number, or dice notation to roll ("" rolls
    the system's ``initiative_dice``). The combatant takes its place in the order by it."""

    combatant_id: str
    value: str = ""


class RollInitiative(Struct, frozen=True):
    """Roll initiative for everyone who has none (a group added together shares one roll,
    unless ``each``), then sort the order by it. ``dice`` "": each one's ``initiative_dice``."""

    dice: str = ""
    each: bool = False


class Commands(Struct, frozen=True):
    """Several commands as one undo step (a tuned fight: foes added and removed, hit points
    scaled): each decided on the state the ones before it leave, their events together. A
    step may not be ``Commands`` itself."""

    steps: tuple[Any, ...]


class SortInitiative(Struct, frozen=True):
    """Sort the turn order by initiative, highest first (ties as they were, or the system's
    ``initiative_tiebreak``)."""


class SetOption(Struct, frozen=True):
    """Set a table option of the encounter (``rules.table_options``), e.g. ``turn-limit``
    ``120`` or ``init-each-round`` ``on``."""

    name: str
    value: str


class Delay(Struct, frozen=True):
    """The combatant leaves the turn order until it acts (``Act``); on its own turn, the turn
    passes on."""

    combatant_id: str


class Ready(Struct, frozen=True):
    """The combatant holds a reaction until ``trigger``, in the GM's words."""

    combatant_id: str
    trigger: str


class Act(Struct, frozen=True):
    """A delayed combatant takes its place in the order and acts now; a readied one spends
    its reaction."""

    combatant_id: str


class Surprise(Struct, frozen=True):
    """A side is surprised as the fight begins: what that does is the system's to say
    (``RuleSystem.surprise``), by the way the table chose (the ``surprise-way`` option)."""

    side: str


CoreCommand = (
    AddCombatant
    | AddCombatants
    | EditCombatant
    | RemoveCombatant
    | MoveCombatant
    | NextTurn
    | PassTurn
    | AddCondition
    | RemoveCondition
    | AddNote
    | SetSolo
    | SetPolicy
    | DiscardConsequence
    | RollDice
    | ChangeTrack
    | SetInitiative
    | RollInitiative
    | SortInitiative
    | SetOption
    | Delay
    | Ready
    | Act
    | Surprise
    | Commands
)
