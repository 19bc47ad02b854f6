"""Generic d20 played by the tracker: how a combatant of a solo side fights (``rules.solo``).

Every choice is a pure function of the state. What waits is settled first (a solo
combatant's own roll is applied, its concentration and death saves rolled; what the player
owes stops the tracker); then a legendary creature spends a legendary action at the end of
another's turn; then whoever's turn it is attacks the foe its policy picks, its damage dealt
at once, as many times as its Multiattack says (a lair with a save makes every foe save
instead), and ends its turn. The readings are in rulings.md ("Solo play").
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules.commands import NextTurn
from rules.errors import Rejected
from rules.system import Move, Policy, policy_among

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
    D20Saved,
    D20SaveEffect,
    sheet_of,
    stamp_of,
)
from .forms import foes_of
from .odds import attack_chances
from .sheet import MAX_HP
from .standing import (
    attack_mode,
    attacks_left,
    concentration_waiting,
    in_turn,
    legendary_left,
    owes_death_save,
    roll_waits,
    why_not,
)
from .table import worked_out

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

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


def next_move(state: Encounter) -> Move | None:
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
    lair = sheet.lair_dc
    if lair is not None:
        return _lair_action(state, actor, *lair)
    target = pick_target(state, actor)
    if target is None:
        return Move(actor.id, NextTurn(), "no foe left: ends its turn")
    most = sheet.multiattack
    how = f" (attack {most - left + 1} of {most})" if most > 1 else ""
    return Move(actor.id, D20Attack(actor.id, target.id, apply=True), f"attacks {target.name}{how}")


def _bonus_attack(state: Encounter, actor: Combatant[Any]) -> Move | None:
    """Its attack again as a bonus action, when its sheet has one and it is not spent."""
    if not sheet_of(actor).bonus_attack or spent(state, actor, BONUS):
        return None
    target = pick_target(state, actor)
    if target is None:
        return None
    command = D20Attack(actor.id, target.id, usage=BONUS, apply=True)
    return Move(actor.id, command, f"bonus action: attacks {target.name}")


def _lair_action(state: Encounter, lair: Combatant[Any], ability: str, dc: int) -> Move:
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


def _settle(state: Encounter, actor: Combatant[Any] | None) -> Move | bool | None:
    """A move that settles what waits, None when what waits is the player's, False when
    nothing waits (``actor``: whose turn it is)."""
    roll = state.last_roll
    if isinstance(roll, ACTIONS) and roll_waits(state):
        owner_id = roll.attacker_id if isinstance(roll, D20Attacked) else roll.source_id
        owner = state.find(owner_id)
        if owner is None or not state.is_solo(owner):
            return True
        return Move(owner.id, D20Apply(), "deals its damage")
    owed = concentration_waiting(state)
    if owed is not None:
        who = state.combatant(owed.combatant_id)
        if not state.is_solo(who):
            return True
        return Move(who.id, D20ConcentrationSave(who.id), f"keeps its concentration (DC {owed.dc})")
    if actor is not None and owes_death_save(state, actor):
        if not state.is_solo(actor):
            return True
        return Move(actor.id, D20DeathSave(actor.id), "rolls its death save")
    return False


def _legendary(state: Encounter, current: Combatant[Any] | None) -> Move | None:
    """A legendary creature of a solo side attacks at the end of another's turn (``current``'s
    turn is under way): once per turn ended, before the next one acts, while it has legendary
    actions left."""
    if current is None or (state.round == 1 and state.index_of(current.id) == 0):
        return None
    roll = state.last_roll
    now = stamp_of(state)
    if isinstance(roll, ACTIONS) and roll.stamp == now:
        return None  # the turn under way has begun: its actor has rolled
    legendary = [c for c in state.combatants if sheet_of(c).legendary and state.is_solo(c)]
    if not legendary:
        return None
    previous = _previous(state, current)
    for creature in legendary:
        if creature.id == current.id or (previous is not None and previous.id == creature.id):
            continue
        if now in sheet_of(creature).legendary_spent or legendary_left(state, creature) <= 0:
            continue
        if why_not(state, creature):
            continue
        target = pick_target(state, creature)
        if target is None:
            continue
        command = D20Attack(creature.id, target.id, usage=LEGENDARY, apply=True)
        return Move(creature.id, command, f"legendary action: attacks {target.name}")
    return None


def _previous(state: Encounter, current: Combatant[Any]) -> Combatant[Any] | None:
    order = in_turn(state)
    index = next((i for i, c in enumerate(order) if c.id == current.id), -1)
    return order[index - 1] if order and index >= 0 else None


def pick_target(state: Encounter, actor: Combatant[Any]) -> Combatant[Any] | None:
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


def _hit_points(foe: Combatant[Any]) -> int:
    sheet = sheet_of(foe)
    return sheet.hp + sheet.temp_hp


def threat(foe: Combatant[Any], me: Combatant[Any]) -> Fraction:
    """The damage ``foe``'s attack deals ``me`` on average (its conditions aside)."""
    sheet = sheet_of(foe)
    _, hit, crit = attack_chances(sheet.attack_bonus, sheet_of(me).ac, 0, sheet.crit_range)
    try:
        on_hit, on_crit = worked_out(sheet.damage, False), worked_out(sheet.damage, True)
    except Rejected:  # a damage too big to work out (a sheet from before): the most feared
        return Fraction(MAX_HP)
    return hit * on_hit.mean + crit * on_crit.mean
