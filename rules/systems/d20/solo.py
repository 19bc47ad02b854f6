"""Generic d20 played by the tracker: how a combatant of a solo side fights (``rules.solo``).

Every choice is a pure function of the state. What waits is settled first (a solo
combatant's own roll is applied, its concentration and death saves rolled; what the player
owes stops the tracker); then a legendary creature spends its legendary actions at the end of
another's turn (``_legendary``); then whoever's turn it is stands up if it lies prone and
attacks the foe its policy picks, its damage dealt at once, as many times as its Multiattack
says (a lair with a save makes every foe save instead), and ends its turn. The readings are
in rulings.md ("Solo play").
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from rules.commands import NextTurn, RemoveCondition
from rules.errors import Rejected
from rules.roles.solo import Solo
from rules.system import Move, Policy, policy_among

from . import hit_saves
from .action_dialogs import foes_of
from .actions import D20Action, made
from .condition_names import srd_name
from .economy import spent
from .events import (
    ACTION,
    BONUS,
    LEGENDARY,
    D20Apply,
    D20Attack,
    D20Attacked,
    D20ConcentrationSave,
    D20DeathSave,
    D20HitSave,
    D20Saved,
    D20SaveEffect,
    sheet_of,
    stamp_of,
)
from .exhaustion import STILL
from .legendary import ends_before_own, left_at, opening, turn_ended
from .odds import attack_chances
from .sheet import MAX_HP, Stamp
from .solo_actions import AREA, aimed, best_action, best_legendary, rolls
from .standing import (
    attack_mode,
    attacks_left,
    concentration_waiting,
    conditions_of,
    owes_death_save,
    roll_waits,
    why_not,
)
from .stat_actions import composition, parts_left, save_command, under_way
from .table import PRONE, SPEED_0, worked_out
from .turn_edges import owed_by, owed_command, owed_words
from .uses import solo_resist

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

FOCUS, SPREAD, CAUTIOUS = "focus", "spread", "cautious"
ACTIONS = (D20Attacked, D20Saved)  # the rolls of an action: an attack, a save effect
POLICIES = (
    Policy(FOCUS, "Focus the weakest", "Attacks the foe with the fewest hit points left"),
    Policy(SPREAD, "Spread the damage", "Attacks the foe least hurt, as a share of its maximum"),
    Policy(
        CAUTIOUS,
        "Cautious",
        "Attacks the foe that deals it the most damage on average; never attacks at "
        "disadvantage when another foe can be attacked without it",
    ),
)


def next_move(state: D20Encounter) -> Move | None:
    """The next choice a solo combatant makes now, or None when nothing waits on one."""
    actor = state.current  # whose turn it is
    waiting = _settle(state, actor)
    if not isinstance(waiting, bool):
        return waiting
    if waiting:
        return None
    legendary = _legendary(state, actor)
    if legendary is not None:
        return legendary
    if actor is None or not state.is_solo(actor):
        return None
    why = why_not(state, actor)
    if why:
        return Move(actor.id, NextTurn(), f"cannot act ({why}): ends its turn")
    sheet = sheet_of(actor)
    left = attacks_left(state, actor)
    if not left:  # its action spent (economy.py), whatever was rolled since
        return _bonus_attack(state, actor) or Move(actor.id, NextTurn(), "has acted: ends its turn")
    standing = _stand_up(actor)
    if standing is not None:
        return standing
    lair = sheet.lair_dc
    if lair is not None:
        return _lair_action(state, actor, *lair)
    target = pick_target(state, actor)
    if target is None:
        return Move(actor.id, NextTurn(), "no foe left: ends its turn")
    if sheet.actions:
        by_name = _stat_block_move(state, actor, target)
        if by_name is not None:
            return by_name
    most = sheet.multiattack
    how = f" (attack {most - left + 1} of {most})" if most > 1 else ""
    return Move(actor.id, D20Attack(actor.id, target.id, apply=True), f"attacks {target.name}{how}")


def _stat_block_move(state: D20Encounter, actor: D20Combatant, target: D20Combatant) -> Move | None:
    """Its stat block's action worth the most now (solo_actions.py), or the next part of its
    Multiattack under way; None when none of its actions rolls (its main attack is made)."""
    sheet = sheet_of(actor)
    foes = _aimed_order(state, actor, target)
    multi = composition(sheet)
    action = multi if multi is not None and under_way(state, actor) else None
    if action is None:
        action = best_action(state, actor, foes, threat)
        if action is None:
            return None
    if not action.makes:
        return _play(actor, action, "", ACTION, foes)
    left = parts_left(state, actor) or made(sheet.actions, action)
    part = next((p for p in left if rolls(p)), None)
    if part is None:  # what is left of it rolls nothing (played by hand)
        return Move(actor.id, NextTurn(), f"{action.name} is made: ends its turn")
    return _play(actor, part, action.name, ACTION, foes)


def _aimed_order(
    state: D20Encounter, actor: D20Combatant, target: D20Combatant
) -> list[D20Combatant]:
    """Its foes, the policy's target first, then the turn order: whom its save effects reach."""
    return [target, *(f for f in foes_of(state, actor) if f.id != target.id)]


