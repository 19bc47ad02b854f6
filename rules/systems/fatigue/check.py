"""Fatigue & Thresholds: building a check from the sheets, and what paying it costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.dice import DiceSource
from rules.errors import Rejected

from .arithmetic import (
    Attitude,
    Cost,
    DiceKind,
    halved,
    merge,
    roll_stress,
    scaled,
    spacing,
)
from .events import DefenderWay, FatigueCheck, FatigueChecked, Side, sheet_of
from .sheet import (
    Consequence,
    Skill,
    Weapon,
    defense_consequence,
    fumble_consequence,
    task_penalties,
)

if TYPE_CHECKING:
    from .events import FatigueCombatant, FatigueEncounter


# --- building a check ------------------------------------------------------------------------


def resolve_skills(combatant: FatigueCombatant, names: tuple[str, ...]) -> tuple[Skill, ...]:
    sheet = sheet_of(combatant)
    out = []
    for name in names:
        skill = sheet.skill(name)
        if skill is None:
            known = ", ".join(s.name for s in sheet.skills) or "none"
            raise Rejected(f"{combatant.name} has no skill {name!r} (skills: {known})")
        out.append(skill)
    return tuple(out)


def make_side(
    combatant: FatigueCombatant,
    dice_kind: DiceKind,
    faces: tuple[int, ...],
    skills: tuple[str, ...],
    attitude: Attitude,
    effort: tuple[Cost, ...],
    relaxed_up: bool = False,
    spill: bool = False,
) -> Side:
    """A side's numbers, read from its sheet once this check's effort is paid: "Attempting
    to make any Difficulty Check first requires spending" N (and 3N more when intense)."""
    nominal = halved(effort, relaxed_up) if attitude.startswith("relaxed") else effort
    upfront = merge(nominal, scaled(nominal, 3)) if attitude == "intense" else nominal
    sheet = sheet_of(combatant).spent(upfront, spill)
    check_penalty, fumble_penalty = task_penalties(sheet, tuple(c.pool for c in nominal))
    return Side(
        combatant_id=combatant.id,
        dice=dice_kind,
        faces=faces,
        skills=resolve_skills(combatant, skills),
        penalty=check_penalty,
        attitude=attitude,
        effort=nominal,
        upfront=upfront,
        spacing=spacing(check_penalty, sheet.floor),
        floor=sheet.floor,
        fumble_penalty=fumble_penalty,
    )


def attack_weapon(attacker: FatigueCombatant | None, name: str) -> Weapon | None:
    if attacker is None or not name.strip():
        return None
    weapon = sheet_of(attacker).weapon(name.strip())
    if weapon is None:
        known = ", ".join(w.name for w in sheet_of(attacker).weapons) or "none"
        raise Rejected(f"{attacker.name} has no weapon {name.strip()!r} (weapons: {known})")
    return weapon


def defenders_of(
    state: FatigueEncounter, cmd: FatigueCheck
) -> list[tuple[FatigueCombatant, tuple[str, ...]]]:
    """Each defender of a check with the skills it rolls: the first its named skills, the
    others those of the named skills they have."""
    first = state.combatant(cmd.defender_id)
    out = [(first, cmd.defender_skills)]
    for combatant_id in cmd.more_defenders:
        other = state.combatant(combatant_id)
        if any(other.id == c.id for c, _ in out) or other.id == cmd.attacker_id:
            raise Rejected(f"{other.name} is already in this check")
        have = tuple(name for name in cmd.defender_skills if sheet_of(other).skill(name))
        out.append((other, have))
    return out


