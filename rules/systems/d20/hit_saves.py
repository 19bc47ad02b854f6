"""What a hit lays once its damage is dealt (rulings.md, "What a hit lays"): the condition an
attack lays ("the target is grappled"), or the saving throw it asks for (a ghoul's claws: a
DC 10 Constitution save or paralyzed). The save is owed, as a concentration save is: it
waits ("waiting (d)"), ``d`` rolls it as a save effect of the attacker's, ``x`` sets it
aside, solo play rolls it; what a failure brings then waits for ``d`` as any save's does.
The fold (the save owed, met, set aside) is ``apply.py``'s."""

from __future__ import annotations

from functools import reduce
from typing import TYPE_CHECKING, Any

from rules.conditions import Condition
from rules.events import ConditionAdded
from rules.logline import LogEntry, Span, spans
from rules.odds import percent

from . import apply
from .actions import D20Action, named
from .events import (
    FREE,
    D20HitSave,
    D20HitSaveOwed,
    D20Immune,
    D20SaveEffect,
    HitSave,
    sheet_of,
    system_state,
)
from .sheet import life_word
from .standing import immune, save_made
from .table import ABILITY_NAMES

if TYPE_CHECKING:
    from .events import D20Attacked, D20Combatant, D20Encounter

COMMANDS = (D20HitSave,)
EVENTS = (D20HitSaveOwed,)  # folded by apply.py, with the rest


def laid(state: D20Encounter, roll: D20Attacked, dealt: list[Any]) -> list[Any]:
    """What ``roll``, a hit, lays once ``dealt`` (its damage's events) is: its action's
    save owed, or its condition; nothing on a target it killed or with no such action."""
    attacker, action = _made_by(state, roll)
    if attacker is None or action is None or state.find(roll.target_id) is None:
        return []
    after = reduce(apply.apply, dealt, state).combatant(roll.target_id)
    if life_word(sheet_of(after)) == "dead":
        return []
    spared = bool(action.condition) and immune(after, action.condition)
    if spared and not action.save_damage:  # the save could bring nothing: none is asked
        return [D20Immune(after.id, action.condition)]
    if action.save_dc is not None:
        ability, dc = action.save_dc
        owed = HitSave(
            roll.target_id,
            attacker.id,
            action.name,
            ability,
            dc,
            action.save_damage,
            action.half,
            action.condition,
            action.repeat and bool(action.condition),
            action.magical,
        )
        return [D20HitSaveOwed(owed)]
    if after.condition(action.condition) is not None:
        return []
    if spared:
        return [D20Immune(after.id, action.condition)]
    return [ConditionAdded(after.id, Condition(action.condition))]


def _made_by(
    state: D20Encounter, roll: D20Attacked
) -> tuple[D20Combatant | None, D20Action | None]:
    """The attacker and its action that ``roll`` made, when that action lays something."""
    attacker = state.find(roll.attacker_id)
    if attacker is None or not roll.action:
        return None, None
    action = _laying(attacker, roll.action)
    return (attacker, action) if action is not None else (None, None)


def _laying(attacker: D20Combatant, name: str) -> D20Action | None:
    """``attacker``'s attack called ``name`` when it lays a condition or asks for a save."""
    sheet = sheet_of(attacker)
    action = named((*sheet.actions, *sheet.legendary_actions, *sheet.reactions), name)
    if action is None or action.bonus is None or not (action.save or action.condition):
        return None
    return action


def then(state: D20Encounter, roll: D20Attacked, dealt: list[Any]) -> str:
    """What follows a hit waiting to be dealt (``dealt``, its damage's events), for the
    header: ``, then a Con save DC 10``, ``, and grappled``, or "" when it lays nothing."""
    _, action = _made_by(state, roll)
    if action is None or not laid(state, roll, dealt):
        return ""
    if action.save_dc is None:
        return f", and {action.condition}"
    ability, dc = action.save_dc
    return f", then a {ability.capitalize()} save DC {dc}"


def hit_note(state: D20Encounter, attacker: D20Combatant, target: D20Combatant, name: str) -> str:
    """The attack dialog's words for what its hit lays ("; on a hit: Con save DC 10, Orla
    fails 35.0%: paralyzed, save ends"), "" for an attack that lays nothing."""
    action = _laying(attacker, name)
    if action is None:
        return ""
    condition = action.condition
    if condition and immune(target, condition):
        condition = f"{condition} ({target.name} is immune)"
    if action.save_dc is None:
        return f"; on a hit: {condition}"
    ability, dc = action.save_dc
    on_save = "half" if action.half else "none"
    damage = f"{action.save_damage} ({on_save} on a save)" if action.save_damage else ""
    lays = [w for w in (damage, condition) if w]
    ends = ", save ends" if action.repeat and action.condition else ""
    return (
        f"; on a hit: {ability.capitalize()} save DC {dc}, {target.name} fails "
        f"{percent(1 - save_made(target, ability, dc, action.magical, action.condition))}: "
        f"{', '.join(lays) or 'nothing more'}{ends}"
    )


def waiting(state: D20Encounter) -> HitSave | None:
    """The first save owed by a target still standing to an attacker still here."""
    for owed in system_state(state).hit_saves:
        target = state.find(owed.target_id)
        if target is None or state.find(owed.source_id) is None:
            continue
        if life_word(sheet_of(target)) != "dead":
            return owed
    return None


def effect_of(owed: HitSave) -> D20SaveEffect:
    """The save effect that rolls ``owed``: the attacker's, and it spends nothing more."""
    return D20SaveEffect(
        source_id=owed.source_id,
        target_ids=(owed.target_id,),
        effect=owed.action,
        ability=owed.ability,
        dc=owed.dc,
        damage=owed.damage,
        half=owed.half,
        condition=owed.condition,
        repeat=owed.repeat,
        usage=FREE,
        magical=owed.magical,
    )


def pending(state: D20Encounter, owed: HitSave) -> str:
    """What waits, in the header's words, with the chance it is made."""
    target = state.combatant(owed.target_id)
    made = save_made(target, owed.ability, owed.dc, owed.magical, owed.condition)
    return (
        f"{state.name_of(owed.target_id)}: {owed.ability.capitalize()} save DC {owed.dc} "
        f"against {state.name_of(owed.source_id)}'s {owed.action} ({percent(made)})"
    )


def describe(state: D20Encounter, event: D20HitSaveOwed) -> LogEntry:
    owed = event.owed
    ability = ABILITY_NAMES.get(owed.ability, owed.ability)
    line = spans(
        Span(state.name_of(owed.target_id), "name"),
        f" must make a {ability} save, DC ",
        Span(str(owed.dc), "total"),
        f", against {state.name_of(owed.source_id)}'s {owed.action}",
    )
    return LogEntry("consequence", (line,))
