"""Fatigue & Thresholds played by the tracker: how a combatant of a solo side fights.

Every choice is a pure function of the state (``rules.solo``). On its turn a solo combatant
attacks a foe with its first weapon and ends its turn at once; whoever owes a check's
consequence settles it (aid from a teammate, suckage points, calling off, then paying), the
player's side by hand and a solo side by its policy. Solo combatants never roll while a
consequence waits on the player, so nothing the player owes is lost under a new check.
The readings are in rulings.md (Fatigue & Thresholds, "Solo play").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.commands import AddCondition, NextTurn
from rules.errors import Rejected
from rules.forms import choice_value
from rules.roles.solo import Solo
from rules.system import Move, Policy, policy_among

from .arithmetic import AID_MAX, Attitude, defense_level, parse_effort, total_n
from .events import (
    FLED,
    FatigueAid,
    FatigueApply,
    FatigueCallOff,
    FatigueCheck,
    FatigueChecked,
    FatigueTakeSuckage,
    Suckage,
    call_off_refusal,
    level_name,
    out_word,
    sheet_of,
)
from .forms import DEFAULT_DEFENSE, check_command, check_form, first_skill
from .sheet import defense_consequence
from .table import DiceKind

if TYPE_CHECKING:
    from .events import FatigueCombatant, FatigueEncounter

STEADY, AGGRESSIVE, CAUTIOUS = "steady", "aggressive", "cautious"
POLICIES = (
    Policy(
        STEADY,
        "Steady",
        "Ordinary attacks on the next foe in the order; suckage within 2 points of a "
        "threshold; fights until down",
    ),
    Policy(
        AGGRESSIVE,
        "Aggressive",
        "Intense attacks on the most wounded foe while Wind lasts; no suckage, never backs out",
    ),
    Policy(
        CAUTIOUS,
        "Cautious",
        "Intense dodges, calls off losing efforts, suckage to spare Health, aids teammates; "
        "flees at half Health",
    ),
)
COMBAT_DICE: DiceKind = "1d20"  # a fight is "under moderate pressure": the dialog's own default
DODGE = parse_effort(DEFAULT_DEFENSE, "Defense")  # also what a helper spends on an aid
DODGE_N = total_n(DODGE)
NEAR = 2  # "within a couple of points of the next threshold up"
SPARING = 5  # a cautious fighter pays up to this many suckage points to keep its Health
# Narrated costs, in the text's words ("falling to one knee, dropping your weapon...").
SUCKAGE_COSTS = (
    "falls to one knee",
    "drops its weapon",
    "dents its armour",
    "dislocates a shoulder",
)


# --- who is still in the fight -----------------------------------------------------------------


def out_of_fight(combatant: FatigueCombatant) -> str:
    """Why a combatant no longer fights, as a move's reason says it ("" while it does)."""
    sheet = sheet_of(combatant)
    match out_word(combatant):
        case "dead":
            return f"is dead (Health {sheet.health})"
        case "down":
            return f"is down (Health {sheet.health})"
        case "spent":
            return "is spent (no Wind or Stamina left)"
        case "fled":
            return "has fled"
    return ""


def foes_of(state: FatigueEncounter, combatant: FatigueCombatant) -> list[FatigueCombatant]:
    """Everyone still fighting on another side, in turn order."""
    return [c for c in state.combatants if c.side != combatant.side and not out_of_fight(c)]


# --- the next move --------------------------------------------------------------------------------


def next_move(state: FatigueEncounter) -> Move | None:
    """The next choice a solo combatant makes now, or None when nothing waits on one."""
    actor = state.current
    roll = state.last_roll
    if isinstance(roll, FatigueChecked) and not state.last_roll_applied:
        attacker = roll.attacker.combatant_id if roll.attacker is not None else None
        if actor is not None and state.is_solo(actor) and attacker == actor.id:
            return Move(actor.id, NextTurn(), "its attack is made: ends its turn")
        owner = owes(state, roll)
        if owner is not None:
            return settle(state, roll, owner) if state.is_solo(owner) else None
    if actor is None or not state.is_solo(actor) or not foes_of(state, actor):
        return None
    return take_turn(state, actor)


def owes(state: FatigueEncounter, roll: FatigueChecked) -> FatigueCombatant | None:
    """Who still has a consequence to settle for the open check (None: nobody)."""
    sufferer = roll.sufferer
    if roll.level is None or sufferer is None:
        return None
    return state.find(sufferer.combatant_id)