def check(state: FatigueEncounter, cmd: FatigueCheck, dice: DiceSource) -> FatigueChecked:
    attacker = state.combatant(cmd.attacker_id) if cmd.attacker_id is not None else None
    defenders = defenders_of(state, cmd)
    if attacker is not None and attacker.id == cmd.defender_id:
        raise Rejected(f"{attacker.name} cannot check against themselves")
    weapon = attack_weapon(attacker, cmd.weapon)
    effort = cmd.attacker_effort
    if effort is None:
        effort = (Cost("wind", weapon.n),) if weapon is not None else ()
    # Everything is checked before any die is rolled; then the attacker's dice, each
    # defender's in order.
    if attacker is not None:
        resolve_skills(attacker, cmd.attacker_skills)
    for defender, skills in defenders:
        resolve_skills(defender, skills)
    attack = None
    if attacker is not None:
        faces = roll_stress(dice, cmd.attacker_dice)
        attack = make_side(
            attacker,
            cmd.attacker_dice,
            faces,
            cmd.attacker_skills,
            cmd.attacker_attitude,
            effort,
            cmd.relaxed_up,
            cmd.spill,
        )
    # Each further defender rolls its own dice, attitude and N where the GM gave them
    # (issue 39, F4-14), else the Defender field's.
    ways = {way.combatant_id: way for way in cmd.ways}
    sides = []
    for defender, skills in defenders:
        way = ways.get(defender.id) or DefenderWay(combatant_id=defender.id)
        kind = way.dice or cmd.defender_dice
        sides.append(
            make_side(
                defender,
                kind,
                roll_stress(dice, kind),
                skills,
                way.attitude or cmd.defender_attitude,
                cmd.defender_effort if way.effort is None else way.effort,
                cmd.relaxed_up,
                cmd.spill,
            )
        )
    threshold = cmd.fumble_threshold
    if threshold is None:
        threshold = weapon.fumble if weapon is not None else 0
    # "When it is unclear who should play the role of the defender, the defender will
    # generally be whoever scores the lowest" (the first of them on a tie).
    defend = min(sides, key=lambda side: side.total) if cmd.lowest else sides[0]
    if cmd.lowest and attack is not None and attack.total < defend.total:
        # "Whoever scores the lowest", the one who started it included (issue 30, R3-13):
        # it defends against the best of the rest (the first of them on a tie), who swings
        # no weapon of the starter's and has no fumble line to beat.
        attack, defend = max(sides, key=lambda side: side.total), attack
        weapon, threshold = None, 0
    others = tuple(side for side in sides if side is not defend and side is not attack)
    return FatigueChecked(
        attacker=attack,
        defender=defend,
        nature_total=cmd.nature_total,
        weapon=weapon,
        fumble_threshold=threshold,
        waiting=() if cmd.lowest else others,
        spared=others if cmd.lowest else (),
        spill=cmd.spill,
    )


def next_comparison(roll: FatigueChecked) -> FatigueChecked | None:
    """The check against the next waiting defender who lost, with its own suckage, calling
    off and aid to come (the attacker's aid stays); None when no one is left to settle or
    the attacker fumbled (no meaningful attack was made)."""
    if roll.fumbled:
        return None
    waiting = roll.waiting
    attacker_aid = tuple(aid for aid in roll.aids if aid.side == "attacker")
    while waiting:
        found = structs.replace(
            roll,
            defender=waiting[0],
            waiting=waiting[1:],
            suckage=(),
            called_off=0,
            aids=attacker_aid,
        )
        if found.level is not None:
            return found
        waiting = waiting[1:]
    return None


def paying_sides(roll: FatigueChecked) -> tuple[Side, ...]:
    """Everyone who rolled in a check, each of whom paid its effort at the check."""
    attacker = (roll.attacker,) if roll.attacker is not None else ()
    return (*attacker, roll.defender, *roll.waiting, *roll.spared)


def first_comparison(roll: FatigueChecked) -> FatigueChecked:
    """A check as it opens: its first defender, or the first who lost when that one won."""
    if roll.level is None and not roll.fumbled:
        return next_comparison(roll) or roll
    return roll


def consequence_of(roll: FatigueChecked) -> tuple[str, Consequence] | None:
    """(who pays, what) for the last check, or None when nobody pays more."""
    level = roll.level
    sufferer = roll.sufferer
    if level is None or sufferer is None:
        return None
    if roll.fumbled:
        return sufferer.combatant_id, fumble_consequence(level, sufferer.effort, roll.weapon)
    return sufferer.combatant_id, defense_consequence(level, sufferer.effort, roll.weapon)


# --- paying -------------------------------------------------------------------------------------


def spend(
    state: FatigueEncounter, combatant_id: str, costs: tuple[Cost, ...], spill: bool = False
) -> FatigueEncounter:
    target = state.find(combatant_id)
    if target is None or not costs:
        return state
    sheet = sheet_of(target).spent(costs, spill)
    return state.replace_combatant(structs.replace(target, sheet=sheet))


def tradable_wind(roll: FatigueChecked) -> int:
    """The Wind of the open melee consequence the GM may trade (0: none to trade)."""
    found = consequence_of(roll)
    if found is None or roll.weapon is None or roll.weapon.kind != "melee" or roll.traded:
        return 0
    return sum(c.amount for c in found[1].costs if c.pool == "wind")
