"""How LiveHack's events change the state: sheets, the margin bonus rolled over, aids, joint
actions, Grimlocks and the turn notes solo play reads. Never rolls or refuses: saves and undo
replay it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from msgspec import structs

from rules.bounds import TEXT
from rules.conditions import Condition

from .events import (
    Aid,
    LiveHackAidRolled,
    LiveHackBecameGrimlock,
    LiveHackHealed,
    LiveHackJointRolled,
    LiveHackPositionHeld,
    LiveHackPositionLost,
    LiveHackRolled,
    LiveHackSaveRolled,
    LiveHackState,
    LiveHackTraitInflicted,
    Rollover,
    margin_bonus,
)
from .parts import skill_bonus
from .sheet import TRAIT_FIELDS, Held, LiveHackSheet

if TYPE_CHECKING:
    from .events import LiveHackEncounter


FELL_DYING = "dying:fell"  # a turn mark: fell dying this round, its save is at the round's end


def apply(state: LiveHackEncounter, event: object) -> LiveHackEncounter:
    match event:
        case LiveHackRolled():
            return _rolled(state, event)
        case LiveHackJointRolled():
            state = _rolled(state, event.rolls[event.chosen])
            state = _aided(state, *(r.attacker.combatant_id for r in event.rolls))
            for i, roll in enumerate(event.rolls):  # the chosen one's effort is paid above
                if i != event.chosen:
                    state = _pushed(state, roll.attacker.combatant_id, roll.effort)
            return state.update(system_state=structs.replace(livehack_state(state), joint=event))
        case LiveHackAidRolled():
            state = _aided(state, event.helper.combatant_id)
            state = _pushed(state, event.helper.combatant_id, event.effort)
            aid = decide_aid(event)
            system = livehack_state(state)
            return state.update(system_state=structs.replace(system, aids=(*system.aids, aid)))
        case LiveHackSaveRolled():
            what: str = event.kind
            if event.kind == "check" and event.roller.parts:
                what = f"check {event.roller.parts[0].label}"
            if not event.note:  # a check before a roll leaves the aid to that roll
                state = _aided(state, event.roller.combatant_id)
            state = _pushed(state, event.roller.combatant_id, event.effort)
            return _marked(state, event.roller.combatant_id, f"{what}:{event.outcome}")
        case LiveHackTraitInflicted():
            return _inflicted(state, event)
        case LiveHackPositionHeld():
            return _held(state, event)
        case LiveHackPositionLost():
            return _lost(state, event)
        case LiveHackHealed():
            return _sheet_change(
                state, event.combatant_id, lambda s: {"wounds": max(s.wounds - event.levels, 0)}
            )
        case LiveHackBecameGrimlock():
            return _grimlock(state, event)
    raise TypeError(f"not a LiveHack event: {event!r}")


def livehack_state(state: LiveHackEncounter) -> LiveHackState:
    system = state.system_state
    assert isinstance(system, LiveHackState)
    return system


def _marked(state: LiveHackEncounter, cid: str | None, what: str) -> LiveHackEncounter:
    """Note what a combatant the tracker plays rolled this round (older notes are dropped)."""
    found = state.find(cid)
    if found is None or not state.is_solo(found):
        return state  # only solo play reads the notes: other fights keep none
    system = livehack_state(state)
    prefix = f"{state.round}:"
    kept = tuple(m for m in system.turn_marks if m.startswith(prefix))
    marks = (*kept, f"{prefix}{cid}:{what}")
    return state.update(system_state=structs.replace(system, turn_marks=marks))


def marked_id(mark: str) -> str:
    """Whose a turn mark is (``round:id:what``)."""
    return mark.partition(":")[2].partition(":")[0]


def _aided(state: LiveHackEncounter, *rollers: str | None) -> LiveHackEncounter:
    """*Aiding*: an aid is spent by the aided one's next roll of its own (``aid_parts``)."""
    system = livehack_state(state)
    if not system.aids:
        return state  # nearly always: every roll asks
    aids = tuple(a for a in system.aids if a.aided_id not in rollers)
    if aids == system.aids:
        return state
    return state.update(system_state=structs.replace(system, aids=aids))


def decide_aid(event: LiveHackAidRolled) -> Aid:
    return Aid(
        aided_id=event.aided_id, helper_id=event.helper.combatant_id or "", bonus=event.bonus
    )


def _sheet_change(
    state: LiveHackEncounter, cid: str, change: Callable[[LiveHackSheet], dict[str, object]]
) -> LiveHackEncounter:
    target = state.combatant(cid)
    sheet: LiveHackSheet = target.sheet
    return state.replace_combatant(
        structs.replace(target, sheet=structs.replace(sheet, **change(sheet)))
    )


