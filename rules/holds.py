"""Turns held: a combatant delaying out of the order until it acts, and a reaction readied
until a trigger the GM names (``:delay``, ``:ready``, ``:act``).

A delaying combatant takes no turn (``rules.engine`` leaves it out of the order it passes
turns through); ``Act`` puts it back just before whoever acts now, with that one's
initiative, and the turn is its own at once: the one it stepped in front of acts after it.
A readied reaction is spent by ``Act`` (the system counts it: ``RuleSystem.reaction_spent``)
or lapses as its holder's next turn begins.
"""

from __future__ import annotations

from typing import Any

from msgspec import structs

from rules.commands import Act, Delay, Ready
from rules.dice import DiceSource
from rules.encounter import AnyEncounter, Combatant
from rules.errors import Rejected
from rules.events import (
    CombatantMoved,
    HoldEnded,
    HoldTaken,
    InitiativeSet,
    SideSurprised,
    TurnAdvanced,
)
from rules.registry import get_system

TRIGGER = 120  # characters of a trigger, as typed: a sentence, never a page


def decide_delay(state: AnyEncounter, command: Delay) -> list[Any]:
    """The hold; the caller passes the turn on when the one delaying was acting."""
    target = _in_order(state, command.combatant_id)
    if target.delaying:
        raise Rejected(f"{target.name} is delaying already (:act {target.name} to act)")
    return [HoldTaken(target.id)]


def decide_ready(state: AnyEncounter, command: Ready) -> list[Any]:
    target = state.combatant(command.combatant_id)
    trigger = " ".join(command.trigger.split())
    if not trigger:
        raise Rejected("a readied reaction needs its trigger: :ready NAME TRIGGER")
    if len(trigger) > TRIGGER:
        raise Rejected(f"a trigger can have at most {TRIGGER} characters")
    if trigger == target.ready:
        raise Rejected(f"{target.name} is ready for that already")
    return [HoldTaken(target.id, trigger)]


def decide_act(state: AnyEncounter, command: Act) -> list[Any]:
    target = state.combatant(command.combatant_id)
    if target.delaying:
        return _step_in(state, target)
    if target.ready:
        system = get_system(state.system)
        return [HoldEnded(target.id, "spent"), *system.reaction_spent(state, target)]
    raise Rejected(f"{target.name} is neither delaying nor holding a reaction")


def _in_order(state: AnyEncounter, combatant_id: str) -> Combatant[Any]:
    system = get_system(state.system)
    if not system.uses_turn_order:
        raise Rejected(system.why_no_initiative())
    return state.combatant(combatant_id)


def _step_in(state: AnyEncounter, target: Combatant[Any]) -> list[Any]:
    """Back in the order, just before the one acting, with its initiative; its turn now."""
    events: list[Any] = [HoldEnded(target.id, "acted")]
    acting = state.current
    if acting is None or acting.id == target.id:
        return events
    if acting.initiative is not None and acting.initiative != target.initiative:
        events.append(InitiativeSet((target.id,), acting.initiative))
    others = [c.id for c in state.combatants if c.id != target.id]
    index = others.index(acting.id)
    if index != state.index_of(target.id):
        events.append(CombatantMoved(target.id, index))
    back = state.replace_combatant(structs.replace(target, delaying=False))
    events += get_system(state.system).turn_passing(back, None, target)
    events.append(TurnAdvanced(round=state.round, actor_id=target.id, previous_id=acting.id))
    return events


def decide_surprise(state: AnyEncounter, side: str, dice: DiceSource) -> list[Any]:
    """A side surprised, as its system says, by the way the table chose."""
    side = check_side(state, side)
    system = get_system(state.system)
    way = way_of(state)
    effect, events = system.surprise(state, side, way, dice)
    return [SideSurprised(side, effect), *events]


def check_side(state: AnyEncounter, side: str) -> str:
    """``side`` as one of the encounter's sides; refused in one line when it is none."""
    side = side.strip()
    sides = list(dict.fromkeys(c.side for c in state.combatants))
    if side not in sides:
        known = ", ".join(sides) or "none yet"
        raise Rejected(f"there is no side {side!r} (sides: {known})")
    return side


def way_of(state: AnyEncounter) -> str:
    """The way of surprise the table plays: its choice, else the system's first ("": none)."""
    ways = get_system(state.system).surprise_ways
    return state.options.surprise_way or (ways[0][0] if ways else "")


def check_way(state: AnyEncounter, way: str) -> None:
    """Refused in one line unless ``way`` is one of the system's ways of surprise."""
    system = get_system(state.system)
    ids = [w for w, _ in system.surprise_ways]
    if way.strip().casefold() not in ids:
        offered = ", ".join(f"{w} ({what})" for w, what in system.surprise_ways)
        if not offered:
            raise Rejected(f"{system.title} plays surprise one way: no way to choose")
        raise Rejected(f"no way of surprise {way!r}: {offered}")


def lapsing(following: Combatant[Any]) -> list[Any]:
    """A readied reaction lapses as its holder's next turn begins."""
    return [HoldEnded(following.id, "lapsed")] if following.ready else []


def apply_taken(state: AnyEncounter, event: HoldTaken) -> AnyEncounter:
    target = state.combatant(event.combatant_id)
    held = {"ready": event.trigger} if event.trigger else {"delaying": True}
    return state.replace_combatant(structs.replace(target, **held))


def apply_ended(state: AnyEncounter, event: HoldEnded) -> AnyEncounter:
    target = state.combatant(event.combatant_id)
    ended = {"delaying": False} if event.how == "acted" else {"ready": ""}
    return state.replace_combatant(structs.replace(target, **ended))
