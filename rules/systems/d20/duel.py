"""A plain duel worked out, not played (``RuleSystem.exact_wins``: a tune or the swings use it
in place of a forecast): two combatants of two sides, each on its turn making its action's
attacks at the other (its Multiattack), the damage dealt at once, until one is at 0 hit points
(out of the fight: a hero down, a monster dead) or the forecast's round limit passes.

Only a duel solo play fights in just that way is worked out: no condition on either, nothing
on either sheet but one attack (no legendary, bonus or lair action, no exhaustion: ``READ``),
nothing waiting to be settled. The hit points
left to each (temporary ones first) are a distribution carried from attack to attack
(``odds.swing_weights``: a miss, a hit's and a critical's damage after resistances), in
floating point, so the answer is worked out to its rounding, never sampled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec import structs

from rules.errors import Rejected

from . import hit_saves
from .events import sheet_of
from .odds import Swing, swing_weights
from .sheet import LAIR, D20Sheet, attack_damage
from .standing import (
    attack_mode,
    concentration_waiting,
    damage_modifiers,
    in_turn,
    out_word,
    roll_waits,
)
from .stat_actions import attack_rolls_left
from .turn_edges import owed_command

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

MAX_STATES = 6_000  # pairs of hit points (a second or two): a duel of giants is played out
EPSILON = 1e-12  # what is left to play is too little to change a percentage


def exact_duel(state: D20Encounter, rounds: int) -> dict[str, float] | None:
    """Each side's chance to win the duel from ``state`` within ``rounds`` rounds (the
    forecast's limit), or None when it is not a plain duel."""
    people = state.combatants
    if len(people) != 2 or people[0].side == people[1].side:
        return None
    if any(not _plain(c) for c in people) or _waits(state):
        return None
    order = in_turn(state)
    current = state.current
    if len(order) != 2 or current is None:
        return None
    pools = {c.id: sheet_of(c).hp + sheet_of(c).temp_hp for c in people}
    if pools[people[0].id] * pools[people[1].id] > MAX_STATES:
        return None
    try:
        damage = {c.id: _damage(c, next(o for o in people if o is not c)) for c in people}
    except Rejected:  # damage whose odds cannot be worked out
        return None
    first = order.index(current)
    turns = [order[(first + i) % 2] for i in range(2 - first)]  # the rest of this round
    turns += [order[i % 2] for i in range(2 * (rounds - 1))]
    a, b = order[0].id, order[1].id
    left: dict[tuple[int, int], float] = {(pools[a], pools[b]): 1.0}
    won = {a: 0.0, b: 0.0}
    for index, actor in enumerate(turns):
        count = (
            attack_rolls_left(state, actor) if index == 0 else max(sheet_of(actor).multiattack, 1)
        )
        hits = damage[actor.id]
        for _ in range(count):
            left = _attack(left, hits, actor.id == a, won, actor.id)
            if sum(left.values()) < EPSILON:
                return {people[0].side: won[people[0].id], people[1].side: won[people[1].id]}
    return {people[0].side: won[people[0].id], people[1].side: won[people[1].id]}


# What a duel reads of a sheet, or what cannot change it (its saves, its initiative, what a
# fall past 0 does): any other field away from a blank sheet's (a legendary or bonus action,
# a lair's save, exhaustion, and whatever a sheet comes to hold later, a stat block's other
# actions among them) is play the duel does not work out.
READ = frozenset(
    {
        "kind", "hp", "hp_max", "hp_dice", "hp_rolled", "temp_hp", "ac", "attack",
        "attack_bonus", "damage", "damage_type", "ranged", "crit_range", "saves",
        "initiative", "resistances", "vulnerabilities", "immunities", "multiattack",
        "attacks_made", "reaction_round", "death_successes", "death_failures", "stable",
        "concentrating", "challenge", "hp_max_lost", "magical", "condition_immunities",
    }
)  # fmt: skip


def _plain(combatant: D20Combatant) -> bool:
    sheet = sheet_of(combatant)
    if combatant.conditions or sheet.kind == LAIR or out_word(combatant):
        return False
    blank = D20Sheet()
    rest = {name: getattr(blank, name) for name in sheet.__struct_fields__ if name not in READ}
    return structs.replace(sheet, **rest) == sheet


def _waits(state: D20Encounter) -> bool:
    return bool(
        (state.last_roll is not None and roll_waits(state))
        or concentration_waiting(state) is not None
        or hit_saves.waiting(state) is not None
        or owed_command(state) is not None
    )


def _damage(attacker: D20Combatant, target: D20Combatant) -> dict[int, float]:
    """What one of ``attacker``'s attacks deals ``target``: each amount's chance, 0 a miss."""
    sheet, against = sheet_of(attacker), sheet_of(target)
    damage, kind = attack_damage(sheet, "")
    mode, _, auto_crit = attack_mode(attacker, target, 0)
    swing = Swing(
        sheet.attack_bonus,
        against.ac,
        mode,
        sheet.crit_range,
        auto_crit,
        damage,
        damage_modifiers(target, damage, kind, not sheet.magical),
    )
    weights, denominator = swing_weights(swing)
    return {amount: w / denominator for amount, w in weights.items() if w}


def _attack(
    left: dict[tuple[int, int], float],
    hits: dict[int, float],
    by_first: bool,
    won: dict[str, float],
    attacker: str,
) -> dict[tuple[int, int], float]:
    """The hit points left after one attack; what drops the target is the attacker's win."""
    after: dict[tuple[int, int], float] = {}
    for (first, second), p in left.items():
        target = second if by_first else first
        for amount, q in hits.items():
            rest = target - amount
            if rest <= 0:
                won[attacker] += p * q
                continue
            key = (first, rest) if by_first else (rest, second)
            after[key] = after.get(key, 0.0) + p * q
    return after