def _rolled(state: LiveHackEncounter, event: LiveHackRolled) -> LiveHackEncounter:
    system = livehack_state(state)
    attacker_id = event.attacker.combatant_id
    defender_id = event.defender.combatant_id
    # R3-05: a skill success's bonus waits for its own roller, through others' rolls (an
    # older save's rolls never keep one: ``keeps`` is False in them).
    kept = skill_bonus(state) if event.keeps else None
    state = state.update(
        last_roll=event,
        last_roll_applied=False,
        system_state=structs.replace(system, rollover=_rollover(event), kept=kept, joint=None),
    )
    # The aid is spent by the roller's own roll: the character resisting a grim test, the
    # actor otherwise (a defender's aid waits for its own action).
    state = _aided(state, defender_id if event.kind == "grim" else attacker_id)
    if event.kind == "roll" and attacker_id is not None and attacker_id == state.current_id:
        state = _marked(state, attacker_id, event.defense)
    state = _pushed(state, defender_id, event.defender_effort)
    if attacker_id is None or state.find(attacker_id) is None:
        return state

    def spend(sheet: LiveHackSheet) -> dict[str, object]:
        changes: dict[str, object] = {
            "fatigue": sheet.fatigue + event.effort,
            "effort_spent": sheet.effort_spent + event.effort,
        }
        if event.cashed:
            changes["held"] = tuple(h for h in sheet.held if h.target_id != defender_id)
        return changes

    return _sheet_change(state, attacker_id, spend)


def _rollover(event: LiveHackRolled) -> Rollover | None:
    """The margin bonus a roll carries to the next ("Rolling over"): only a hit's, or a
    skill's success's; a damage roll's margin is read by the table. The margin is worked
    out once: it is a sum of every part and die, and every roll of a fold asks (a long
    fight's check, a forecast's runs)."""
    attacker_id = event.attacker.combatant_id
    defender_id = event.defender.combatant_id
    if event.kind != "roll" or event.answers_table or not (attacker_id and defender_id):
        return None
    bonus = margin_bonus(event.margin)  # none for a failure (a margin under 0)
    return Rollover(attacker_id, defender_id, bonus) if bonus else None


def _pushed(state: LiveHackEncounter, cid: str | None, effort: int) -> LiveHackEncounter:
    """*Effort*: "for each point of effort used on a roll, the Adventurer adds one to their
    Fatigue rating"; counted against the +5 a combat allows."""
    if not effort or cid is None or state.find(cid) is None:
        return state
    return _sheet_change(
        state,
        cid,
        lambda s: {"fatigue": s.fatigue + effort, "effort_spent": s.effort_spent + effort},
    )


def _inflicted(state: LiveHackEncounter, event: LiveHackTraitInflicted) -> LiveHackEncounter:
    field = TRAIT_FIELDS[event.trait]
    state = _sheet_change(
        state, event.combatant_id, lambda s: {field: getattr(s, field) + event.levels}
    )
    if event.falls_dying:
        state = _marked(state, event.combatant_id, FELL_DYING)
    system = livehack_state(state)
    if event.grimlock and event.combatant_id not in system.grimlocks:
        system = structs.replace(system, grimlocks=(*system.grimlocks, event.combatant_id))
    return state.update(last_roll_applied=True, system_state=system)


def _held(state: LiveHackEncounter, event: LiveHackPositionHeld) -> LiveHackEncounter:
    def add(sheet: LiveHackSheet) -> dict[str, object]:
        total = sheet.held_over(event.target_id) + event.bonus
        # The position as it is now described (an older save's hold kept the one it had).
        described = event.description or sheet.position_over(event.target_id)
        others = tuple(h for h in sheet.held if h.target_id != event.target_id)
        return {"held": (*others, Held(event.target_id, total, described))}

    state = _sheet_change(state, event.holder_id, add)
    system = structs.replace(livehack_state(state), rollover=None)
    return state.update(system_state=system, last_roll_applied=True)


def _lost(state: LiveHackEncounter, event: LiveHackPositionLost) -> LiveHackEncounter:
    state = _sheet_change(
        state,
        event.holder_id,
        lambda s: {"held": tuple(h for h in s.held if h.target_id != event.target_id)},
    )
    if event.by_id is None:
        return state
    # Cancelling spends the canceller's margin bonus, and "does not do damage".
    system = structs.replace(livehack_state(state), rollover=None)
    return state.update(system_state=system, last_roll_applied=True)


def _grimlock(state: LiveHackEncounter, event: LiveHackBecameGrimlock) -> LiveHackEncounter:
    state = _sheet_change(
        state,
        event.combatant_id,
        lambda s: {"strength": s.strength + event.grim, "wisdom": s.wisdom - event.grim},
    )
    target = state.combatant(event.combatant_id)
    # Said once, however often it happens (a fold must never grow a note or a list past what
    # a save may hold: the save would no longer open).
    notes, said = target.notes, "Grimlock: blind sight"
    if said not in notes and len(notes) + len(said) + 2 <= TEXT:
        notes = (notes + "; " if notes else "") + said
    conditions = target.conditions
    if not target.condition("Grimlock"):
        conditions = (*conditions, Condition("Grimlock"))
    changed = structs.replace(target, side="grimlocks", notes=notes, conditions=conditions)
    system = livehack_state(state)
    grimlocks = tuple(g for g in system.grimlocks if g != event.combatant_id)
    return state.replace_combatant(changed).update(
        system_state=structs.replace(system, grimlocks=grimlocks)
    )