def take_turn(state: FatigueEncounter, actor: FatigueCombatant) -> Move:
    out = out_of_fight(actor)
    if out:
        return Move(actor.id, NextTurn(), f"{out}: passes its turn")
    policy = policy_among(POLICIES, actor)
    sheet = sheet_of(actor)
    if policy == CAUTIOUS and (sheet.health * 2 <= sheet.health_max or sheet.wind <= 0):
        low = "health" if sheet.health * 2 <= sheet.health_max else "wind"
        now, top = sheet.pool(low)
        why = f"flees: {low.capitalize()} down to {now}/{top}"
        return Move(actor.id, AddCondition(actor.id, FLED), why)
    target, why = choose_target(state, actor, policy)
    command, how = attack(state, actor, target, policy)
    return Move(actor.id, command, f"attacks {target.name} ({why}){how}")


def choose_target(
    state: FatigueEncounter, actor: FatigueCombatant, policy: str
) -> tuple[FatigueCombatant, str]:
    foes = foes_of(state, actor)
    if policy == AGGRESSIVE:
        return min(foes, key=lambda c: sheet_of(c).health), "the most wounded foe"
    if policy == CAUTIOUS:
        return max(foes, key=lambda c: sheet_of(c).physical_penalty), "the most tired foe"
    return foes[0], "the next foe in the order"


def fighting_skill(combatant: FatigueCombatant) -> str:
    """The skill named after its first weapon (Sword for a sword), else its first skill."""
    weapons = sheet_of(combatant).weapons
    return first_skill(combatant, weapons[0].name if weapons else "")


def attack_values(actor: FatigueCombatant, policy: str) -> tuple[dict[str, str], str]:
    """The attacker's fields of the check dialog, and how they were chosen."""
    sheet = sheet_of(actor)
    weapon = sheet.weapons[0] if sheet.weapons else None
    attitude: Attitude = "ordinary"
    how = f" with {weapon.name}" if weapon else " unarmed"
    n = weapon.n if weapon else 0
    if policy == AGGRESSIVE and sheet.wind >= 4 * n + DODGE_N:
        attitude = "intense"
        how += f", intense: +5 for {3 * n} Wind more"
    values = {
        "weapon": weapon.name if weapon else "",
        "attacker_skills": fighting_skill(actor),
        "attacker_dice": COMBAT_DICE,
        "attacker_attitude": attitude,
        "attacker_effort": "",
        "fumble": "",
    }
    return values, how


def defense_values(
    state: FatigueEncounter, defender: FatigueCombatant
) -> tuple[dict[str, str], str]:
    """The defender's fields: a dodge (the dialog's own), intense for a cautious solo one."""
    skill = first_skill(defender, "Dodge")
    attitude: Attitude = "ordinary"
    cautious = state.is_solo(defender) and policy_among(POLICIES, defender) == CAUTIOUS
    if cautious and sheet_of(defender).wind >= 4 * DODGE_N:
        attitude = "intense"
    values = {
        "defender_skills": skill,
        "defender_dice": COMBAT_DICE,
        "defender_attitude": attitude,
        "defender_effort": DEFAULT_DEFENSE,
    }
    how = f"dodges with {skill or 'no skill'}" + (", intense: +5" if attitude == "intense" else "")
    return values, how


def attack(
    state: FatigueEncounter, actor: FatigueCombatant, target: FatigueCombatant, policy: str
) -> tuple[FatigueCheck, str]:
    values, how = attack_values(actor, policy)
    defense, _ = defense_values(state, target)
    base = {f.key: f.default for f in check_form(state)}
    command = check_command(
        state, {**base, **values, **defense, "attacker": actor.id, "defender": target.id}
    )
    return command, how


# --- settling a check -----------------------------------------------------------------------------


def settle(state: FatigueEncounter, roll: FatigueChecked, who: FatigueCombatant) -> Move:
    """The next step for a solo combatant who owes the open check's consequence."""
    policy = policy_among(POLICIES, who)
    if not roll.fumbled:
        helper = aid_helper(state, roll, who)
        if helper is not None:
            return aid_move(helper, who, roll)
        points = suckage_points(roll, policy)
        if points:
            cost = SUCKAGE_COSTS[len(roll.suckage) % len(SUCKAGE_COSTS)]
            after = structs.replace(roll, suckage=(*roll.suckage, Suckage(points, cost)))
            why = (
                f"takes {points} suckage ({cost}): lost by {after.loss}, "
                f"{level_name(after, after.level)} instead of {level_name(roll, roll.level)}"
            )
            return Move(who.id, FatigueTakeSuckage(points, cost), why)
    levels = call_off_levels(state, roll, policy)
    if levels:
        after = structs.replace(roll, called_off=levels)
        lowered = "nothing to pay" if after.level is None else level_name(after, after.level)
        why = f"calls off the effort: {lowered} instead of {level_name(roll, roll.level)}"
        return Move(who.id, FatigueCallOff(levels), why)
    return Move(who.id, FatigueApply(), f"pays for {level_name(roll, roll.level)}")


