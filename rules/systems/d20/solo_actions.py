"""Which of its stat block's actions a solo creature plays (solo.py), by its expected effect.

Every figure is exact where the tracker can work it out: an attack's chances against the
target's AC with its advantage or disadvantage (``odds.attack_chances``), a damage's mean
(``table.worked_out``), a save's chance from the target's own bonus. Each target's share is
capped at its hit points left (overkill is worth nothing), a condition laid is worth half the
damage its target deals on average (``CONDITION_SHARE``), and a damaging save effect reaches
at most ``AREA`` foes (rulings.md D5-03). Ties go to the stat block's order, its Multiattack
first; every choice is a pure function of the state, so a forecast is reproduced.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rules.errors import Rejected

from .actions import D20Action, made, named
from .events import sheet_of
from .odds import attack_chances, save_chance
from .standing import attack_mode, immune, save_mode
from .table import split_damage, worked_out
from .uses import unavailable

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

AREA = 3  # the foes a damaging save effect reaches: a cone or a line a GM lines up (D5-03)
CONDITION_SHARE = Fraction(1, 2)  # a condition laid: half its target's average damage
Threat = Any  # threat(foe, me) -> Fraction, solo.py's (passed in: no import cycle)


def rolls(action: D20Action) -> bool:
    """Whether the tracker can play it: an attack roll or a saving throw."""
    return action.bonus is not None or bool(action.save)


@lru_cache(maxsize=512)
def damage_mean(damage: str, critical: bool) -> Fraction:
    """The mean of an action's damage as written ("2d10+8 piercing + 2d6 fire"); 0 when none
    or too big to work out."""
    if not damage:
        return Fraction(0)
    try:
        return worked_out(split_damage(damage, critical)[0], critical).mean
    except Rejected:
        return Fraction(0)


@lru_cache(maxsize=4096)
def _attack_mean(bonus: int, ac: int, mode: int, crit_range: int, damage: str) -> Fraction:
    """The damage an attack deals on average, and the chance it hits: one entry per
    (attack, AC, mode) met in a fight, a few hundred at most."""
    _, hit, crit = attack_chances(bonus, ac, mode, crit_range)
    return hit * damage_mean(damage, False) + crit * damage_mean(damage, True)


@lru_cache(maxsize=4096)
def _hit_chance(bonus: int, ac: int, mode: int, crit_range: int) -> Fraction:
    _, hit, crit = attack_chances(bonus, ac, mode, crit_range)
    return hit + crit


def _left(target: D20Combatant) -> int:
    sheet = sheet_of(target)
    return max(sheet.hp + sheet.temp_hp, 0)


def _laid(action: D20Action, target: D20Combatant, me: D20Combatant, threat: Threat) -> Any:
    """What the condition it lays on ``target`` is worth (0 when it has it already)."""
    if not action.condition:
        return Fraction(0)
    if any(c.name.casefold() == action.condition.casefold() for c in target.conditions):
        return Fraction(0)
    if immune(target, action.condition):
        return Fraction(0)
    return CONDITION_SHARE * threat(target, me)


def attack_value(
    action: D20Action, me: D20Combatant, target: D20Combatant, threat: Threat
) -> tuple[Fraction, Fraction]:
    """What an attack action is worth against ``target``: its mean damage (uncapped) and what
    its condition is worth, weighed by the chance it hits; with a save on a hit, the save's
    damage and its condition weighed by the chance it fails too (hit_saves.py)."""
    if action.bonus is None:
        return Fraction(0), Fraction(0)
    mode = attack_mode(me, target, 0, ranged=action.ranged)[0]
    ac, crit = sheet_of(target).ac, sheet_of(me).crit_range
    mean = _attack_mean(action.bonus, ac, mode, crit, action.damage)
    if not action.condition and not action.save_damage:
        return mean, Fraction(0)
    hits = _hit_chance(action.bonus, ac, mode, crit)
    found = action.save_dc
    if found is None:
        return mean, hits * _laid(action, target, me, threat)
    ability, dc = found
    save_mode_of, auto_fail = save_mode(target, ability, action.magical, action.condition)
    bonus = sheet_of(target).save(ability)
    damage, fails = _save_mean(bonus, dc, save_mode_of, auto_fail, action.save_damage, action.half)
    return mean + hits * damage, hits * fails * _laid(action, target, me, threat)


@lru_cache(maxsize=4096)
def _save_mean(
    bonus: int, dc: int, mode: int, auto_fail: bool, damage: str, half: bool
) -> tuple[Fraction, Fraction]:
    """A save effect's mean damage to one target and the chance it fails: one entry per
    (effect, save bonus, mode) met in a fight."""
    saves = save_chance(bonus, dc, mode, auto_fail)
    mean = damage_mean(damage, False)
    on_save = mean / 2 if half else Fraction(0)
    return (1 - saves) * mean + saves * on_save, 1 - saves


def save_value(
    action: D20Action, me: D20Combatant, targets: list[D20Combatant], threat: Threat
) -> Fraction:
    """What a save effect is worth over its targets: P(fail) x mean + P(save) x (half the
    mean or nothing), capped at each one's hit points left, and its condition on a failure."""
    found = action.save_dc
    if found is None:
        return Fraction(0)
    ability, dc = found
    total = Fraction(0)
    for target in targets:
        mode, auto_fail = save_mode(target, ability, action.magical, action.condition)
        bonus = sheet_of(target).save(ability)
        damage, fails = _save_mean(bonus, dc, mode, auto_fail, action.damage, action.half)
        total += min(damage, Fraction(_left(target)))
        if action.condition:
            total += fails * _laid(action, target, me, threat)
    return total


