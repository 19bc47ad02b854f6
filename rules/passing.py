"""A player's own turn at a served table: when they may end it, who comes up next, and what
their seat is told of it ("your turn", "up next", and "your roll" when a roll of theirs waits
off their turn: a save a hit asked of them)."""

from __future__ import annotations

from typing import Any, Literal

from rules.commands import PassTurn
from rules.encounter import AnyEncounter, Combatant
from rules.errors import Rejected
from rules.events import TurnPassed
from rules.permissions import actors
from rules.registry import get_system
from rules.remembered import ByIdentity

News = Literal["your turn", "up next", "your roll"]


def passed(state: AnyEncounter, command: PassTurn) -> TurnPassed:
    """The event that says who ended the turn, once it is sure it may end: the combatant's
    own turn, with nothing the last roll left waiting (the turn passes after it)."""
    system = get_system(state.system)
    who = state.combatant(command.combatant_id)
    if not system.uses_turn_order:
        raise Rejected(f"{system.title} plays in rounds: the GM ends the round")
    current = state.current
    if current is None or current.id != who.id:
        now = f"it is {current.name}'s turn" if current is not None else "nobody's turn is on"
        raise Rejected(f"{who.name} is not acting: {now}")
    waiting = system.pending(state)
    if waiting:
        raise Rejected(f"Not applied yet: {waiting}: apply it (d) before ending the turn")
    return TurnPassed(who.id, command.by)


def up_next(state: AnyEncounter) -> Combatant[Any] | None:
    """Who acts after the one acting now (as ``NextTurn`` would pass it), or None."""
    system = get_system(state.system)
    if not system.uses_turn_order or state.current_id is None:
        return None
    order = system.turn_order(state)
    ids = [c.id for c in order]
    if not order or ids == [state.current_id]:
        return None
    if state.current_id in ids:
        return order[(ids.index(state.current_id) + 1) % len(order)]
    place = state.index_of(state.current_id)  # it left the order on its turn
    return next((c for c in order if state.index_of(c.id) > place), order[0])


def news(state: AnyEncounter, mine: frozenset[str]) -> tuple[News, Combatant[Any]] | None:
    """What a player acting for ``mine`` is told: one of theirs acts now, rolls what waits
    (``d``: a save a hit asked of it), or acts next."""
    current = state.current
    if current is not None and current.id in mine:
        return "your turn", current
    rolling = owed_roll(state, mine)
    if rolling is not None:
        return "your roll", rolling
    following = up_next(state)
    if following is not None and following.id in mine:
        return "up next", following
    return None


def owed_roll(state: AnyEncounter, mine: frozenset[str]) -> Combatant[Any] | None:
    """One of ``mine`` whose roll waits (what ``d`` gives now names it as who acts: a save
    owed, a concentration save), or None."""
    if not mine:
        return None
    found = sorted(_ROLLING.get(state, None, lambda: _rolling(state)) & mine)
    return state.find(found[0]) if found else None


def _rolling(state: AnyEncounter) -> frozenset[str]:
    """Who rolls what waits now: asked once of each state, for every seat at the table."""
    system = get_system(state.system)
    if not system.pending(state):
        return frozenset()
    try:
        command = system.consequence_command(state)
    except Rejected:  # nothing it can give now: nobody's roll
        return frozenset()
    return frozenset(actors(system, command) or ())


_ROLLING: ByIdentity[frozenset[str]] = ByIdentity()