def _play(
    actor: D20Combatant, action: D20Action, of: str, usage: str, foes: list[D20Combatant]
) -> Move:
    """The command that plays ``action`` (made by ``of``): an attack on the first foe, or a
    save effect over the foes it is aimed at."""
    first = "legendary action: " if usage == LEGENDARY else ""
    part = f" ({of})" if of else ""
    found = action.save_dc
    if action.bonus is not None or found is None:
        target = foes[0]
        attack = D20Attack(actor.id, target.id, usage=usage, apply=True, action=action.name, of=of)
        return Move(actor.id, attack, f"{first}{action.name}{part}: attacks {target.name}")
    ability, dc = found
    targets = aimed(action, foes)
    command = save_command(action, actor.id, tuple(t.id for t in targets), usage, of)
    names = ", ".join(t.name for t in targets[:AREA])  # bounded: a line of the log
    names += f" and {len(targets) - AREA} more" if len(targets) > AREA else ""
    words = f"{first}{action.name}{part}: DC {dc} {ability.capitalize()} save for {names}"
    return Move(actor.id, command, words)


def _stand_up(actor: D20Combatant) -> Move | None:
    """A prone combatant stands up before it acts, spending half its movement (SRD, *Being
    Prone*): unless its speed is 0 (grappled, restrained, exhaustion 5), when it fights
    prone."""
    if not actor.conditions:
        return None  # most combatants, most of the time (a forecast's runs)
    lying = next((c.name for c in actor.conditions if srd_name(c.name) == PRONE), None)
    if lying is None:
        return None
    if conditions_of(actor) & SPEED_0 or sheet_of(actor).exhaustion >= STILL:
        return None
    return Move(actor.id, RemoveCondition(actor.id, lying), "stands up (half its movement)")


def _bonus_attack(state: D20Encounter, actor: D20Combatant) -> Move | None:
    """Its attack again as a bonus action, when its sheet has one and it is not spent."""
    if not sheet_of(actor).bonus_attack or spent(state, actor, BONUS):
        return None
    target = pick_target(state, actor)
    if target is None:
        return None
    command = D20Attack(actor.id, target.id, usage=BONUS, apply=True)
    return Move(actor.id, command, f"bonus action: attacks {target.name}")


def _lair_action(state: D20Encounter, lair: D20Combatant, ability: str, dc: int) -> Move:
    """A lair's action as a save: every foe still in the fight saves, half damage on a save."""
    foes = foes_of(state, lair)
    if not foes:
        return Move(lair.id, NextTurn(), "no foe left: ends its turn")
    sheet = sheet_of(lair)
    command = D20SaveEffect(
        source_id=lair.id,
        target_ids=tuple(f.id for f in foes),
        effect=sheet.attack,
        ability=ability,
        dc=dc,
        damage=f"{sheet.damage} {sheet.damage_type}",
        usage=ACTION,
    )
    return Move(lair.id, command, f"lair action: {sheet.attack}, DC {dc} for every foe")


def _settle(state: D20Encounter, actor: D20Combatant | None) -> Move | bool | None:
    """A move that settles what waits, None when what waits is the player's, False when
    nothing waits (``actor``: whose turn it is)."""
    resisting = solo_resist(state)  # a failed save it turns before its result is dealt
    if resisting is not None:
        return resisting
    roll = state.last_roll
    if isinstance(roll, ACTIONS) and roll_waits(state):
        owner_id = roll.attacker_id if isinstance(roll, D20Attacked) else roll.source_id
        owner = state.find(owner_id)
        if owner is None or not state.is_solo(owner):
            return True
        return Move(owner.id, D20Apply(), "deals its damage")
    hit = hit_saves.waiting(state)
    if hit is not None:
        who = state.combatant(hit.target_id)
        if not state.is_solo(who):
            return True
        said = f"saves against {state.name_of(hit.source_id)}'s {hit.action} (DC {hit.dc})"
        return Move(who.id, D20HitSave(who.id), said)
    owed = concentration_waiting(state)
    if owed is not None:
        who = state.combatant(owed.combatant_id)
        if not state.is_solo(who):
            return True
        return Move(who.id, D20ConcentrationSave(who.id), f"keeps its concentration (DC {owed.dc})")
    edge = owed_command(state)
    if edge is not None:  # a save at the end of a turn, what the start of one brings
        who = state.combatant(owed_by(edge))
        return Move(who.id, edge, owed_words(state)) if state.is_solo(who) else True
    if actor is not None and owes_death_save(state, actor):
        if not state.is_solo(actor):
            return True
        return Move(actor.id, D20DeathSave(actor.id), "rolls its death save")
    return False


