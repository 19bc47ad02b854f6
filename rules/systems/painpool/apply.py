"""How Pain Pool's events change the state: tokens, boons, bonus dice, the open roll and its
re-rolls. Never rolls or refuses: saves and undo replay it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from .events import (
    BonusGranted,
    BonusPassed,
    BoonsDamaged,
    DespairSpent,
    HopeSpent,
    PainPoolState,
    SceneEnded,
    TokensLost,
    changed_roll,
    end_scene,
    hit_boons,
    named_challenge,
    named_hero,
    open_roll,
    spend_held,
    tokens,
    with_sheet,
)
from .roll import (
    PainPoolRolled,
)
from .sheet import (
    HeldBonus,
    HeroSheet,
)

if TYPE_CHECKING:
    from .events import PainPoolEncounter


def apply(state: PainPoolEncounter, event: object) -> PainPoolEncounter:
    match event:
        case PainPoolRolled():
            return apply_roll(state, event)
        case DespairSpent():
            pot = tokens(state)
            spent = PainPoolState(despair=pot.despair - 1, hope=pot.hope + 1)
            changed = changed_roll(open_roll(state), event)
            return reroll(state.update(system_state=spent), changed)
        case HopeSpent():
            changed = changed_roll(open_roll(state), event)
            who = named_hero(state, event.hero_id)
            pot = tokens(state)
            paid = structs.replace(who.sheet, favor=who.sheet.favor - event.raised)
            state = with_sheet(state, who, paid)
            state = state.update(system_state=structs.replace(pot, hope=pot.hope - 1))
            return reroll(state, changed)
        case TokensLost():
            foe = named_challenge(state, event.challenge_id)
            lost = structs.replace(foe.sheet, lost=foe.sheet.lost + event.tokens)
            return with_sheet(state, foe, lost).update(last_roll_applied=True)
        case BonusGranted():
            who = named_hero(state, event.hero_id)
            held = (*who.sheet.held, HeldBonus(name=event.name, sticky=event.sticky))
            state = with_sheet(state, who, structs.replace(who.sheet, held=held))
            return state.update(last_roll_applied=True)
        case BoonsDamaged():
            who = named_hero(state, event.hero_id)
            sheet = structs.replace(
                who.sheet,
                boons=hit_boons(who.sheet, event.hits, event.harm),
                impacted=event.impacted or who.sheet.impacted,
            )
            return with_sheet(state, who, sheet).update(last_roll_applied=True)
        case SceneEnded():
            for each in state.combatants:
                if isinstance(each.sheet, HeroSheet):
                    ended = end_scene(each.sheet, event.heal, event.bonus_ends)
                    state = with_sheet(state, each, ended)
            return state
        case BonusPassed():
            holder = named_hero(state, event.hero_id)
            die = holder.sheet.held[event.index]
            rest = holder.sheet.held[: event.index] + holder.sheet.held[event.index + 1 :]
            state = with_sheet(state, holder, structs.replace(holder.sheet, held=rest))
            if event.to_id:
                to = named_hero(state, event.to_id)
                held = (*to.sheet.held, die)
                state = with_sheet(state, to, structs.replace(to.sheet, held=held))
            return state
    raise TypeError(f"not a Pain Pool event: {event!r}")


def apply_roll(state: PainPoolEncounter, roll: PainPoolRolled) -> PainPoolEncounter:
    who = named_hero(state, roll.hero_id)
    state = with_sheet(state, who, spend_held(who.sheet, roll.spent, roll.favor_spent))
    if roll.despair_given:
        pot = tokens(state)
        state = state.update(system_state=structs.replace(pot, despair=pot.despair + 1))
    return state.update(last_roll=roll, last_roll_applied=False)


def reroll(state: PainPoolEncounter, roll: PainPoolRolled) -> PainPoolEncounter:
    """A changed roll: the first time Pain dominates it, the GM gains a Despair token."""
    if roll.dominant == "pain" and not roll.despair_given:
        roll = structs.replace(roll, despair_given=True)
        pot = tokens(state)
        state = state.update(system_state=structs.replace(pot, despair=pot.despair + 1))
    return state.update(last_roll=roll)
