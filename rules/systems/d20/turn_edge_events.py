"""What Generic d20 ties to the start and end of a turn, as data: its commands (never saved),
its events and the records it keeps in the encounter's state (saved, tagged). The rules are
in ``turn_edges.py``; the readings in rulings.md (D4-02)."""

from __future__ import annotations

from typing import Annotated, Any

from msgspec import Meta, Struct

from .sheet import Stamp

SAVE, START, END = "save", "start", "end"  # how a condition ends
Faces = Annotated[tuple[int, ...], Meta(min_length=1, max_length=2)]
Mode = Annotated[int, Meta(ge=-1, le=1)]
Regeneration = Annotated[int, Meta(ge=0, le=10_000)]
Text = Annotated[str, Meta(max_length=60)]

# --- the records kept in ``D20State`` ----------------------------------------------------------


class Edge(Struct, frozen=True):
    """How a condition on ``target_id`` ends: a save (``ability``, ``dc``) repeated at the
    end of each of its turns (``at`` SAVE; ``owed`` once such a turn has ended), or at the
    start or end (``at``) of ``who_id``'s next turn after ``since``, when it was laid."""

    target_id: str
    condition: str
    at: str
    since: Stamp
    who_id: str = ""
    ability: str = ""
    dc: int = 0
    owed: bool = False
    magical: bool = False  # the save is against a magical effect (Magic Resistance)


class TurnStart(Struct, frozen=True):
    """What happens to ``combatant_id`` at the start of each of its turns: damage
    (``ongoing``, dice and a type, "1d10 fire"), ``regeneration`` (hit points), and a recharge
    roll on a d6 (``recharge``, the lowest face that recharges: 5 for "5-6") while its
    ability is spent (``ready`` False)."""

    combatant_id: str
    ongoing: Text = ""
    regeneration: Regeneration = 0
    recharge: Annotated[int, Meta(ge=0, le=6)] = 0
    ready: bool = True


# --- commands ----------------------------------------------------------------------------------


class D20SetEnding(Struct, frozen=True):
    """A condition (laid now if it is not on already) that ends by a save at the end of each
    of the target's turns (``at`` SAVE), or at the start or end of ``who_id``'s next turn."""

    target_id: str
    condition: str
    at: str
    who_id: str = ""
    ability: str = "wis"
    dc: int = 13


class D20SetTurnStart(Struct, frozen=True):
    """The start of a combatant's turn set: ongoing damage, regeneration, a recharge."""

    combatant_id: str
    ongoing: str = ""
    regeneration: int = 0
    recharge: int = 0
    ready: bool = True


class D20RegenerationOff(Struct, frozen=True):
    """No regeneration at the start of the combatant's next turn (a troll hit by fire)."""

    combatant_id: str


class D20EndOfTurnSave(Struct, frozen=True):
    """The save owed at the end of the target's turn against one of its conditions."""

    target_id: str
    condition: str


class D20StartOfTurn(Struct, frozen=True):
    """What the start of the combatant's turn brings: damage, regeneration, a recharge roll."""

    combatant_id: str


# --- events ------------------------------------------------------------------------------------


class D20EndingSet(Struct, frozen=True, tag="d20.ending-set"):
    edge: Edge


class D20TurnStartSet(Struct, frozen=True, tag="d20.turn-start-set"):
    start: TurnStart


class D20RegenerationStopped(Struct, frozen=True, tag="d20.regeneration-stopped"):
    combatant_id: str


class D20TurnPassed(Struct, frozen=True, tag="d20.turn-passed"):
    """A turn ends (``ending_id``: its saves fall due) and the next is ``following_id``'s
    (what its start brings waits)."""

    ending_id: str
    following_id: str


class D20EndOfTurnSaved(Struct, frozen=True, tag="d20.end-of-turn-saved"):
    target_id: str
    condition: str
    ability: str
    dc: int
    faces: Faces
    mode: Mode
    bonus: int
    total: int
    success: bool
    auto_fail: bool
    stamp: Stamp


class D20Recharged(Struct, frozen=True, tag="d20.recharged"):
    combatant_id: str
    face: Annotated[int, Meta(ge=1, le=6)]
    lowest: Annotated[int, Meta(ge=1, le=6)]
    stamp: Stamp

    @property
    def ready(self) -> bool:
        return self.face >= self.lowest


class D20Perished(Struct, frozen=True, tag="d20.perished"):
    """A troll down at 0 hit points starts its turn without regenerating: it dies
    (regeneration.perishes, rulings D5-16)."""

    combatant_id: str


class D20TurnStarted(Struct, frozen=True, tag="d20.turn-started"):
    """What the start of the turn brought is dealt."""

    combatant_id: str
    regenerated: bool = True


def saved_from_effect(roll: Any, target_id: str) -> D20EndingSet:
    """A save effect's condition laid on a failure, saved against at the end of each of the
    target's turns (its ``repeat``: Hold Person)."""
    return D20EndingSet(
        Edge(
            target_id,
            roll.condition,
            SAVE,
            roll.stamp,
            ability=roll.ability,
            dc=roll.dc,
            magical=roll.magical,
        )
    )
