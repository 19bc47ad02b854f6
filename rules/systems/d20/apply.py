"""Generic d20's fold: each event into the next state. It never rolls and never refuses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.bounds import COMBATANTS

from . import uses
from .economy import own_turn, spend
from .events import (
    ACTION,
    FREE,
    LEGENDARY,
    D20ActionUsed,
    D20Attacked,
    D20ConcentrationEnded,
    D20ConcentrationSaved,
    D20ConcentrationStarted,
    D20Damaged,
    D20DeathSaved,
    D20Exhausted,
    D20Healed,
    D20HitSaveOwed,
    D20Immune,
    D20LegendaryUsed,
    D20ReactionUsed,
    D20Rested,
    D20Saved,
    D20Settled,
    D20Stabilised,
    Held,
    HitSave,
    Waiting,
    sheet_of,
    stamp_of,
    system_state,
)
from .exhaustion import exhausted, rested
from .sheet import D20Sheet, Stamp
from .stat_actions import part_made
from .table import CONCENTRATION_DC, DEATH_SAVES
from .taken import dealt
from .wounds import healed

if TYPE_CHECKING:
    from .events import D20Encounter


def _sheet(state: D20Encounter, cid: str, sheet: D20Sheet) -> D20Encounter:
    who = state.combatant(cid)
    return state.replace_combatant(structs.replace(who, sheet=sheet))


def apply(state: D20Encounter, event: Any) -> D20Encounter:
    match event:  # the commonest first: an attack, its damage dealt, a death save
        case D20Attacked():
            state = state.update(last_roll=event, last_roll_applied=False)
            state = uses.spend(state, event.attacker_id, event.action)  # a recharge, a use a day
            sheet = sheet_of(state.combatant(event.attacker_id))
            if event.usage == LEGENDARY:
                return _sheet(state, event.attacker_id, _spent(sheet, event.stamp, event.cost))
            if event.of and event.usage == ACTION:  # a part of its Multiattack
                return part_made(state, event.attacker_id, event.action, event.stamp)
            if event.action:  # a stat block action of its own is the whole action
                return spend(state, event.attacker_id, event.usage, event.stamp)
            if (
                event.usage != ACTION
                or sheet.multiattack < 2
                or not own_turn(state, event.attacker_id)
            ):
                return spend(state, event.attacker_id, event.usage, event.stamp)
            # One of its action's attacks (Multiattack) on its own turn: only this turn's count,
            # and the action spent with the last of them.
            made = (*(s for s in sheet.attacks_made if s == event.stamp), event.stamp)
            state = _sheet(state, event.attacker_id, structs.replace(sheet, attacks_made=made))
            if len(made) < sheet.multiattack:
                return state
            return spend(state, event.attacker_id, ACTION, event.stamp)
        case D20Damaged():
            return _damaged(state, event)
        case D20Settled():
            return state.update(last_roll_applied=True)
        case D20DeathSaved():
            return _death_saved(state, event)
        case D20ActionUsed():
            state = uses.spend(state, event.combatant_id, event.action)  # a use a day
            return spend(state, event.combatant_id, event.usage, event.stamp)
        case D20LegendaryUsed():
            sheet = sheet_of(state.combatant(event.combatant_id))
            return _sheet(state, event.combatant_id, _spent(sheet, event.stamp, event.cost))
        case D20Saved():
            if event.hit:  # the save a hit asked for, met (hit_saves.py)
                state = _hit_save_met(state, event.rolls[0].target_id, event.source_id)
            state = state.update(last_roll=event, last_roll_applied=False)
            state = uses.spend(state, event.source_id, event.action)  # a recharge, a use a day
            if event.usage == LEGENDARY:
                sheet = sheet_of(state.combatant(event.source_id))
                state = _sheet(state, event.source_id, _spent(sheet, event.stamp, event.cost))
            elif event.of and event.usage == ACTION:  # a part of its Multiattack
                state = part_made(state, event.source_id, event.action, event.stamp)
            else:
                state = spend(state, event.source_id, event.usage, event.stamp)
            if event.concentration and event.condition:
                found = system_state(state)
                held = tuple(
                    Held(event.source_id, r.target_id, event.condition)
                    for r in event.rolls
                    if not r.success
                )
                others = tuple(h for h in found.held if h.source_id != event.source_id)
                state = state.update(system_state=structs.replace(found, held=others + held))
            return state
        case D20ConcentrationSaved():
            found = system_state(state)
            waiting = list(found.concentration_saves)
            for index, owed in enumerate(waiting):
                if owed.combatant_id == event.combatant_id:
                    del waiting[index]
                    break
            state = state.update(
                last_roll=event,
                last_roll_applied=True,
                system_state=structs.replace(found, concentration_saves=tuple(waiting)),
            )
            return state
        case D20ConcentrationStarted():
            sheet = sheet_of(state.combatant(event.combatant_id))
            return _sheet(
                state, event.combatant_id, structs.replace(sheet, concentrating=event.effect)
            )
        case D20ConcentrationEnded():
            sheet = sheet_of(state.combatant(event.combatant_id))
            state = _sheet(state, event.combatant_id, structs.replace(sheet, concentrating=""))
            found = system_state(state)
            return state.update(
                system_state=structs.replace(
                    found,
                    dropped=uses.dropped(state, event) if event.why == "failed" else (),
                    held=tuple(h for h in found.held if h.source_id != event.combatant_id),
                    concentration_saves=tuple(
                        w for w in found.concentration_saves if w.combatant_id != event.combatant_id
                    ),
                )
            )
        case D20Healed():
            sheet = sheet_of(state.combatant(event.target_id))
            state = _sheet(state, event.target_id, healed(sheet, event.amount, event.temporary))
            if event.usage == FREE or state.find(event.healer_id) is None:
                return state
            return spend(state, event.healer_id, event.usage, stamp_of(state))
        case D20Exhausted():
            sheet = sheet_of(state.combatant(event.combatant_id))
            return _sheet(state, event.combatant_id, exhausted(sheet, event.level))
        case D20Rested():
            for cid in event.combatant_ids:
                resting = state.find(cid)
                if resting is not None:
                    state = _sheet(state, cid, rested(sheet_of(resting)))
            return state
        case D20Stabilised():
            state = spend(state, event.medic_id, event.usage, event.stamp)
            sheet = sheet_of(state.combatant(event.target_id))
            if not event.success or sheet.dead or sheet.hp > 0:
                return state
            stable = structs.replace(sheet, death_successes=0, death_failures=0, stable=True)
            return _sheet(state, event.target_id, stable)
        case D20HitSaveOwed():
            found = system_state(state)
            kept = (*found.hit_saves, event.owed)[-COMBATANTS:]  # the oldest go first
            return state.update(system_state=structs.replace(found, hit_saves=kept))
        case D20Immune():  # said in the log; nothing changes
            return state
        case D20ReactionUsed():
            sheet = sheet_of(state.combatant(event.combatant_id))
            return _sheet(
                state, event.combatant_id, structs.replace(sheet, reaction_round=state.round)
            )
    raise TypeError(f"not a Generic d20 event: {event!r}")


def _spent(sheet: D20Sheet, stamp: Stamp, cost: int) -> D20Sheet:
    """Legendary actions spent now: only the last ``legendary`` stamps can still count."""
    keep = max(sheet.legendary - cost, 0)
    kept = sheet.legendary_spent[max(len(sheet.legendary_spent) - keep, 0) :] if keep else ()
    return structs.replace(sheet, legendary_spent=(*kept, *(stamp,) * cost))


def _damaged(state: D20Encounter, event: D20Damaged) -> D20Encounter:
    sheet = sheet_of(state.combatant(event.target_id))
    after = dealt(sheet, event)
    state = _sheet(state, event.target_id, after)
    if after.down and not sheet.down and state.current_id == event.target_id:
        # Dropped on its own turn: its first death save comes at the start of its next one.
        state = _marked(state, event.target_id)
    if after.concentrating and not after.down and event.amount > 0:
        found = system_state(state)
        owed = Waiting(event.target_id, max(CONCENTRATION_DC, event.amount // 2))
        state = state.update(
            system_state=structs.replace(
                found, concentration_saves=(*found.concentration_saves, owed)
            )
        )
    return state


def _death_saved(state: D20Encounter, event: D20DeathSaved) -> D20Encounter:
    sheet = sheet_of(state.combatant(event.combatant_id))
    if event.result == "revived":
        sheet = structs.replace(sheet, hp=1, death_successes=0, death_failures=0, stable=False)
    elif event.successes >= DEATH_SAVES:  # stable: "both reset to zero" (the log keeps them)
        sheet = structs.replace(sheet, death_successes=0, death_failures=0, stable=True)
    else:
        sheet = structs.replace(
            sheet,
            death_successes=event.successes,
            death_failures=event.failures,
            dead=event.failures >= DEATH_SAVES,
        )
    state = _sheet(state, event.combatant_id, sheet)
    state = state.update(last_roll=event, last_roll_applied=True)
    return _marked(state, event.combatant_id)


def _marked(state: D20Encounter, combatant_id: str) -> D20Encounter:
    found = system_state(state)
    kept = tuple(m for m in found.death_saved if m[0] != combatant_id)
    marks = (*kept, (combatant_id, state.round))
    return state.update(system_state=structs.replace(found, death_saved=marks))


def skipped(state: D20Encounter, combatant_id: str, what: str) -> D20Encounter:
    """What waited set aside: a death save marked rolled this turn, a concentration save
    dropped (the concentration kept)."""
    if what == "death save":
        return _marked(state, combatant_id)
    found = system_state(state)
    waiting = list(found.concentration_saves)
    for index, owed in enumerate(waiting):
        if owed.combatant_id == combatant_id:
            del waiting[index]
            break
    return state.update(system_state=structs.replace(found, concentration_saves=tuple(waiting)))


def hit_save_skipped(state: D20Encounter, owed: HitSave) -> D20Encounter:
    """The state without ``owed``, the save a hit asked for, set aside (``x``)."""
    found = system_state(state)
    left = list(found.hit_saves)
    if owed in left:
        left.remove(owed)
    return state.update(system_state=structs.replace(found, hit_saves=tuple(left)))


def _hit_save_met(state: D20Encounter, target_id: str, source_id: str) -> D20Encounter:
    """The state once ``target_id`` has rolled the save it owed ``source_id``'s hit."""
    owed = next(
        (
            o
            for o in system_state(state).hit_saves
            if o.target_id == target_id and o.source_id == source_id
        ),
        None,
    )
    return state if owed is None else hit_save_skipped(state, owed)
