"""Finding a Generic d20 stat block: its figures as the library lists them (HP, AC, CR, XP),
its challenge rating to filter by, and the lines the library dialog shows of it before it
joins: each action with its exact odds against the selected target.

The XP of a challenge rating is the SRD 5.1's table ("Experience Points by Challenge
Rating", ``budget.XP_BY_CHALLENGE``). A sheet keeps its challenge as text ("1/4", "CR 5",
or a hero's "fighter 3"): only a challenge rating counts as one.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING

from msgspec import structs

from rules.errors import Rejected
from rules.odds import whole_percent
from rules.roles.library import Library

from .actions import D20Action, action_text, made
from .budget import XP_BY_CHALLENGE  # the SRD's table, as the XP budget reads it
from .odds import attack_chances, damage_chances, mean
from .sheet import HERO, LAIR, D20Sheet
from .standing import damage_modifiers, save_made

if TYPE_CHECKING:
    from .events import D20Combatant

_CR = re.compile(r"\s*(?:cr\s*)?([0-9]{1,2}(?:/[0-9])?)\s*(?:\([^)]*\))?\s*", re.IGNORECASE)
MAX_PREVIEW = 40  # lines of a preview: a stat block's actions are bounded, its lines too


def challenge_text(sheet: D20Sheet) -> str:
    """The sheet's challenge rating as the SRD writes it ("1/4", "5"), "" when it has none
    (a hero's level, a lair's words)."""
    if sheet.kind in (HERO, LAIR):
        return ""
    found = _CR.fullmatch(sheet.challenge)
    return found.group(1) if found and found.group(1) in XP_BY_CHALLENGE else ""


def challenge_rating(sheet: D20Sheet) -> Fraction | None:
    text = challenge_text(sheet)
    return Fraction(text) if text else None


def library_columns(sheet: D20Sheet) -> tuple[tuple[str, str], ...]:
    challenge = challenge_text(sheet)
    xp = f"{XP_BY_CHALLENGE[challenge]:,}" if challenge else ""
    return (("HP", str(sheet.hp_max)), ("AC", str(sheet.ac)), ("CR", challenge), ("XP", xp))


def _average(value: Fraction) -> str:
    return f"{float(value):.1f}"


def _attack_mean(action: D20Action, target: D20Combatant, sheet: D20Sheet) -> Fraction:
    """The damage one use deals the target on average: a miss none, a hit its dice, a
    critical its dice doubled (``sheet``: the attacker's)."""
    ac = target.sheet.ac
    _, hit, critical = attack_chances(action.bonus or 0, ac, 0, sheet.crit_range)
    if not action.damage:
        return Fraction(0)
    modifier = damage_modifiers(target, action.damage, "", not (sheet.magical or action.magical))
    on_hit = mean(damage_chances(action.damage, False, modifier))
    on_crit = mean(damage_chances(action.damage, True, modifier))
    return hit * on_hit + critical * on_crit + (hit + critical) * _hit_save(action, target)[1]


def _hit_save(action: D20Action, target: D20Combatant) -> tuple[Fraction, Fraction]:
    """An attack's save on a hit (hit_saves.py): the chance the target fails it, and the
    save's own damage on average; nothing for an attack that asks for none."""
    if not action.save:
        return Fraction(0), Fraction(0)
    return _save_mean(structs.replace(action, bonus=None, damage=action.save_damage), target)


def _save_mean(action: D20Action, target: D20Combatant) -> tuple[Fraction, Fraction]:
    """The chance the target fails the action's save, and the damage it deals on average."""
    ability, dc = action.save.split()
    saved = save_made(target, ability, int(dc), action.magical, action.condition)
    if not action.damage:
        return 1 - saved, Fraction(0)
    modifier = damage_modifiers(target, action.damage, "")
    failed = mean(damage_chances(action.damage, False, modifier))
    halved = mean(damage_chances(action.damage, False, modifier, half=True))
    return 1 - saved, (1 - saved) * failed + (saved * halved if action.half else 0)


def _action_line(
    action: D20Action,
    sheet: D20Sheet,
    target: D20Combatant | None,
    actions: tuple[D20Action, ...] = (),
) -> str:
    """An action as it is typed, then its odds against the target: the chance to hit (or
    that the target fails the save) and the damage a use deals on average."""
    line = action_text(action)
    if target is None or not isinstance(target.sheet, D20Sheet):
        return line
    try:
        if action.makes:
            parts = [a for a in made(actions or sheet.actions, action) if a is not action]
            total = sum((_use_mean(a, sheet, target) for a in parts), Fraction(0))
            return f"{line} · {_average(total)} avg" if parts else line
        if action.bonus is not None:
            _, hit, critical = attack_chances(action.bonus, target.sheet.ac, 0, sheet.crit_range)
            odds = f"{whole_percent(hit + critical)} to hit"
            if action.save:
                odds += f", then fails {whole_percent(_hit_save(action, target)[0])}"
            damage = _attack_mean(action, target, sheet)
            return f"{line} · {odds}, {_average(damage)} avg"
        if action.save:
            fails, damage = _save_mean(action, target)
            return f"{line} · fails {whole_percent(fails)}, {_average(damage)} avg"
    except Rejected:  # dice too big to work out: the action is listed without its odds
        return line
    return line


def _use_mean(action: D20Action, sheet: D20Sheet, target: D20Combatant) -> Fraction:
    if action.bonus is not None:
        return _attack_mean(action, target, sheet)
    if action.save:
        return _save_mean(action, target)[1]
    return Fraction(0)


def _one_attack(sheet: D20Sheet) -> D20Action:
    """A sheet with no actions typed: its one attack as an action (x its Multiattack)."""
    damage = f"{sheet.damage} {sheet.damage_type}".strip()
    return D20Action(name=sheet.attack, bonus=sheet.attack_bonus, damage=damage)


def preview_lines(sheet: D20Sheet, target: D20Combatant | None) -> tuple[str, ...]:
    """What the library dialog shows of a stat block: its figures, then its actions, each
    with its odds against ``target`` (the selected combatant; None: none) as the dice fall
    with neither advantage nor disadvantage."""
    hp = f"HP {sheet.hp_max}" + (f" ({sheet.hp_dice})" if sheet.hp_dice else "")
    challenge = challenge_text(sheet)
    cr = f"CR {challenge} ({XP_BY_CHALLENGE[challenge]:,} XP)" if challenge else sheet.challenge
    head = "  ".join(part for part in (hp, f"AC {sheet.ac}", cr) if part)
    lines = [head]
    if target is not None and isinstance(target.sheet, D20Sheet):
        lines.append(f"Against {target.name} (AC {target.sheet.ac}):")
    actions = sheet.actions
    if not actions:
        one = _one_attack(sheet)
        actions = (one,)
        if sheet.multiattack > 1:
            several = D20Action(name="Multiattack", makes=((one.name, sheet.multiattack),))
            lines.append(_action_line(several, sheet, target, actions))
    lines += [_action_line(a, sheet, target) for a in actions]
    if sheet.legendary_actions:
        lines.append(f"Legendary actions ({sheet.legendary} a round):")
        lines += ["  " + _action_line(a, sheet, target) for a in sheet.legendary_actions]
    if sheet.reactions:
        lines.append("Reactions: " + "; ".join(a.name for a in sheet.reactions))
    if sheet.legendary_resistance:
        lines.append(f"Legendary Resistance {sheet.legendary_resistance}/day")
    if sheet.traits:
        lines.append("Traits: " + ", ".join(sheet.traits))
    if sheet.condition_immunities:
        lines.append("Condition immunities: " + ", ".join(sheet.condition_immunities))
    return tuple(lines[:MAX_PREVIEW])


class D20Library(Library):
    """Generic d20's library part (``rules.roles.library``)."""

    library_columns = staticmethod(library_columns)
    challenge_rating = staticmethod(challenge_rating)
    preview_lines = staticmethod(preview_lines)
