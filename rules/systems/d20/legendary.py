"""When a legendary action may be taken, and what it spends (SRD 5.1, *Legendary Actions*):
"only at the end of another creature's turn"; spent ones come back "at the start of its turn".

The tracker has no moment between two turns: a legendary action at the end of a turn is taken
while that turn is still under way, or as the next one opens, before anyone rolls on it. That
next turn may be the creature's own: its action then belongs to the turn just ended, so it is
stamped with that turn and spends what was left before its own turn gives them all back."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import LEGENDARY, D20Attacked, D20Saved, sheet_of, stamp_of
from .sheet import Stamp, life_word
from .standing import in_turn

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

ACTIONS = (D20Attacked, D20Saved)  # the rolls of a turn's action, or of a legendary action


def turn_ended(state: D20Encounter) -> tuple[D20Combatant, Stamp] | None:
    """Whose turn ended as the one under way opened (the one before it in the turn order:
    ``standing.in_turn``, the dead left out), and that turn's stamp; None on the fight's first
    turn (or when nobody's turn is under way)."""
    people = state.combatants
    here = state.index_of(state.current_id)
    if here < 0 or life_word(people[here].sheet) == "dead":
        return None  # no turn under way: nobody's, or a turn whose actor died in it
    for back in range(1, len(people) + 1):  # from the one before, round the order
        place = here - back
        if place < 0 and state.round <= 1:
            return None
        before = people[place]  # a negative place: the last of the round before
        if life_word(before.sheet) != "dead":
            stamp = (state.round if place >= 0 else state.round - 1, place % len(people))
            return before, stamp
    return None


def opening(state: D20Encounter) -> bool:
    """Whether the turn under way has only opened: no attack or save effect rolled on it yet
    but legendary actions (taken at the end of the turn before); a death save or a
    concentration save leaves it open."""
    roll = state.last_roll
    if not isinstance(roll, ACTIONS) or roll.stamp != stamp_of(state):
        return True
    return roll.usage == LEGENDARY  # a legendary attack or save effect (Wing Attack)


def legendary_stamp(state: D20Encounter, who: D20Combatant) -> Stamp | None:
    """When ``who``'s legendary action now is taken: the turn under way when it is another's;
    the turn just ended when its own has only opened (None: its own turn has begun, or there
    was no turn before)."""
    if state.current_id != who.id:
        return stamp_of(state)
    ended = turn_ended(state)
    if ended is None or ended[0].id == who.id or not opening(state):
        return None
    return ended[1]


def left_at(state: D20Encounter, who: D20Combatant, stamp: Stamp) -> int:
    """The legendary actions ``who`` has left at ``stamp``: spent ones count from the start
    of its own last turn before it."""
    sheet = sheet_of(who)
    if not sheet.legendary:
        return 0
    place = state.index_of(who.id)
    now_round, now_place = stamp
    start = (now_round, place) if place <= now_place else (now_round - 1, place)
    return sheet.legendary - sum(1 for s in sheet.legendary_spent if s >= start)


def ends_before_own(state: D20Encounter, who: D20Combatant) -> int:
    """The ends of turns at which ``who`` may still take a legendary action before its own
    turn gives them back: the one just ended (its action taken as this turn opens), then the
    turn under way and each after it up to the one before its own."""
    order = [c.id for c in in_turn(state)]
    if who.id not in order or state.current_id not in order:
        return 1
    here, own = order.index(state.current_id), order.index(who.id)
    return max((own - here + 1) % len(order), 1)