def _legendary(state: D20Encounter, current: D20Combatant | None) -> Move | None:
    """A legendary creature of a solo side attacks at the end of another's turn, taken as the
    next turn opens (before its actor rolls; the creature's own turn too, for the turn just
    before it): one at a time, at least one at each end while it has any, more when the ends
    left before its own turn could not spend them all, so that none is wasted."""
    if current is None or not opening(state):  # the turn's own rolls begun: the scan spared
        return None
    # Read off each sheet without a call: asked at the start of every turn, of everyone.
    legendary = [c for c in state.combatants if c.sheet.legendary and state.is_solo(c)]
    if not legendary:
        return None
    now, ended = stamp_of(state), turn_ended(state)
    if ended is None:
        return None  # the fight's first turn: no turn has ended
    for creature in legendary:
        stamp = ended[1] if creature.id == current.id else now
        left = left_at(state, creature, stamp)
        if left <= 0 or ended[0].id == creature.id or why_not(state, creature):
            continue  # none left; the end of its own turn; it cannot act
        if _spent_at_this_end(state, creature, stamp) and left < ends_before_own(state, creature):
            continue  # one spent here; the ends still to come spend the rest
        target = pick_target(state, creature)
        if target is None:
            continue
        if not sheet_of(creature).legendary_actions:  # a sheet without a list: its attack
            command = D20Attack(creature.id, target.id, usage=LEGENDARY, apply=True)
            return Move(creature.id, command, f"legendary action: attacks {target.name}")
        foes = _aimed_order(state, creature, target)
        found = best_legendary(state, creature, left, foes, threat)
        if found is not None:
            action, of, _ = found
            return _play(creature, action, of, LEGENDARY, foes)
    return None


def _spent_at_this_end(state: D20Encounter, creature: D20Combatant, stamp: Stamp) -> bool:
    """Whether ``creature`` has already attacked at this end of a turn: the last roll is its
    legendary attack, made as this turn opened."""
    roll = state.last_roll
    if isinstance(roll, D20Saved):  # a legendary action's save effect (Wing Attack)
        return roll.usage == LEGENDARY and roll.source_id == creature.id and roll.stamp == stamp
    return (
        isinstance(roll, D20Attacked)
        and roll.usage == LEGENDARY
        and roll.attacker_id == creature.id
        and roll.stamp == stamp
    )


def pick_target(state: D20Encounter, actor: D20Combatant) -> D20Combatant | None:
    foes = foes_of(state, actor)
    if not foes:
        return None
    policy = policy_among(POLICIES, actor)
    if policy == SPREAD:
        return max(foes, key=lambda c: Fraction(max(sheet_of(c).hp, 0), sheet_of(c).hp_max))
    if policy == CAUTIOUS:
        plain = [f for f in foes if attack_mode(actor, f, 0)[0] >= 0] or foes
        return max(plain, key=lambda c: threat(c, actor))
    return min(foes, key=_hit_points)


def _hit_points(foe: D20Combatant) -> int:
    sheet = sheet_of(foe)
    return sheet.hp + sheet.temp_hp


def threat(foe: D20Combatant, me: D20Combatant) -> Fraction:
    """The damage ``foe``'s attack deals ``me`` on average (its conditions aside)."""
    sheet = sheet_of(foe)
    return _threat(sheet.attack_bonus, sheet_of(me).ac, sheet.crit_range, sheet.damage)


@lru_cache(maxsize=1024)
def _threat(bonus: int, ac: int, crit_range: int, damage: str) -> Fraction:
    """``threat``'s figure, kept: asked for each foe at each choice of a stat block's action
    (what a condition laid is worth), of the few attacks and ACs a fight has."""
    _, hit, crit = attack_chances(bonus, ac, 0, crit_range)
    try:
        on_hit, on_crit = worked_out(damage, False), worked_out(damage, True)
    except Rejected:  # a damage too big to work out (a sheet from before): the most feared
        return Fraction(MAX_HP)
    return hit * on_hit.mean + crit * on_crit.mean


class D20Solo(Solo):
    """Generic d20's solo play (``rules.roles.solo``)."""

    solo_policies = POLICIES
    solo_move = staticmethod(next_move)
