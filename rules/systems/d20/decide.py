"""Generic d20's decisions: a command checked and turned into events, every die rolled
through the injected dice and kept in the event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.conditions import Condition, Duration
from rules.errors import Rejected
from rules.events import ConditionAdded, ConditionRemoved
from rules.logline import Span
from rules.notation.answer import answer

from . import fortitude, hit_saves, regeneration, relentless, taken
from . import table as dmg
from .actions import named
from .cover import cover_bonus, save_cover
from .damage_parts import parts_of
from .economy import check
from .events import (
    LEGENDARY,
    REACTION,
    AtZero,
    D20ActionUsed,
    D20Attack,
    D20Attacked,
    D20ConcentrationEnded,
    D20ConcentrationSave,
    D20ConcentrationSaved,
    D20ConcentrationStarted,
    D20Damaged,
    D20DeathSave,
    D20DeathSaved,
    D20Heal,
    D20Healed,
    D20HitSave,
    D20Immune,
    D20LegendaryAction,
    D20LegendaryUsed,
    D20Reaction,
    D20ReactionUsed,
    D20Saved,
    D20SaveEffect,
    D20Settled,
    D20UseAction,
    DealtPart,
    RolledPart,
    SaveRoll,
    sheet_of,
    stamp_of,
    system_state,
)
from .legendary import left_at, legendary_stamp
from .odds import attack_outcome
from .sheet import D20Sheet, Stamp, attack_damage, life_word
from .standing import (
    attack_mode,
    concentration_waiting,
    damage_modifier,
    immune,
    save_mode,
    why_not,
)
from .stat_actions import chosen
from .table import ABILITIES, CONCENTRATION_DC, DEATH_DC, DEATH_SAVES
from .traits import RELENTLESS, UNDEAD_FORTITUDE
from .turn_edge_events import saved_from_effect

if TYPE_CHECKING:
    from rules.dice import DiceSource

    from .events import D20Combatant, D20Encounter

MAX_DC = 40
MAX_EFFECT = 40


def typed_name(text: str, label: str) -> str:
    """A name typed for an effect, a condition or an action, its spaces made single; longer
    than ``MAX_EFFECT`` refused (it was cut there without a word: "Dreadful Howl of the
    Deep Ones Beneath t")."""
    words = " ".join(text.split())
    if len(words) > MAX_EFFECT:
        raise Rejected(f"{label}: at most {MAX_EFFECT} characters ({len(words)} typed)")
    return words


def d20(dice: DiceSource, mode: int) -> tuple[tuple[int, ...], int]:
    """One d20, or two keeping the higher (advantage) or the lower (disadvantage)."""
    if mode == 0:
        face = dice.roll(20)
        return (face,), face
    faces = (dice.roll(20), dice.roll(20))
    return faces, max(faces) if mode > 0 else min(faces)


def attack(state: D20Encounter, cmd: D20Attack, dice: DiceSource) -> list[Any]:
    attacker, target = state.combatant(cmd.attacker_id), state.combatant(cmd.target_id)
    if attacker.id == target.id:
        raise Rejected("Attack someone else")
    why = why_not(state, attacker)
    if why:
        raise Rejected(f"{attacker.name} cannot attack: {why}")
    target_sheet = sheet_of(target)
    if life_word(target_sheet) == "dead":
        raise Rejected(f"{target.name} is dead")
    check(state, attacker, cmd.usage)
    sheet = sheet_of(attacker)
    played = chosen(state, attacker, cmd.action, cmd.of, cmd.usage) if cmd.action else None
    if played is not None and played.action.bonus is None:
        raise Rejected(f"{played.action.name} rolls no attack: it is played as a save effect")
    stamp = stamp_of(state)
    if cmd.usage == LEGENDARY:  # at the end of the turn before when its own has only opened
        what = played.of or played.action.name if played else ""
        stamp = check_legendary(state, attacker, played.cost if played else 1, what)
    name, bonus, ranged = sheet.attack, sheet.attack_bonus, sheet.ranged
    damage, kind = attack_damage(sheet, cmd.damage)
    if played is not None and played.action.bonus is not None:
        name, bonus, ranged = played.action.name, played.action.bonus, played.action.ranged
        if not cmd.damage.strip():  # typed damage stands for the action's, as for the sheet's
            damage, kind = (
                dmg.split_damage(played.action.damage) if played.action.damage else ("", "")
            )
    mode, reasons, auto_crit = attack_mode(
        attacker, target, max(-1, min(cmd.mode, 1)), ranged=ranged
    )
    faces, natural = d20(dice, mode)
    cover = cover_bonus(cmd.cover)
    ac = target_sheet.ac + cover
    total = natural + bonus
    outcome = attack_outcome(natural, total, ac, sheet.crit_range, auto_crit)
    shown: tuple[Any, ...] = ()
    amount, rolled_notation, parts = 0, "", tuple[RolledPart, ...]()
    if outcome != "miss" and damage:  # an attack with no damage (a net) rolls none
        amount, shown, rolled_notation, parts = _damage_rolled(
            damage, kind, outcome == "critical", dice
        )
    event = D20Attacked(
        attacker_id=attacker.id,
        target_id=target.id,
        attack=name,
        bonus=bonus,
        ac=ac,
        faces=faces,
        mode=mode,
        natural=natural,
        total=total,
        outcome=outcome,
        crit_range=sheet.crit_range,
        auto_crit=auto_crit,
        damage=rolled_notation,
        damage_type=kind,
        damage_shown=shown,
        damage_total=amount,
        usage=cmd.usage,
        reasons=reasons,
        stamp=stamp,
        base_damage=damage,
        target_hp=_standing_hp(target_sheet),
        cover=cover,
        drain=cmd.drain,
        damage_parts=parts,
        action=played.action.name if played else "",
        of=played.of if played else "",
        cost=played.cost if played else 1,
        magical=sheet.magical or (played is not None and played.action.magical),
    )
    if cmd.apply and outcome != "miss":
        dealt = hit_damage(state, event, dice)
        return [event, *dealt, *hit_saves.laid(state, event, dealt), D20Settled()]
    return [event]


def _damage_rolled(
    damage: str, kind: str, critical: bool, dice: DiceSource
) -> tuple[int, tuple[Span, ...], str, tuple[RolledPart, ...]]:
    """A damage rolled: its total, the dice as the log shows them, the notation rolled, and
    each type's total when it has several (``parts``; none for one type, as saves kept it)."""
    totals, pieces, rolled_notation = dmg.rolled_parts(damage, kind, critical, dice)
    found = parts_of(damage, kind)
    parts: tuple[RolledPart, ...] = ()
    if len(found) > 1:
        parts = tuple(RolledPart(p.kind, t) for p, t in zip(found, totals, strict=True))
    shown = tuple(Span(text, style) for text, style in pieces)
    return sum(totals), shown, rolled_notation, parts


def _standing_hp(sheet: D20Sheet) -> int:
    return sheet.hp + sheet.temp_hp if sheet.hp > 0 else 0


def damage_events(
    state: D20Encounter,
    target: D20Combatant,
    dealer_id: str | None,
    rolled: int,
    kind: str,
    critical: bool = False,
    half: bool = False,
    drain: bool = False,
    parts: tuple[RolledPart, ...] = (),
    nonmagical: bool = False,
    dice: DiceSource | None = None,
) -> list[Any]:
    """The damage to one target, and the concentration it ends by dropping it; a damage of
    several types (``parts``) meets the target's modifier for each type on its own (those
    "from nonmagical weapons" too when ``nonmagical``: a weapon attack that is not magical).
    With ``dice``, the Undead Fortitude save it asks is rolled (without: what `d` will deal,
    said before it is)."""
    sheet = sheet_of(target)
    modifier = damage_modifier(target, kind, nonmagical)
    amount = dmg.adjusted(rolled, modifier, half)
    dealt = tuple(
        DealtPart(p.damage_type, p.total, dmg.adjusted(p.total, m, half), m)
        for p in parts
        for m in (damage_modifier(target, p.damage_type, nonmagical),)
    )
    if dealt:
        amount, modifier = sum(p.amount for p in dealt), ""
    event = D20Damaged(
        target.id, dealer_id, rolled, amount, kind, modifier, critical, half, drain, dealt
    )
    after = taken.dealt(sheet, event)
    dc = fortitude.dc_owed(sheet, after, amount, fortitude.kinds_of(event), critical)
    if relentless.spares(sheet, after, amount):  # no roll: said before it is dealt too
        event = structs.replace(event, at_zero=AtZero(RELENTLESS))
    elif dc and dice is not None:
        held = AtZero(UNDEAD_FORTITUDE, _fortitude(target, dc, dice), dc)
        event = structs.replace(event, at_zero=held)
    after = taken.dealt(sheet, event)
    events: list[Any] = [event]
    if not after.dead:  # a troll burnt: none at its next turn's start
        events += regeneration.stopped(target, fortitude.kinds_of(event), amount)
    if sheet.concentrating and after.down:
        events += end_concentration(state, target, "down")
    return events


def _fortitude(target: D20Combatant, dc: int, dice: DiceSource) -> SaveRoll:
    """Undead Fortitude's Constitution save, rolled as ``target`` stands (fortitude.py)."""
    mode, auto_fail = save_mode(target, fortitude.ABILITY)
    faces, natural = d20(dice, mode)
    bonus = sheet_of(target).save(fortitude.ABILITY)
    total = natural + bonus
    return SaveRoll(target.id, faces, mode, bonus, total, not auto_fail and total >= dc, auto_fail)


def end_concentration(state: D20Encounter, combatant: D20Combatant, why: str) -> list[Any]:
    """Concentration ended, and the conditions its effect held lifted."""
    effect = sheet_of(combatant).concentrating
    events: list[Any] = [D20ConcentrationEnded(combatant.id, effect, why)]
    for held in system_state(state).held:
        if held.source_id != combatant.id:
            continue
        target = state.find(held.target_id)
        if target is not None and target.condition(held.condition) is not None:
            events.append(ConditionRemoved(target.id, held.condition))
    return events


def hit_damage(state: D20Encounter, roll: D20Attacked, dice: DiceSource | None = None) -> list[Any]:
    """What a hit deals its target as it stands now (``damage_events``; ``dice`` roll what
    it asks as it is dealt)."""
    return damage_events(
        state,
        state.combatant(roll.target_id),
        roll.attacker_id,
        roll.damage_total,
        roll.damage_type,
        roll.outcome == "critical",
        drain=roll.drain,
        parts=roll.damage_parts,
        nonmagical=not roll.magical,
        dice=dice,
    )


def consequence(state: D20Encounter, dice: DiceSource) -> list[Any]:
    """The ``d`` key on the last roll: its damage and conditions."""
    roll = state.last_roll
    if state.last_roll_applied or not isinstance(roll, D20Attacked | D20Saved):
        raise Rejected("No roll waits to be applied")
    if isinstance(roll, D20Attacked):
        if roll.outcome == "miss":
            raise Rejected("A miss: nothing to apply")
        dealt = hit_damage(state, roll, dice)
        return [*dealt, *hit_saves.laid(state, roll, dealt), D20Settled()]
    events = []
    for save in roll.rolls:
        found = state.find(save.target_id)
        if found is None or life_word(sheet_of(found)) == "dead":
            continue
        target = found
        if roll.damage and not (save.success and not roll.half):
            events += damage_events(
                state,
                target,
                roll.source_id,
                roll.damage_total,
                roll.damage_type,
                half=save.success,
                drain=roll.drain,
                parts=roll.damage_parts,
                dice=dice,
            )
        if roll.condition and not save.success and immune(target, roll.condition):
            events.append(D20Immune(target.id, roll.condition))
        elif roll.condition and not save.success:
            duration = Duration("rounds", roll.rounds) if roll.rounds else Duration()
            condition = Condition(roll.condition, duration, state.expiry_for(target.id, duration))
            events.append(ConditionAdded(target.id, condition))
            if roll.repeat:  # save ends (Hold Person): turn_edges.py
                events.append(saved_from_effect(roll, target.id))
    return [*events, D20Settled()]


def save_effect(state: D20Encounter, cmd: D20SaveEffect, dice: DiceSource) -> list[Any]:
    source = state.combatant(cmd.source_id)
    check(state, source, cmd.usage)
    stamp = stamp_of(state)
    played = chosen(state, source, cmd.action, cmd.of, cmd.usage) if cmd.action else None
    if played is not None:
        why = why_not(state, source)
        if why:
            raise Rejected(f"{source.name} cannot act: {why}")
        if not played.action.save:
            raise Rejected(f"{played.action.name} asks for no saving throw: it is an attack")
    if cmd.usage == LEGENDARY:
        what = (played.of or played.action.name) if played else ""
        stamp = check_legendary(state, source, played.cost if played else 1, what)
    if cmd.ability not in ABILITIES:
        raise Rejected(f"Ability must be one of {', '.join(ABILITIES)}")
    if not 1 <= cmd.dc <= MAX_DC:
        raise Rejected(f"DC must be between 1 and {MAX_DC}")
    effect = typed_name(cmd.effect, "Effect") or "Effect"
    targets = [state.combatant(cid) for cid in dict.fromkeys(cmd.target_ids)]
    targets = [t for t in targets if life_word(sheet_of(t)) != "dead"]
    if not targets:
        raise Rejected("Nobody to make the saving throw")
    notation, kind = (  # a save's damage is never a critical
        dmg.split_damage(cmd.damage, critical=False) if cmd.damage.strip() else ("", "")
    )
    rolls = []
    for target in targets:
        mode, auto_fail = save_mode(target, cmd.ability, cmd.magical, cmd.condition)
        faces, natural = d20(dice, mode)
        bonus = sheet_of(target).save(cmd.ability) + save_cover(cmd.cover, cmd.ability)
        total = natural + bonus
        rolls.append(
            SaveRoll(
                target.id, faces, mode, bonus, total, not auto_fail and total >= cmd.dc, auto_fail
            )
        )
    amount, shown, parts = 0, tuple[Span, ...](), tuple[RolledPart, ...]()
    if notation:  # one damage roll for every target
        amount, shown, _, parts = _damage_rolled(notation, kind, False, dice)
    condition = typed_name(cmd.condition, "Condition").casefold()
    events: list[Any] = []
    concentrating = cmd.concentration
    if concentrating and sheet_of(source).concentrating:
        events += end_concentration(state, source, "replaced")
    if concentrating:
        events.append(D20ConcentrationStarted(source.id, effect))
    events.insert(
        0,
        D20Saved(
            source_id=source.id,
            effect=effect,
            ability=cmd.ability,
            dc=cmd.dc,
            rolls=tuple(rolls),
            damage=notation,
            damage_type=kind,
            damage_shown=shown,
            damage_total=amount,
            half=cmd.half,
            condition=condition,
            rounds=max(cmd.rounds, 0),
            concentration=concentrating,
            stamp=stamp,
            cover=save_cover(cmd.cover, cmd.ability),
            drain=cmd.drain,
            repeat=cmd.repeat and bool(condition),
            damage_parts=parts,
            usage=cmd.usage,
            action=played.action.name if played else "",
            of=played.of if played else "",
            cost=played.cost if played else 1,
            magical=cmd.magical,
        ),
    )
    if all(r.success for r in rolls) and not (notation and cmd.half):
        events.append(D20Settled())  # every target saved, and a save takes nothing: no d
    return events


def hit_save(state: D20Encounter, cmd: D20HitSave, dice: DiceSource) -> list[Any]:
    """The save a hit asked of ``cmd.target_id``, rolled as its attacker's save effect."""
    owed = hit_saves.waiting(state)
    if owed is None or owed.target_id != cmd.target_id:
        raise Rejected(f"No save waits for {state.name_of(cmd.target_id)}")
    saved, *rest = save_effect(state, hit_saves.effect_of(owed), dice)
    return [structs.replace(saved, hit=True), *rest]


def use_action(state: D20Encounter, cmd: D20UseAction) -> list[Any]:
    """A stat block action with no roll (Detect): logged as used, spending ``usage``."""
    who = state.combatant(cmd.combatant_id)
    if cmd.usage in (LEGENDARY, REACTION):
        raise Rejected("A legendary action or a reaction is taken with its own dialog")
    why = why_not(state, who)
    if why:
        raise Rejected(f"{who.name} cannot act: {why}")
    check(state, who, cmd.usage)
    played = chosen(state, who, cmd.action, "", cmd.usage)
    return [D20ActionUsed(who.id, played.action.name, cmd.usage, stamp_of(state))]


def death_save(state: D20Encounter, cmd: D20DeathSave, dice: DiceSource) -> list[Any]:
    hero = state.combatant(cmd.combatant_id)
    sheet = sheet_of(hero)
    if life_word(sheet) != "dying":
        raise Rejected(f"{hero.name} is not dying")
    face = dice.roll(20)
    successes, failures = sheet.death_successes, sheet.death_failures
    if face == 20:
        result = "revived"
    elif face == 1:
        result, failures = "two failures", failures + 2
    elif face < DEATH_DC:
        result, failures = "failure", failures + 1
    else:
        result, successes = "success", successes + 1
    event = D20DeathSaved(
        hero.id,
        face,
        min(successes, DEATH_SAVES),
        min(failures, DEATH_SAVES),
        result,
        stamp_of(state),
    )
    return [event]


def concentration_save(
    state: D20Encounter, cmd: D20ConcentrationSave, dice: DiceSource
) -> list[Any]:
    waiting = concentration_waiting(state)
    if waiting is None or waiting.combatant_id != cmd.combatant_id:
        raise Rejected("No concentration save waits for them")
    who = state.combatant(waiting.combatant_id)
    sheet = sheet_of(who)
    faces, natural = d20(dice, save_mode(who, "con")[0])  # exhaustion 3: disadvantage
    bonus = sheet.save("con")
    total = natural + bonus
    success = total >= waiting.dc
    event = D20ConcentrationSaved(
        who.id, sheet.concentrating, waiting.dc, faces, bonus, total, success, stamp_of(state)
    )
    if success or not sheet.concentrating:
        return [event]
    return [event, *end_concentration(state, who, "failed")]


def concentration_dc(amount: int) -> int:
    return max(CONCENTRATION_DC, amount // 2)


def heal(state: D20Encounter, cmd: D20Heal, dice: DiceSource) -> list[Any]:
    target = state.combatant(cmd.target_id)
    check(state, state.combatant(cmd.healer_id), cmd.usage)
    if life_word(sheet_of(target)) == "dead":
        raise Rejected(f"{target.name} is dead: healing cannot bring it back")
    text = cmd.amount.strip()
    if not text:
        raise Rejected("Healing needs an amount, a number or dice like 2d4+2")
    found = answer(text, dice)
    if found.odds.goal is not None:
        raise Rejected("Healing is an amount, not a comparison")
    if max(found.odds.odds.weights) <= 0:  # "-5" was taken as healing of 0, the action spent
        raise Rejected(f"Healing must be more than 0, not {text[:20]!r}")
    amount = max(found.total, 0)
    shown = tuple(Span(t, s) for t, s in found.pieces) if found.dice else ()
    return [D20Healed(cmd.healer_id, target.id, amount, cmd.temporary, shown, cmd.usage)]


def reaction(state: D20Encounter, cmd: D20Reaction) -> list[Any]:
    who = state.combatant(cmd.combatant_id)
    why = why_not(state, who)
    if why:
        raise Rejected(f"{who.name} cannot react: {why}")
    check(state, who, REACTION)  # surprised, or its reaction spent: refused
    what = typed_name(cmd.what, "Reaction") or "a reaction"
    return [D20ReactionUsed(who.id, what)]


MAX_COST = 3


def legendary_action(state: D20Encounter, cmd: D20LegendaryAction) -> list[Any]:
    who = state.combatant(cmd.combatant_id)
    what = typed_name(cmd.what, "Legendary action") or "a legendary action"
    own = named(sheet_of(who).legendary_actions, what)  # its cost is the stat block's
    cost = own.cost if own is not None else cmd.cost
    if own is not None:
        what = chosen(state, who, own.name, "", LEGENDARY).action.name
    stamp = check_legendary(state, who, cost, what if own is not None else "")
    return [D20LegendaryUsed(who.id, what, cost, stamp)]


def check_legendary(state: D20Encounter, who: D20Combatant, cost: int, what: str = "") -> Stamp:
    """Refused unless ``who`` can spend ``cost`` legendary actions now; the turn whose end
    it is taken at (``legendary.legendary_stamp``)."""
    if not sheet_of(who).legendary:
        raise Rejected(f"{who.name} has no legendary actions")
    if not 1 <= cost <= MAX_COST:
        raise Rejected(f"A legendary action costs 1 to {MAX_COST}")
    stamp = legendary_stamp(state, who)
    if stamp is None:
        raise Rejected("A legendary action is taken at the end of another's turn")
    left = left_at(state, who, stamp)
    if left < cost and what:
        many = "action" if left == 1 else "actions"
        raise Rejected(f"{what} costs {cost}; {who.name} has {left} legendary {many} left")
    if left < cost:
        raise Rejected(f"{who.name} has {left} legendary action(s) left this round, not {cost}")
    why = why_not(state, who)
    if why:
        raise Rejected(f"{who.name} cannot act: {why}")
    return stamp


def stop_concentrating(state: D20Encounter, combatant_id: str) -> list[Any]:
    who = state.combatant(combatant_id)
    if not sheet_of(who).concentrating:
        raise Rejected(f"{who.name} concentrates on nothing")
    return end_concentration(state, who, "ended")
