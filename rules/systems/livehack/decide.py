"""LiveHack's decisions: commands checked and turned into events (dice only from DiceSource)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.conditions import Condition, Duration
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import ConditionAdded, ConditionRemoved

from .events import (
    CONDITION_DURATIONS,
    DAZED,
    POSITION_LENGTH,
    STABILIZE_MOS,
    WATCHING,
    LiveHackAid,
    LiveHackAidRolled,
    LiveHackBecameGrimlock,
    LiveHackCancel,
    LiveHackDrop,
    LiveHackGrimTest,
    LiveHackHeal,
    LiveHackHealed,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackJointRolled,
    LiveHackPositionHeld,
    LiveHackPositionLost,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackSave,
    LiveHackSaveRolled,
    LiveHackState,
    LiveHackTraitInflicted,
    Part,
    Rollover,
    Take,
    aid_bonus,
    condition_for,
    grim_experience,
    roll_side,
    static_side,
)
from .parts import (
    DEFENSE_ATTRIBUTE,
    aid_parts,
    attribute_label,
    check_effort,
    defender_parts,
    defending_parts,
    helper_bond,
    needs_effort_check,
    paired_skill,
    roll_parts,
    skill_and_attribute,
)
from .sheet import (
    ATTRIBUTE_FIELDS,
    TRAIT_FIELDS,
    LiveHackSheet,
    bond_with,
    offset_effects,
)

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

UNTIL_REMOVED = Duration("until-removed")
FALLS_DOWN = ("Incapacitated", "Dying")


def _added(state: Encounter, cid: str, name: str, duration: Duration = UNTIL_REMOVED) -> object:
    return ConditionAdded(cid, Condition(name, duration, state.expiry_for(cid, duration)))


def _removed(target: Combatant, *names: str) -> list[object]:
    return [ConditionRemoved(target.id, n) for n in names if target.condition(n)]


def _pair(state: Encounter, first_id: str, second_id: str) -> tuple[Combatant, Combatant]:
    first, second = state.combatant(first_id), state.combatant(second_id)
    if first.id == second.id:
        raise Rejected(f"{first.name} cannot roll against themselves")
    return first, second


def roll(state: Encounter, cmd: LiveHackRoll, dice: DiceSource) -> list[object]:
    """An opposed roll, after the Con checks a side at Con -5 makes to push its effort
    (*Cumulative Offset Penalties*: "must make a Con roll vs DR 0 to expend Fatigue"): a
    failed check leaves that side's effort unspent, out of the roll and its Fatigue."""
    attacker, defender = _pair(state, cmd.attacker_id, cmd.defender_id)
    check_effort(attacker, cmd.effort)
    check_effort(defender, cmd.defender_effort)
    check_take_ten(attacker, cmd.attacker_take, cmd.attacker_gm_allows_ten, "attacks")
    check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
    events: list[object] = []
    efforts = []
    for person, effort in ((attacker, cmd.effort), (defender, cmd.defender_effort)):
        check = effort_check(state, person, effort, dice)
        if check is not None:
            events.append(check)
        efforts.append(0 if check is not None and check.outcome != "passes" else effort)
    pushed = structs.replace(cmd, effort=efforts[0], defender_effort=efforts[1])
    return [*events, opposed(state, pushed, dice)]


def effort_check(
    state: Encounter, person: Combatant, effort: int, dice: DiceSource
) -> LiveHackSaveRolled | None:
    """The Con roll vs DR 0 that effort at Con -5 needs (None when it needs none)."""
    if not effort or not needs_effort_check(person):
        return None
    sheet: LiveHackSheet = person.sheet
    # An aid waits for the action itself, not for this check before it.
    side = roll_side((Part("Con", sheet.attribute("con")),), "roll", dice, person.id)
    passes = side.total >= 0
    return LiveHackSaveRolled(
        kind="check",
        roller=side,
        target=static_side("DR", (Part("DR", 0),)),
        outcome="passes" if passes else "fails: the effort is not spent",
        note=f"Con -5, to push +{effort} effort",
    )


