"""LiveHack's decisions: commands checked and turned into events (dice only from DiceSource)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from msgspec import structs

from rules.conditions import Condition, Duration
from rules.dice import DiceSource
from rules.errors import Rejected
from rules.events import ConditionAdded, ConditionRemoved

from .effort import effort_part, pushed
from .events import (
    CONDITION_DURATIONS,
    DAZED,
    POSITION_LENGTH,
    LiveHackCancel,
    LiveHackDrop,
    LiveHackHeal,
    LiveHackHealed,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackJointRolled,
    LiveHackPositionHeld,
    LiveHackPositionLost,
    LiveHackRoll,
    LiveHackRolled,
    LiveHackState,
    LiveHackTraitInflicted,
    Part,
    Rollover,
    Take,
    cannot_act,
    condition_for,
    is_dying,
    roll_side,
)
from .parts import (
    aid_parts,
    attribute_label,
    cashes_in,
    check_effort,
    defending_parts,
    helper_bond,
    keeps_skill_bonus,
    paired_skill,
    roll_parts,
)
from .sheet import (
    ATTRIBUTE_FIELDS,
    TRAIT_FIELDS,
    LiveHackSheet,
    offset_effects,
)

if TYPE_CHECKING:
    from .events import LiveHackCombatant, LiveHackEncounter

T = TypeVar("T")
UNTIL_REMOVED = Duration("until-removed")
FALLS_DOWN = ("Incapacitated", "Dying")


def added(
    state: LiveHackEncounter, cid: str, name: str, duration: Duration = UNTIL_REMOVED
) -> object:
    return ConditionAdded(cid, Condition(name, duration, state.expiry_for(cid, duration)))


def removed(target: LiveHackCombatant, *names: str) -> list[object]:
    return [ConditionRemoved(target.id, n) for n in names if target.condition(n)]


def pair(
    state: LiveHackEncounter, first_id: str, second_id: str
) -> tuple[LiveHackCombatant, LiveHackCombatant]:
    first, second = state.combatant(first_id), state.combatant(second_id)
    if first.id == second.id:
        raise Rejected(f"{first.name} cannot roll against themselves")
    return first, second


def roll(state: LiveHackEncounter, cmd: LiveHackRoll, dice: DiceSource) -> list[object]:
    """An opposed roll, after the Con checks a side at Con -5 makes to push its effort
    (*Cumulative Offset Penalties*: "must make a Con roll vs DR 0 to expend Fatigue"): a
    failed check leaves that side's effort unspent, out of the roll and its Fatigue."""
    attacker, defender = pair(state, cmd.attacker_id, cmd.defender_id)
    check_can_act(attacker, cmd.gm_overrides, "attack")
    check_effort(attacker, cmd.effort)
    check_effort(defender, cmd.defender_effort)
    check_take_ten(attacker, cmd.attacker_take, cmd.attacker_gm_allows_ten, "attacks")
    check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
    events: list[object] = []
    efforts = []
    for person, effort in ((attacker, cmd.effort), (defender, cmd.defender_effort)):
        checks, counted = pushed(state, person, effort, dice)
        events += checks
        efforts.append(counted)
    declared = structs.replace(cmd, effort=efforts[0], defender_effort=efforts[1])
    return [*events, opposed(state, declared, dice)]


def check_take_ten(
    person: LiveHackCombatant, take: str, allowed: bool, does: str = "defends"
) -> None:
    """*Taking Ten*: "If the Adventurers take plenty of time": one rule for every roll, by
    anyone (F4-05): ten only by the GM's leave, who alone can say there is plenty of time."""
    if take == "ten" and not allowed:
        sheet: LiveHackSheet = person.sheet
        who = f"{person.name}, a monster," if sheet.stat_block else person.name
        raise Rejected(
            f"Take Ten needs plenty of time: {who} {does} by rolling or taking zero "
            "(the GM may allow it: Take Ten (GM allows))"
        )


def check_can_act(person: LiveHackCombatant, overridden: bool, what: str) -> str:
    """F4-13: one who cannot act (Dying, Incapacitated, Discombobulated ...: ``cannot_act``)
    makes no attack, joint action or aid unless the GM overrides; why it could not, for the
    log, when the GM did ("" for one who can act)."""
    why = cannot_act(person)
    if why and not overridden:
        raise Rejected(
            f"{person.name} cannot act ({why}): no {what} (the GM may override: Acts anyway)"
        )
    return why


