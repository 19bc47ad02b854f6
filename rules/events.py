"""Core events that any rule system may emit. Each tag is part of the save format: never rename."""

from typing import Annotated, Literal

from msgspec import Meta, Struct

from rules.bounds import SAVED_NAME
from rules.conditions import Condition
from rules.plain_dice import DiceRolled

Name = Annotated[str, Meta(max_length=SAVED_NAME)]
"""A name: a save holding a longer one is refused as it is decoded."""


class EncounterCreated(Struct, frozen=True, tag="encounter-created"):
    name: Name
    system: str


class CombatantRemoved(Struct, frozen=True, tag="combatant-removed"):
    combatant_id: str


class CombatantMoved(Struct, frozen=True, tag="combatant-moved"):
    combatant_id: str
    index: int


class TurnAdvanced(Struct, frozen=True, tag="turn-advanced"):
    round: int
    actor_id: str | None
    previous_id: str | None = None


class TurnPassed(Struct, frozen=True, tag="turn-passed"):
    """A player ended their own combatant's turn (the ``TurnAdvanced`` follows)."""

    combatant_id: str
    by: Name = ""


class ConditionAdded(Struct, frozen=True, tag="condition-added"):
    combatant_id: str
    condition: Condition


class ConditionRemoved(Struct, frozen=True, tag="condition-removed"):
    combatant_id: str
    name: str
    reason: Literal["removed", "expired"] = "removed"


class NoteAdded(Struct, frozen=True, tag="note-added"):
    text: str
    combatant_id: str | None = None


class SoloSideSet(Struct, frozen=True, tag="solo-side-set"):
    """The tracker starts (or stops) playing a side by itself."""

    side: str
    on: bool


class PolicySet(Struct, frozen=True, tag="policy-set"):
    """How the tracker plays one combatant of a solo side ("" for the system's default)."""

    combatant_id: str
    policy: str


class SoloChose(Struct, frozen=True, tag="solo-chose"):
    """A choice the tracker made for a combatant of a solo side, and why, in one line."""

    combatant_id: str
    policy: str
    reason: str


class ConsequenceDiscarded(Struct, frozen=True, tag="consequence-discarded"):
    """What the last roll left waiting, set aside unapplied by the user's choice.

    ``what`` keeps the system's words for it (``RuleSystem.pending``) as they were, so the
    log says the same however those words change later.
    """

    what: str
    # Who the last roll involved: the line is hidden from players with a GM-only one.
    combatant_ids: tuple[str, ...] = ()


class TrackChanged(Struct, frozen=True, tag="track-changed"):
    """A combatant's main track (``RuleSystem.main_track``) set from ``before`` to ``after``
    by hand, without its sheet's form."""

    combatant_id: str
    track: str
    before: int
    after: int


class InitiativeSet(Struct, frozen=True, tag="initiative-set"):
    """Initiative for a combatant, or for a group sharing one roll: ``roll`` holds every die
    rolled for it (None: a number given by hand)."""

    combatant_ids: tuple[str, ...]
    initiative: int
    roll: DiceRolled | None = None


class OrderSorted(Struct, frozen=True, tag="order-sorted"):
    """The turn order sorted by initiative, as it then stands (every id, in order), and whose
    turn it is after."""

    order_ids: tuple[str, ...]
    current_id: str | None = None


CoreEvent = (
    EncounterCreated
    | CombatantRemoved
    | CombatantMoved
    | TurnAdvanced
    | TurnPassed
    | ConditionAdded
    | ConditionRemoved
    | NoteAdded
    | SoloSideSet
    | PolicySet
    | SoloChose
    | ConsequenceDiscarded
    | DiceRolled
    | TrackChanged
    | InitiativeSet
    | OrderSorted
)