def check_take_ten(person: Combatant, take: str, allowed: bool, does: str = "defends") -> None:
    """*Taking Ten*: "If the Adventurers take plenty of time": a monster takes no ten, in
    defense or attack, unless the GM allows it."""
    sheet: LiveHackSheet = person.sheet
    if take == "ten" and sheet.stat_block and not allowed:
        raise Rejected(
            f"Take Ten needs plenty of time: {person.name}, a monster, {does} by rolling or "
            "taking zero (the GM may allow it: Take Ten (GM allows))"
        )


def opposed(state: Encounter, cmd: LiveHackRoll, dice: DiceSource) -> LiveHackRolled:
    """The opposed roll itself, with the effort declared (the odds read it, without dice)."""
    attacker, defender = _pair(state, cmd.attacker_id, cmd.defender_id)
    parts = roll_parts(state, attacker, defender, cmd)
    defend_parts = defending_parts(state, defender, cmd)
    # The attacker's dice are rolled first, then the defender's, so a script reads in order.
    attack = roll_side(parts, cmd.attacker_take, dice, attacker.id)
    defend = roll_side(defend_parts, cmd.defender_take, dice, defender.id)
    return LiveHackRolled(
        attacker=attack,
        defender=defend,
        defense=cmd.defense,
        trait=cmd.trait,
        effort=cmd.effort,
        defender_effort=cmd.defender_effort,
        cashed=cmd.cash_in,
        grim_advantage=bool(cmd.grim_goal),
        grim_goal=cmd.grim_goal,
        note=paired_skill(cmd) if cmd.defense == "skill" else "",
        skill=cmd.skill,
        attribute=cmd.attribute,
        specialty=cmd.specialty,
        bond=cmd.bond,
        items=cmd.items,
    )


def joint(state: Encounter, cmd: LiveHackJointRoll, dice: DiceSource) -> LiveHackJointRolled:
    ids = tuple(dict.fromkeys(cmd.participant_ids))
    if len(ids) < 2:
        raise Rejected("A joint action needs at least two participants")
    defender = state.combatant(cmd.defender_id)
    if defender.id in ids:
        raise Rejected(f"{defender.name} cannot work with others against themselves")
    check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
    takes = joint_takes(cmd.takes, len(ids))
    sides = []
    for cid, take in zip(ids, takes, strict=True):
        person = state.combatant(cid)
        check_take_ten(person, take, cmd.participants_gm_allow_ten, "works with the others")
        parts = _joint_parts(person, cmd)
        bond = helper_bond(state, person, ids)
        if bond is not None:
            parts.append(bond)
        parts += aid_parts(state, cid)
        sides.append(roll_side(tuple(parts), take, dice, cid))
    defend_parts = defender_parts(defender, cmd.defense, 0)
    defend = roll_side(defend_parts, cmd.defender_take, dice, defender.id)
    rolls = tuple(
        LiveHackRolled(
            attacker=side,
            defender=defend,
            defense=cmd.defense,
            trait=cmd.trait,
            skill=cmd.skill,
            attribute=cmd.attribute,
        )
        for side in sides
    )
    margins = [r.margin for r in rolls]
    # Cooperation: "the best margin among them is used"; Chaos: "taking the lowest roll".
    pick = max(margins) if cmd.kind == "cooperation" else min(margins)
    return LiveHackJointRolled(kind=cmd.kind, rolls=rolls, chosen=margins.index(pick))


def joint_takes(takes: tuple[Take, ...], count: int) -> tuple[Take, ...]:
    """Every participant's dice: as given one by one, one for all, or all rolling."""
    if not takes:
        rolling: Take = "roll"
        return (rolling,) * count
    if len(takes) == 1:
        return takes * count
    if len(takes) != count:
        raise Rejected(f"Give the dice of each of the {count} participants, or one for all")
    return takes