def health_lost(roll: FatigueChecked, loss: int) -> int:
    """The Health a defense lost by ``loss`` costs at this check's thresholds."""
    level = defense_level(loss, roll.defender.spacing)
    if level is None:
        return 0
    costs = defense_consequence(level, roll.defender.effort, roll.weapon).costs
    return sum(c.amount for c in costs if c.pool == "health")


def suckage_points(roll: FatigueChecked, policy: str) -> int:
    """Steady: the text's advice, within a couple of points; cautious: also to keep Health."""
    offer = roll.suckage_offer
    if not offer or policy == AGGRESSIVE or roll.fumbled:
        return 0  # a fumble the tracker plays is paid as rolled (its policies predate R3-16)
    if offer <= NEAR:
        return offer
    spares = health_lost(roll, roll.loss - offer) < health_lost(roll, roll.loss)
    return offer if policy == CAUTIOUS and offer <= SPARING and spares else 0


def call_off_levels(state: FatigueEncounter, roll: FatigueChecked, policy: str) -> int:
    """A cautious fighter backs out of anything worse than an Ordinary loss (two levels)."""
    if policy != CAUTIOUS or call_off_refusal(state, roll) or roll.level is None:
        return 0
    return 2 if roll.level >= 1 else 0


def aid_helper(
    state: FatigueEncounter, roll: FatigueChecked, who: FatigueCombatant
) -> FatigueCombatant | None:
    """A cautious teammate steps in when an aid (at most +8) could still save the defense."""
    if not 1 <= roll.loss <= AID_MAX:
        return None
    busy = {roll.defender.combatant_id, *(a.helper.combatant_id for a in roll.aids)}
    if roll.attacker is not None:
        busy.add(roll.attacker.combatant_id)
    for helper in state.combatants:
        if (
            helper.side == who.side
            and helper.id not in busy
            and state.is_solo(helper)
            and policy_among(POLICIES, helper) == CAUTIOUS
            and not out_of_fight(helper)
            and sheet_of(helper).wind >= DODGE_N
        ):
            return helper
    return None


def aid_move(helper: FatigueCombatant, who: FatigueCombatant, roll: FatigueChecked) -> Move:
    skill = fighting_skill(helper)
    command = FatigueAid(
        helper_id=helper.id,
        side="defender",
        dice=COMBAT_DICE,
        skills=(skill,) if skill else (),
        effort=DODGE,
    )
    why = f"aids {who.name}, who lost by {roll.loss}: an aid gives up to +{AID_MAX}"
    return Move(helper.id, command, why)


# --- a user's dialog ---------------------------------------------------------------------------


def fill(
    state: FatigueEncounter, action: str, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """The check dialog's fields that belong to solo combatants, chosen by their policies."""
    if action == "roll":
        return fill_check(state, values)
    if action == "aid":
        return fill_aid(state, values)
    return values, []


def fill_check(
    state: FatigueEncounter, values: dict[str, str]
) -> tuple[dict[str, str], list[Move]]:
    """A solo attacker's weapon and attitude, a solo defender's dodge. Against nature the
    task is the GM's, so its fields stay as typed."""
    try:
        fields = {f.key: f for f in check_form(state)}
        attacker = state.find(choice_value(values, fields["attacker"]))
        defender = state.find(choice_value(values, fields["defender"]))
    except Rejected:
        return values, []  # the dialog's own check says what is wrong
    moves = []
    if attacker is not None and state.is_solo(attacker):
        chosen, how = attack_values(attacker, policy_among(POLICIES, attacker))
        values = {**values, **chosen}
        moves.append(Move(attacker.id, None, f"attacks{how}"))
    if attacker is not None and defender is not None and state.is_solo(defender):
        chosen, how = defense_values(state, defender)
        values = {**values, **chosen}
        moves.append(Move(defender.id, None, how))
    return values, moves


def fill_aid(state: FatigueEncounter, values: dict[str, str]) -> tuple[dict[str, str], list[Move]]:
    helper = state.find(values.get("helper"))
    if helper is None or not state.is_solo(helper):
        return values, []
    skill = fighting_skill(helper)
    chosen = {"skills": skill, "dice": COMBAT_DICE, "effort": DEFAULT_DEFENSE}
    return {**values, **chosen}, [Move(helper.id, None, f"aids with {skill or 'no skill'}")]


class FatigueSolo(Solo):
    """Fatigue's solo play (``rules.roles.solo``)."""

    solo_policies = POLICIES
    solo_move = staticmethod(next_move)
    solo_fill = staticmethod(fill)
