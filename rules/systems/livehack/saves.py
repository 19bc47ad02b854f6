"""LiveHack's rolls a character makes against a number, with the effort declared before
them (*Effort*): an aid, a grim test, a dying or transformation save, an attribute check."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected

from .decide import added, check_can_act, check_take_ten, pair, removed
from .effort import effort_part, pushed
from .events import (
    STABILIZE_MOS,
    WATCHING,
    LiveHackAid,
    LiveHackAidRolled,
    LiveHackBecameGrimlock,
    LiveHackGrimTest,
    LiveHackRolled,
    LiveHackSave,
    LiveHackSaveRolled,
    LiveHackState,
    Part,
    aid_bonus,
    grim_experience,
    is_dazed,
    roll_side,
    static_side,
)
from .parts import (
    DEFENSE_ATTRIBUTE,
    aid_parts,
    attribute_label,
    defender_parts,
    keeps_skill_bonus,
    skill_and_attribute,
)
from .sheet import LiveHackSheet, bond_with

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter


def aid(state: LiveHackEncounter, cmd: LiveHackAid, dice: DiceSource) -> list[object]:
    """*Aiding*: "an appropriate resolution roll": the skill and attribute the helper
    chooses, its bond with the aided one ("always added"), its effort, against the GM's DR."""
    helper, aided = pair(state, cmd.helper_id, cmd.aided_id)
    through = check_can_act(helper, cmd.gm_overrides, "aid")
    check_take_ten(helper, cmd.take, cmd.gm_allows_ten, "helps")
    checks, effort = pushed(state, helper, cmd.effort, dice)
    parts = skill_and_attribute(helper.sheet, cmd.skill, cmd.attribute)
    bond = bond_with(helper.sheet, aided.name)
    if bond:
        parts.append(Part(f"bond {aided.name}", bond))
    parts += [*effort_part(effort), *aid_parts(state, helper.id)]
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    side = roll_side(tuple(parts), cmd.take, dice, helper.id)
    target = static_side("DR", (Part("DR", cmd.dr),))
    bonus = aid_bonus(side.total - cmd.dr)
    rolled = LiveHackAidRolled(
        helper=side,
        target=target,
        aided_id=aided.id,
        bonus=bonus,
        effort=effort,
        acts_though=through,
    )
    return [*checks, rolled]


def grim_test(state: LiveHackEncounter, cmd: LiveHackGrimTest, dice: DiceSource) -> list[object]:
    """A grim test, after the Con roll its effort needs at Con -5."""
    person = state.combatant(cmd.combatant_id)
    check_take_ten(person, cmd.take, cmd.gm_allows_ten, "resists")
    checks, effort = pushed(state, person, cmd.effort, dice)
    return [*checks, grim_roll(state, structs.replace(cmd, effort=effort), dice)]


def grim_roll(state: LiveHackEncounter, cmd: LiveHackGrimTest, dice: DiceSource) -> LiveHackRolled:
    """The grim test itself, with the effort declared (the odds read it, without dice)."""
    person = state.combatant(cmd.combatant_id)
    experience = grim_experience(cmd.experience)
    parts = [Part("DR", experience.dr)]
    if experience.bond and cmd.companion.strip():
        bond = bond_with(person.sheet, " ".join(cmd.companion.split()))
        parts.append(Part(f"bond {cmd.companion.strip()}", bond))
    if cmd.watching:
        parts.append(Part("watching", -WATCHING))
    # The experience acts and the character resists with "will plus any current grimness":
    # a grim test is read through the damage table like a damage roll.
    side = static_side(experience.label, tuple(parts))
    resist = (
        *defender_parts(person, "will", 0, grim=True),
        *effort_part(cmd.effort),
        *aid_parts(state, person.id),
    )
    defend = roll_side(resist, cmd.take, dice, person.id)
    return LiveHackRolled(
        attacker=side,
        defender=defend,
        defense="will",
        trait="grimness",
        kind="grim",
        note=experience.label,
        defender_effort=cmd.effort,  # the character resists: its effort is the defender's
        keeps=keeps_skill_bonus(state, person.id),
    )


SAVES = {"dying": "saves", "transforming": "saves", "check": "checks"}


def save(state: LiveHackEncounter, cmd: LiveHackSave, dice: DiceSource) -> list[object]:
    """A save or check, after the Con roll its effort needs at Con -5."""
    person = state.combatant(cmd.combatant_id)
    check_take_ten(person, cmd.take, cmd.gm_allows_ten, SAVES[cmd.kind])
    checks, effort = pushed(state, person, cmd.effort, dice)
    cmd = structs.replace(cmd, effort=effort)
    match cmd.kind:
        case "dying":
            return [*checks, *_dying_save(state, person, cmd, dice)]
        case "transforming":
            return [*checks, *_transform_save(state, person, cmd, dice)]
        case "check":
            return [*checks, _check(state, person, cmd, dice)]