def _joint_parts(person: Combatant, cmd: LiveHackJointRoll) -> list[Part]:
    """A participant's skill (0 and said so when untrained: all of them still roll) and
    attribute; without a skill named, the attack bonus."""
    sheet: LiveHackSheet = person.sheet
    if cmd.skill:
        wanted = " ".join(cmd.skill.split()).casefold()
        skill = next((r for r in sheet.skills if r.name.casefold() == wanted), None)
        parts = [Part(skill.name, skill.value) if skill else Part(f"{cmd.skill} (untrained)", 0)]
    else:
        parts = [Part("attack", sheet.attack)]
    if cmd.attribute:
        parts.append(Part(attribute_label(cmd.attribute), sheet.attribute(cmd.attribute)))
    return parts


def aid(state: Encounter, cmd: LiveHackAid, dice: DiceSource) -> LiveHackAidRolled:
    """*Aiding*: "an appropriate resolution roll": the skill and attribute the helper
    chooses, its bond with the aided one ("always added"), against the GM's DR."""
    helper, aided = _pair(state, cmd.helper_id, cmd.aided_id)
    parts = skill_and_attribute(helper.sheet, cmd.skill, cmd.attribute)
    bond = bond_with(helper.sheet, aided.name)
    if bond:
        parts.append(Part(f"bond {aided.name}", bond))
    parts += aid_parts(state, helper.id)
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    side = roll_side(tuple(parts), cmd.take, dice, helper.id)
    target = static_side("DR", (Part("DR", cmd.dr),))
    return LiveHackAidRolled(
        helper=side, target=target, aided_id=aided.id, bonus=aid_bonus(side.total - cmd.dr)
    )


def grim_test(state: Encounter, cmd: LiveHackGrimTest, dice: DiceSource) -> LiveHackRolled:
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
    resist = (*defender_parts(person, "will", 0, grim=True), *aid_parts(state, person.id))
    defend = roll_side(resist, cmd.take, dice, person.id)
    return LiveHackRolled(
        attacker=side,
        defender=defend,
        defense="will",
        trait="grimness",
        kind="grim",
        note=experience.label,
    )


def save(state: Encounter, cmd: LiveHackSave, dice: DiceSource) -> list[object]:
    person = state.combatant(cmd.combatant_id)
    match cmd.kind:
        case "dying":
            if cmd.take == "ten" and not cmd.gm_allows_ten:
                # *Taking Ten* is for "plenty of time"; a dying save is rolled each round.
                raise Rejected(
                    "Take Ten needs plenty of time: a dying save is rolled or taken at zero "
                    "(the GM may allow it: Take Ten (GM allows))"
                )
            return _dying_save(state, person, cmd, dice)
        case "transforming":
            return _transform_save(state, person, cmd, dice)
        case "check":
            return [_check(state, person, cmd, dice)]


def _save_side(
    state: Encounter, person: Combatant, defense: str, cmd: LiveHackSave
) -> tuple[Part, ...]:
    sheet: LiveHackSheet = person.sheet
    attribute = DEFENSE_ATTRIBUTE[defense]
    parts = [
        Part(defense.capitalize(), sheet.defense(defense)),
        Part(attribute_label(attribute), sheet.attribute(attribute)),
        *aid_parts(state, person.id),
    ]
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    return tuple(parts)