def opposed(state: LiveHackEncounter, cmd: LiveHackRoll, dice: DiceSource) -> LiveHackRolled:
    """The opposed roll itself, with the effort declared (the odds read it, without dice)."""
    attacker, defender = pair(state, cmd.attacker_id, cmd.defender_id)
    parts = roll_parts(state, attacker, defender, cmd)
    defend_parts = defending_parts(state, defender, cmd)
    # The attacker's dice are rolled first, then the defender's, so a script reads in order.
    attack = roll_side(parts, cmd.attacker_take, dice, attacker.id)
    defend = roll_side(defend_parts, cmd.defender_take, dice, defender.id)
    rolled = LiveHackRolled(
        attacker=attack,
        defender=defend,
        defense=cmd.defense,
        trait=cmd.trait,
        effort=cmd.effort,
        defender_effort=cmd.defender_effort,
        keeps=keeps_skill_bonus(state, attacker.id),
        grim_advantage=bool(cmd.grim_goal),
        grim_goal=cmd.grim_goal,
        note=paired_skill(cmd) if cmd.defense == "skill" else "",
        skill=cmd.skill,
        attribute=cmd.attribute,
        specialty=cmd.specialty,
        bond=cmd.bond,
        items=cmd.items,
        acts_though=check_can_act(attacker, cmd.gm_overrides, "attack"),
    )
    # The decision is in the event (``cashed``): an older journal's hits spent the position
    # at once, and fold as they did.
    return structs.replace(rolled, cashed=cashes_in(state, cmd, rolled))


def joint(state: LiveHackEncounter, cmd: LiveHackJointRoll, dice: DiceSource) -> list[object]:
    """A joint action, after the Con rolls that participants (then the defender) at Con -5
    make to push."""
    ids = participants(state, cmd)
    check_effort(state.combatant(cmd.defender_id), cmd.defender_effort)
    for cid in ids:  # before any Con roll for effort
        check_can_act(state.combatant(cid), cmd.gm_overrides, "joint action")
    events: list[object] = []
    efforts = []
    for cid, effort in zip(ids, joint_efforts(cmd.efforts, len(ids)), strict=True):
        checks, counted = pushed(state, state.combatant(cid), effort, dice)
        events += checks
        efforts.append(counted)
    # R3-04 gives effort to "every roll a character makes": the defender's too (F4-08).
    checks, defended = pushed(state, state.combatant(cmd.defender_id), cmd.defender_effort, dice)
    declared = structs.replace(cmd, efforts=tuple(efforts), defender_effort=defended)
    return [*events, *checks, joint_roll(state, declared, dice)]


def participants(state: LiveHackEncounter, cmd: LiveHackJointRoll) -> tuple[str, ...]:
    ids = tuple(dict.fromkeys(cmd.participant_ids))
    if len(ids) < 2:
        raise Rejected("A joint action needs at least two participants")
    defender = state.combatant(cmd.defender_id)
    if defender.id in ids:
        raise Rejected(f"{defender.name} cannot work with others against themselves")
    return ids


def joint_roll(
    state: LiveHackEncounter, cmd: LiveHackJointRoll, dice: DiceSource
) -> LiveHackJointRolled:
    """The joint action itself, with the efforts declared (the odds read it, without dice)."""
    ids = participants(state, cmd)
    defender = state.combatant(cmd.defender_id)
    check_take_ten(defender, cmd.defender_take, cmd.gm_allows_ten)
    takes = joint_takes(cmd.takes, len(ids))
    efforts = joint_efforts(cmd.efforts, len(ids))
    # The defender's side is checked before any dice: a name not on its sheet is refused
    # with nothing rolled (the dice still go participants first, then the defender).
    defend_parts = defending_parts(state, defender, cmd)
    sides = []
    throughs = []
    for cid, take, effort in zip(ids, takes, efforts, strict=True):
        person = state.combatant(cid)
        throughs.append(check_can_act(person, cmd.gm_overrides, "joint action"))
        check_take_ten(person, take, cmd.participants_gm_allow_ten, "works with the others")
        check_effort(person, effort)
        parts = _joint_parts(person, cmd)
        bond = helper_bond(state, person, ids)
        if bond is not None:
            parts.append(bond)
        parts += [*effort_part(effort), *aid_parts(state, cid)]
        sides.append(roll_side(tuple(parts), take, dice, cid))
    defend = roll_side(defend_parts, cmd.defender_take, dice, defender.id)
    rolls = tuple(
        LiveHackRolled(
            attacker=side,
            defender=defend,
            defense=cmd.defense,
            trait=cmd.trait,
            skill=cmd.skill,
            attribute=cmd.attribute,
            effort=effort,
            # Each roll is against the one defender roll: its effort is paid once, by the
            # chosen roll (``apply``), and said once in the log.
            defender_effort=cmd.defender_effort,
            keeps=keeps_skill_bonus(state, *ids),
            acts_though=through,
        )
        for side, effort, through in zip(sides, efforts, throughs, strict=True)
    )
    margins = [r.margin for r in rolls]
    # Cooperation: "the best margin among them is used"; Chaos: "taking the lowest roll".
    pick = max(margins) if cmd.kind == "cooperation" else min(margins)
    return LiveHackJointRolled(kind=cmd.kind, rolls=rolls, chosen=margins.index(pick))