def _save_side(
    state: LiveHackEncounter, person: LiveHackCombatant, defense: str, cmd: LiveHackSave
) -> tuple[Part, ...]:
    sheet: LiveHackSheet = person.sheet
    attribute = DEFENSE_ATTRIBUTE[defense]
    if defense == "will" and is_dazed(person):
        # *Discombobulation*: "not able to respond ... including using reflex or will to make
        # saves. Consider these saves as 0": the Will save counts 0, Wis with it, as the Will
        # defense does (``defender_parts``); Fortitude is not named, so a dying save is whole.
        own = [Part("Will 0 (dazed)", 0)]
    else:
        own = [
            Part(defense.capitalize(), sheet.defense(defense)),
            Part(attribute_label(attribute), sheet.attribute(attribute)),
        ]
    parts = [*own, *effort_part(cmd.effort), *aid_parts(state, person.id)]
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    return tuple(parts)


def _dying_save(
    state: LiveHackEncounter, person: LiveHackCombatant, cmd: LiveHackSave, dice: DiceSource
) -> list[object]:
    if person.condition("Dead"):
        raise Rejected(f"{person.name} is dead")
    if not (person.condition("Dying") or person.condition("Comatose")):
        raise Rejected(f"{person.name} is not dying")
    sheet: LiveHackSheet = person.sheet
    dr = sheet.wounds if cmd.dr is None else cmd.dr
    side = roll_side(_save_side(state, person, "fortitude", cmd), cmd.take, dice, person.id)
    target = static_side("Wounds", (Part("Wounds", dr),))
    margin = side.total - dr
    events: list[object] = []
    if margin >= STABILIZE_MOS:
        outcome = "stabilizes"
        events = [*removed(person, "Dying", "Comatose"), added(state, person.id, "Stabilized")]
        if not person.condition("Incapacitated"):
            events.append(added(state, person.id, "Incapacitated"))
    elif margin >= 0:
        outcome = "holds on"
    elif person.condition("Comatose"):
        outcome = "dies"
        events = [*removed(person, "Dying", "Comatose"), added(state, person.id, "Dead")]
    else:
        outcome = "falls into a coma"
        events = [added(state, person.id, "Comatose")]
    roll = LiveHackSaveRolled(
        kind="dying", roller=side, target=target, outcome=outcome, effort=cmd.effort
    )
    return [roll, *events]


def _transform_save(
    state: LiveHackEncounter, person: LiveHackCombatant, cmd: LiveHackSave, dice: DiceSource
) -> list[object]:
    if not person.condition("Transforming"):
        raise Rejected(f"{person.name} is not transforming")
    system: LiveHackState = state.system_state
    grimlock = person.id in system.grimlocks
    sheet: LiveHackSheet = person.sheet
    default = sheet.grimness if grimlock else sheet.wounds
    dr = default if cmd.dr is None else cmd.dr
    side = roll_side(_save_side(state, person, cmd.defense, cmd), cmd.take, dice, person.id)
    target = static_side("DR", (Part("DR", dr),))
    margin = side.total - dr
    events: list[object] = []
    if margin >= STABILIZE_MOS:
        outcome = "self-stabilizes"
        events = removed(person, "Transforming")
    elif margin >= 0:
        outcome = "holds the transformation off"
    else:
        outcome = "completes the transformation"
        events = removed(person, "Transforming")
        if grimlock:
            events.append(LiveHackBecameGrimlock(combatant_id=person.id, grim=sheet.grimness))
        else:
            events.append(added(state, person.id, "Transformed"))
    roll = LiveHackSaveRolled(
        kind="transforming", roller=side, target=target, outcome=outcome, effort=cmd.effort
    )
    return [roll, *events]


def _check(
    state: LiveHackEncounter, person: LiveHackCombatant, cmd: LiveHackSave, dice: DiceSource
) -> LiveHackSaveRolled:
    sheet: LiveHackSheet = person.sheet
    parts = [Part(attribute_label(cmd.attribute), sheet.attribute(cmd.attribute))]
    parts += [*effort_part(cmd.effort), *aid_parts(state, person.id)]
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    dr = 0 if cmd.dr is None else cmd.dr
    side = roll_side(tuple(parts), cmd.take, dice, person.id)
    outcome = "passes" if side.total >= dr else "fails"
    target = static_side("DR", (Part("DR", dr),))
    return LiveHackSaveRolled(
        kind="check", roller=side, target=target, outcome=outcome, effort=cmd.effort
    )