def aimed(action: D20Action, foes: list[D20Combatant]) -> list[D20Combatant]:
    """The foes a save effect is aimed at (``foes``: the policy's target first, then the
    turn order): every foe when it deals no damage (a Frightful Presence's "each creature of
    its choice"), else the first ``AREA`` of them (D5-03)."""
    return foes if not action.damage else foes[:AREA]


def value(
    action: D20Action,
    sheet_actions: tuple[D20Action, ...],
    me: D20Combatant,
    foes: list[D20Combatant],
    threat: Threat,
) -> Fraction:
    """What playing ``action`` (a Multiattack: all its parts) is worth, its attacks against
    ``foes[0]``, its saves over the foes it is aimed at."""
    parts = made(sheet_actions, action) if action.makes else (action,)
    damage, laid = Fraction(0), Fraction(0)
    for part in parts:
        if part.bonus is not None:
            mean, condition = attack_value(part, me, foes[0], threat)
            damage, laid = damage + mean, laid + condition
    worth = min(damage, Fraction(_left(foes[0]))) + laid  # overkill is worth nothing
    for part in parts:
        if part.bonus is None and part.save:
            worth += save_value(part, me, aimed(part, foes), threat)
    return worth


def best_action(
    state: D20Encounter, me: D20Combatant, foes: list[D20Combatant], threat: Threat
) -> D20Action | None:
    """The action it plays now among those it can use: the largest expected effect, its
    Multiattack first on a tie; None when none rolls."""
    sheet = sheet_of(me)
    best, most = None, Fraction(-1)
    for action in _in_order(sheet.actions):
        if action.makes:
            if not any(rolls(p) for p in made(sheet.actions, action)):
                continue
        elif not rolls(action):
            continue
        if unavailable(state, me, action):
            continue
        worth = value(action, sheet.actions, me, foes, threat)
        if worth > most:
            best, most = action, worth
    return best


def _in_order(actions: tuple[D20Action, ...]) -> tuple[D20Action, ...]:
    multi = [a for a in actions if a.makes][:1]
    return (*multi, *(a for a in actions if a not in multi))


def best_legendary(
    state: D20Encounter, me: D20Combatant, left: int, foes: list[D20Combatant], threat: Threat
) -> tuple[D20Action, str, int] | None:
    """The legendary action it spends now, with ``left`` to spend: the most expected effect
    per legendary action it costs, among those it can afford that roll; as (the action it
    plays, the legendary action that makes it or "", its cost). None when none does."""
    sheet = sheet_of(me)
    best: tuple[D20Action, str, int] | None = None
    most = Fraction(-1)
    for legendary in sheet.legendary_actions:
        if legendary.cost > left or unavailable(state, me, legendary):
            continue
        action, of = legendary, ""
        if legendary.makes:
            found = named(sheet.actions, legendary.makes[0][0])
            if found is None:
                continue
            action, of = found, legendary.name
        if not rolls(action):
            continue
        worth = value(action, sheet.actions, me, foes, threat) / legendary.cost
        if worth > most:
            best, most = (action, of, legendary.cost), worth
    return best