def _dying_save(
    state: Encounter, person: Combatant, cmd: LiveHackSave, dice: DiceSource
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
        events = [*_removed(person, "Dying", "Comatose"), _added(state, person.id, "Stabilized")]
        if not person.condition("Incapacitated"):
            events.append(_added(state, person.id, "Incapacitated"))
    elif margin >= 0:
        outcome = "holds on"
    elif person.condition("Comatose"):
        outcome = "dies"
        events = [*_removed(person, "Dying", "Comatose"), _added(state, person.id, "Dead")]
    else:
        outcome = "falls into a coma"
        events = [_added(state, person.id, "Comatose")]
    roll = LiveHackSaveRolled(kind="dying", roller=side, target=target, outcome=outcome)
    return [roll, *events]


def _transform_save(
    state: Encounter, person: Combatant, cmd: LiveHackSave, dice: DiceSource
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
        events = _removed(person, "Transforming")
    elif margin >= 0:
        outcome = "holds the transformation off"
    else:
        outcome = "completes the transformation"
        events = _removed(person, "Transforming")
        if grimlock:
            events.append(LiveHackBecameGrimlock(combatant_id=person.id, grim=sheet.grimness))
        else:
            events.append(_added(state, person.id, "Transformed"))
    roll = LiveHackSaveRolled(kind="transforming", roller=side, target=target, outcome=outcome)
    return [roll, *events]


def _check(
    state: Encounter, person: Combatant, cmd: LiveHackSave, dice: DiceSource
) -> LiveHackSaveRolled:
    sheet: LiveHackSheet = person.sheet
    parts = [Part(attribute_label(cmd.attribute), sheet.attribute(cmd.attribute))]
    parts += aid_parts(state, person.id)
    if cmd.extra:
        parts.append(Part("extra", cmd.extra))
    dr = 0 if cmd.dr is None else cmd.dr
    side = roll_side(tuple(parts), cmd.take, dice, person.id)
    outcome = "passes" if side.total >= dr else "fails"
    target = static_side("DR", (Part("DR", dr),))
    return LiveHackSaveRolled(kind="check", roller=side, target=target, outcome=outcome)


def consequence(state: Encounter) -> list[object]:
    roll = state.last_roll
    if not isinstance(roll, LiveHackRolled):
        raise Rejected("Nothing to apply: roll first")
    if state.last_roll_applied:
        raise Rejected("The last roll's consequence has already been applied")
    row = roll.row
    if row is None:
        if roll.kind == "grim":
            raise Rejected(f"The grim test was resisted (by {-roll.margin}): no Grimness")
        raise Rejected(f"The roll missed by {-roll.margin}: no consequence to apply")
    if not roll.answers_table:
        # *Damage*: the table answers the roll "to apply a negative trait", not the one to hit.
        if roll.hit:
            raise Rejected("A hit does no damage by itself: its damage roll (Fortitude) does")
        raise Rejected("A skill roll has no damage table: it succeeds or fails")
    target_id = roll.defender.combatant_id
    target = state.find(target_id)
    if target is None:
        raise Rejected("The defender of the last roll is no longer in the encounter")
    condition = condition_for(row, roll.defense)
    events: list[object] = [
        LiveHackTraitInflicted(
            combatant_id=target.id,
            trait=roll.trait,
            levels=row.levels,
            margin=roll.margin,
            grimlock=roll.kind == "grim" and condition == "Transforming",
        )
    ]
    if condition is not None:
        events.append(_added(state, target.id, condition, CONDITION_DURATIONS[condition]))
    falls = condition in FALLS_DOWN or _falls(target, roll.trait, row.levels)
    if falls and not target.condition("Prone"):
        # *Incapacitation*: "the character falls down"; Dying is "the same as Incapacitation";
        # Str -10 "falls prone", Dex -10 "falls over paralyzed".
        events.append(_added(state, target.id, "Prone"))
    if condition in DAZED:
        # Ruling: a dazed holder can no longer press an advantage; its positions are lost.
        sheet: LiveHackSheet = target.sheet
        events += [
            LiveHackPositionLost(
                holder_id=target.id, target_id=h.target_id, bonus=h.bonus, reason=condition
            )
            for h in sheet.held
        ]
    return events


def _falls(target: Combatant, trait: str, levels: int) -> bool:
    """Whether damage to an attribute takes it to a -10 that knocks the character down."""
    if trait not in ATTRIBUTE_FIELDS:
        return False
    sheet: LiveHackSheet = target.sheet
    field = TRAIT_FIELDS[trait]
    after = structs.replace(sheet, **{field: getattr(sheet, field) + levels})

    def down(s: LiveHackSheet) -> bool:
        return any(e.falls and e.attribute == trait for e in offset_effects(s))

    return down(after) and not down(sheet)


def hit_waiting(state: Encounter) -> LiveHackRolled | None:
    """The last roll when it is a hit whose damage roll is still to come (not rolled, held,
    spent on a cancel nor discarded), both its sides still there."""
    roll = state.last_roll
    if not isinstance(roll, LiveHackRolled) or state.last_roll_applied or not roll.hit:
        return None
    if state.find(roll.attacker.combatant_id) is None:
        return None
    return roll if state.find(roll.defender.combatant_id) is not None else None


def damage_roll(hit: LiveHackRolled) -> LiveHackRoll:
    """*Damage*: "After a successful roll to hit, players make another roll ... vs the
    opponent's fort save": the hitter against the one it hit, the hit's margin bonus rolled
    over (``roll_parts`` adds it), and the ratings the hit was made with: *Roll Components*
    asks "for each roll" the skill, attribute, specialty, bond and "all item ratings that
    pertain" (the sword that hit is the sword that wounds). Effort is declared afresh."""
    return LiveHackRoll(
        attacker_id=hit.attacker.combatant_id or "",
        defender_id=hit.defender.combatant_id or "",
        defense="fortitude",
        trait=hit.trait,
        skill=hit.skill,
        attribute=hit.attribute,
        specialty=hit.specialty,
        bond=hit.bond,
        items=hit.items,
    )


def hold(state: Encounter, cmd: LiveHackHold) -> LiveHackPositionHeld:
    over = _rollover(state)
    description = " ".join(cmd.description.split())
    if not description:
        # *Cancelling Opponent Positioning*: "Such positional conditions must be described".
        raise Rejected("Describe the position held (e.g. 'on the high ground')")
    if len(description) > POSITION_LENGTH:
        raise Rejected(f"Describe the position in at most {POSITION_LENGTH} characters")
    return LiveHackPositionHeld(
        holder_id=over.holder_id,
        target_id=over.target_id,
        bonus=over.bonus,
        description=description,
    )


def cancel(state: Encounter, cmd: LiveHackCancel) -> LiveHackPositionLost:
    over = _rollover(state)
    opponent = state.combatant(over.target_id)
    held = opponent.sheet.held_over(over.holder_id)
    if not held:
        raise Rejected(
            f"{opponent.name} holds no positional bonus over {state.name_of(over.holder_id)}"
        )
    return LiveHackPositionLost(
        holder_id=opponent.id,
        target_id=over.holder_id,
        bonus=held,
        reason="cancelled",
        by_id=over.holder_id,
    )


def drop(state: Encounter, cmd: LiveHackDrop) -> LiveHackPositionLost:
    holder = state.combatant(cmd.holder_id)
    held = holder.sheet.held_over(cmd.target_id)
    if not held:
        raise Rejected(f"{holder.name} holds no positional bonus over that target")
    return LiveHackPositionLost(
        holder_id=holder.id, target_id=cmd.target_id, bonus=held, reason="circumstances changed"
    )


def _rollover(state: Encounter) -> Rollover:
    system: LiveHackState = state.system_state
    if system.rollover is None:
        raise Rejected("No margin bonus to use: it takes a success by 5 or more")
    if state.last_roll_applied:
        raise Rejected("The last roll's result has already been used")
    return system.rollover


def heal(state: Encounter, cmd: LiveHackHeal) -> list[object]:
    person = state.combatant(cmd.combatant_id)
    if cmd.levels < 1:
        raise Rejected("Healing removes at least 1 level of Wounds")
    sheet: LiveHackSheet = person.sheet
    events: list[object] = [LiveHackHealed(combatant_id=person.id, levels=cmd.levels)]
    left = max(sheet.wounds - cmd.levels, 0)
    if left >= sheet.attribute("con") + 10:
        # *Stabilizing*: healing "to fewer wounds than the -10 Con threshold" (Con - Wounds > -10).
        return events
    if person.condition("Dying") or person.condition("Comatose"):
        events += _removed(person, "Dying", "Comatose", "Incapacitated")
        events.append(_added(state, person.id, "Stabilized"))
    elif person.condition("Stabilized"):
        # Stabilized by the dying save, still down: the same healing that would have saved them
        # dying ends the incapacitation (rulings.md, "Healing the stabilized").
        events += _removed(person, "Incapacitated")
    return events
