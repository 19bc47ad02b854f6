"""How Beer Run's events change the state: sheets, the categories, paid pools, and successes
waiting to land. Never rolls or refuses: saves and undo replay it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from . import decide
from .events import (
    BeerRunState,
    CategoriesSet,
    Ceded,
    DamageLanded,
    DiceGained,
    DifficultyWorn,
    GoalGained,
    GoalSet,
    OutcomeDieAdded,
    PoolBuilt,
    RoundRolled,
    StruckDie,
    SuccessesLost,
    Worn,
    pending_from,
)
from .sheet import Ability, Goal, TempDie, damaged, spend_one

if TYPE_CHECKING:
    from .events import BeerRunEncounter


def apply(state: BeerRunEncounter, event: object) -> BeerRunEncounter:
    own: BeerRunState = decide.br_state(state)
    match event:
        case CategoriesSet():
            return state.update(system_state=structs.replace(own, categories=event.categories))
        case GoalSet():
            if decide.sheet_of(state.combatant(event.combatant_id)).goal != event.goal:
                # Another goal faces another difficulty: the worn one is left behind.
                worn = tuple(w for w in own.worn if w.combatant_id != event.combatant_id)
                state = state.update(system_state=structs.replace(own, worn=worn))
            return with_sheet(state, event.combatant_id, goal=event.goal)
        case PoolBuilt(pool=pool):
            sheet = decide.sheet_of(state.combatant(pool.combatant_id))
            state = with_sheet(state, pool.combatant_id, intensity=sheet.intensity - pool.cost)
            return state.update(system_state=structs.replace(own, pools=(*own.pools, pool)))
        case RoundRolled():
            return apply_round(state, own, event)
        case DiceGained():
            sheet = decide.sheet_of(state.combatant(event.combatant_id))
            die = TempDie(event.size, event.uses)
            if event.kind == "situation":
                return with_sheet(state, event.combatant_id, situation=(*sheet.situation, die))
            return with_sheet(state, event.combatant_id, penalty=(*sheet.penalty, die))
        case DifficultyWorn():
            worn = tuple(w for w in own.worn if w.combatant_id != event.combatant_id)
            if event.left:
                worn = (*worn, Worn(event.combatant_id, event.left))
            return state.update(system_state=structs.replace(own, worn=worn))
        case GoalGained():
            sheet = decide.sheet_of(state.combatant(event.combatant_id))
            goal = structs.replace(sheet.goal or Goal(), gained=True)
            return with_sheet(state, event.combatant_id, goal=goal)
        case DamageLanded():
            return apply_damage(state, own, event)
        case SuccessesLost():
            rest = tuple(
                p
                for p in own.pending
                if p.round != state.round or p.dealer_id != event.combatant_id
            )
            left = any(p.round == state.round for p in rest)
            return state.update(
                system_state=structs.replace(own, pending=rest), last_roll_applied=not left
            )
        case Ceded():
            return with_sheet(state, event.combatant_id, goal=None)
        case OutcomeDieAdded():
            return apply_outcome(state, event)
    raise TypeError(f"not a Beer Run event: {event!r}")


def with_sheet(state: BeerRunEncounter, cid: str, **changes: object) -> BeerRunEncounter:
    who = state.combatant(cid)
    sheet = structs.replace(decide.sheet_of(who), **changes)
    return state.replace_combatant(structs.replace(who, sheet=sheet))


def apply_round(state: BeerRunEncounter, own: BeerRunState, event: RoundRolled) -> BeerRunEncounter:
    for spent in event.spent:
        sheet = decide.sheet_of(state.combatant(spent.combatant_id))
        field = "situation" if spent.kind == "situation" else "penalty"
        left = spend_one(getattr(sheet, field), spent.size)
        state = with_sheet(state, spent.combatant_id, **{field: left})
    if event.stage == "helping":
        return state
    pending = [p for c in event.contests for p in pending_from(event.round, c)]
    kept = tuple(p for p in own.pending if p.round == event.round)
    own = structs.replace(
        own,
        pending=(*kept, *pending),
        rolled_round=event.round,
        struck_dice=struck_dice(state, event),
    )
    return state.update(system_state=own, last_roll=event, last_roll_applied=not pending)


def struck_dice(state: BeerRunEncounter, event: RoundRolled) -> tuple[StruckDie, ...]:
    """The die ``d`` would strike on each side of the round's first comparison, as rolled."""
    if not event.contests:
        return ()
    contest = event.contests[0]
    found = []
    for cid in (contest.top_id, contest.bottom_id):
        who = None if cid is None else state.find(cid)
        if who is not None:
            die = decide.default_die(who)
            name, size = ("", 0) if die is None else (die.name, die.size)
            found.append(StruckDie(who.id, name, size))
    return tuple(found)


def apply_damage(
    state: BeerRunEncounter, own: BeerRunState, event: DamageLanded
) -> BeerRunEncounter:
    sheet = decide.sheet_of(state.combatant(event.target_id))
    for hit in event.hits:
        sheet = damaged(sheet, hit.ability, hit.pips)
    who = state.combatant(event.target_id)
    state = state.replace_combatant(structs.replace(who, sheet=sheet))
    if not event.from_pending:
        return state  # a cede's damage: nothing was waiting
    rest = decide.pending_now(state)[1:]  # the first waiting set landed; older ones are void
    return state.update(system_state=structs.replace(own, pending=rest), last_roll_applied=not rest)


def apply_outcome(state: BeerRunEncounter, event: OutcomeDieAdded) -> BeerRunEncounter:
    sheet = decide.sheet_of(state.combatant(event.combatant_id))
    changes: dict[str, object] = {"outcomes": (*sheet.outcomes, event.die)}
    if event.die.kind == "gained":
        ability = Ability(name=event.die.name, category=event.category, size=event.die.size)
        changes["abilities"] = (*sheet.abilities, ability)
    return with_sheet(state, event.combatant_id, **changes)
