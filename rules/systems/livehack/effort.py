"""*Effort* on any roll: its bounds, and the Con roll that effort at Con -5 needs first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.dice import DiceSource

from .events import LiveHackSaveRolled, Part, roll_side, static_side
from .parts import check_effort, needs_effort_check
from .sheet import LiveHackSheet

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter


def effort_check(
    state: LiveHackEncounter, person: LiveHackCombatant, effort: int, dice: DiceSource
) -> LiveHackSaveRolled | None:
    """The Con roll vs DR 0 that effort at Con -5 needs (None when it needs none)."""
    if not effort or not needs_effort_check(person):
        return None
    sheet: LiveHackSheet = person.sheet
    # An aid waits for the action itself, not for this check before it.
    side = roll_side((Part("Con", sheet.attribute("con")),), "roll", dice, person.id)
    passes = side.total >= 0
    return LiveHackSaveRolled(
        kind="check",
        roller=side,
        target=static_side("DR", (Part("DR", 0),)),
        outcome="passes" if passes else "fails: the effort is not spent",
        note=f"Con -5, to push +{effort} effort",
    )


def pushed(
    state: LiveHackEncounter, person: LiveHackCombatant, effort: int, dice: DiceSource
) -> tuple[list[object], int]:
    """*Effort*: "Before a roll (not after), a player may declare that the character is
    pushing hard", on any roll of theirs. The effort's bounds are checked and, at Con -5,
    its Con roll made first: the events before the roll, and the effort that counts (0 when
    that Con roll fails: "the effort is not spent")."""
    check_effort(person, effort)
    check = effort_check(state, person, effort, dice)
    if check is None:
        return [], effort
    return [check], effort if check.outcome == "passes" else 0


def effort_part(effort: int) -> list[Part]:
    return [Part("effort", effort)] if effort else []