def joint_takes(takes: tuple[Take, ...], count: int) -> tuple[Take, ...]:
    """Every participant's dice: as given one by one, one for all, or all rolling."""
    rolling: Take = "roll"
    return _each(takes, count, rolling, "dice")


def joint_efforts(efforts: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Every participant's effort: one by one, one for all, or none."""
    return _each(efforts, count, 0, "effort")


def _each(given: tuple[T, ...], count: int, default: T, what: str) -> tuple[T, ...]:
    if not given:
        return (default,) * count
    if len(given) == 1:
        return given * count
    if len(given) != count:
        raise Rejected(f"Give the {what} of each of the {count} participants, or one for all")
    return given


def _joint_parts(person: LiveHackCombatant, cmd: LiveHackJointRoll) -> list[Part]:
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


def consequence(state: LiveHackEncounter) -> list[object]:
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
            falls_dying=condition == "Dying" and not is_dying(target),
        )
    ]
    if condition is not None:
        events.append(added(state, target.id, condition, CONDITION_DURATIONS[condition]))
    falls = condition in FALLS_DOWN or _falls(target, roll.trait, row.levels)
    if falls and not target.condition("Prone"):
        # *Incapacitation*: "the character falls down"; Dying is "the same as Incapacitation";
        # Str -10 "falls prone", Dex -10 "falls over paralyzed".
        events.append(added(state, target.id, "Prone"))
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


def _falls(target: LiveHackCombatant, trait: str, levels: int) -> bool:
    """Whether damage to an attribute takes it to a -10 that knocks the character down."""
    if trait not in ATTRIBUTE_FIELDS:
        return False
    sheet: LiveHackSheet = target.sheet
    field = TRAIT_FIELDS[trait]
    after = structs.replace(sheet, **{field: getattr(sheet, field) + levels})

    def down(s: LiveHackSheet) -> bool:
        return any(e.falls and e.attribute == trait for e in offset_effects(s))

    return down(after) and not down(sheet)


def hit_waiting(state: LiveHackEncounter) -> LiveHackRolled | None:
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


def hold(state: LiveHackEncounter, cmd: LiveHackHold) -> LiveHackPositionHeld:
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


def cancel(state: LiveHackEncounter, cmd: LiveHackCancel) -> LiveHackPositionLost:
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


def drop(state: LiveHackEncounter, cmd: LiveHackDrop) -> LiveHackPositionLost:
    holder = state.combatant(cmd.holder_id)
    held = holder.sheet.held_over(cmd.target_id)
    if not held:
        raise Rejected(f"{holder.name} holds no positional bonus over that target")
    return LiveHackPositionLost(
        holder_id=holder.id, target_id=cmd.target_id, bonus=held, reason="circumstances changed"
    )


def _rollover(state: LiveHackEncounter) -> Rollover:
    system: LiveHackState = state.system_state
    if system.rollover is None:
        raise Rejected("No margin bonus to use: it takes a success by 5 or more")
    if state.last_roll_applied:
        raise Rejected("The last roll's result has already been used")
    return system.rollover


def heal(state: LiveHackEncounter, cmd: LiveHackHeal) -> list[object]:
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
        events += removed(person, "Dying", "Comatose", "Incapacitated")
        events.append(added(state, person.id, "Stabilized"))
    elif person.condition("Stabilized"):
        # Stabilized by the dying save, still down: the same healing that would have saved them
        # dying ends the incapacitation (rulings.md, "Healing the stabilized").
        events += removed(person, "Incapacitated")
    return events
