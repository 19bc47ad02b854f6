"""Generic d20's odds in an encounter: the attack, save or death save a dialog describes,
and the last roll's, named (the arithmetic is ``odds``, free of msgspec)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rules.errors import Rejected
from rules.notation.exact import Budget, TooBig
from rules.odds import percent, whose_chances

from . import fortitude, relentless
from .cover import cover_bonus, save_cover
from .damage_parts import parts_of
from .events import (
    ACTION,
    D20Attack,
    D20Attacked,
    D20ConcentrationSaved,
    D20DeathSave,
    D20DeathSaved,
    D20Saved,
    D20SaveEffect,
    D20Stabilise,
    sheet_of,
)
from .odds import Swing, attack_odds, death_odds, drop_chance, save_odds
from .sheet import attack_damage
from .stabilise import stabilise_odds
from .standing import (
    attack_mode,
    damage_modifier,
    damage_modifiers,
    in_turn,
    out_word,
    save_mode,
    why_not,
    wounded,
)
from .stat_actions import attack_profile, attack_rolls_left
from .traits import BLOOD_FRENZY, RELENTLESS, UNDEAD_FORTITUDE

if TYPE_CHECKING:
    from rules.odds import Odds

    from .events import D20Combatant, D20Encounter


def for_attack(
    state: D20Encounter,
    attacker: D20Combatant,
    target: D20Combatant,
    chosen: int,
    cover: int = 0,
    typed: str = "",
    action: str = "",
    usage: str = "",
) -> Odds:
    """An attack's odds, with the damage ``typed`` for it (``""``: the attacker's sheet's),
    made with its stat block ``action`` (``""``: its main attack)."""
    sheet = sheet_of(attacker)
    _, bonus, ranged, damage, kind, magical = attack_profile(sheet, action, usage, typed)
    mode, _, auto_crit = attack_mode(attacker, target, chosen, ranged=ranged)
    return attack_figures(
        bonus,
        mode,
        sheet.crit_range,
        auto_crit,
        damage,
        kind,
        attacker.name,
        target,
        cover=cover,
        nonmagical=not magical,
    )


def attack_figures(
    bonus: int,
    mode: int,
    crit_range: int,
    auto_crit: bool,
    damage: str,
    damage_type: str,
    attacker: str,
    target: D20Combatant,
    standing: int = -1,
    cover: int = 0,
    nonmagical: bool = True,
) -> Odds:
    """An attack's tiers, its damage's mean and the chance it drops ``target``, which has
    ``standing`` hit points left (-1: as it stands now; 0: none, already down), behind
    ``cover`` (added to its Armour Class); ``nonmagical``: a weapon not magical, which a
    resistance "from nonmagical weapons" halves. A damage whose odds cannot be worked out (a sheet
    from before critical hits were checked) leaves the tiers, and a note saying so: odds are
    shown, never needed."""
    against = sheet_of(target)
    modifier = damage_modifiers(target, damage, damage_type, nonmagical)
    if standing < 0:  # as it stands now
        standing = against.hp + against.temp_hp if against.hp > 0 else 0
    to_drop = standing or None
    notes = []
    ac = against.ac + cover_bonus(cover)
    standing_up = ""  # the trait that may stand it up at 1 hit point, named with the chance
    try:
        found_up = _stays_up(target, damage, damage_type, nonmagical, standing)
        standing_up, stays_up = found_up if found_up is not None else ("", None)
        found = attack_odds(
            bonus,
            ac,
            mode,
            crit_range,
            auto_crit=auto_crit,
            damage=damage,
            modifier=modifier,
            to_drop=to_drop,
            stays_up=stays_up,
        )
    except Rejected as refused:
        found = attack_odds(bonus, ac, mode, crit_range, auto_crit=auto_crit)
        too_big = isinstance(refused, TooBig)
        why = "too many possible totals to work out" if too_big else "no odds to work out"
        notes.append(f"damage {damage}: {why}")
    means = found.extra.get("damage")
    if isinstance(means, str):
        notes.append(f"damage {means}")
    drop = found.extra.get("drop")
    if isinstance(drop, Fraction):
        why = f" ({standing_up})" if standing_up else ""
        notes.append(f"drops {target.name}: {percent(drop)}{why}")
    extra = {**found.extra, "note": "; ".join(notes)} if notes else found.extra
    return found._replace(extra=extra, whose=whose_chances(attacker, target.name))


def _stays_up(
    target: D20Combatant, damage: str, damage_type: str, nonmagical: bool, standing: int
) -> tuple[str, Callable[[int, bool], Fraction]] | None:
    """The trait that may leave ``target`` (``standing`` hit points left) up at 1 hit point
    as this damage drops it, and its chance by amount for a hit or a critical: Relentless
    spent (relentless.py), or Undead Fortitude's save, which a radiant damage or a critical
    never asks (fortitude.py); None when neither may."""
    sheet = sheet_of(target)
    most = relentless.cap(sheet)
    if most is not None:
        outright = sheet.hp_max + standing if sheet.hero else None  # a hero's instant death
        name = next(t for t in sheet.traits if t.startswith(RELENTLESS))
        return name, lambda amount, _: Fraction(
            (most < 0 or amount <= most) and (outright is None or amount < outright)
        )
    kinds = {
        part.kind
        for part in parts_of(damage, damage_type)
        if damage_modifier(target, part.kind, nonmagical) != "immune"
    }
    if not fortitude.may_save(sheet, False, kinds):
        return None
    return (
        UNDEAD_FORTITUDE,
        lambda amount, critical: Fraction(0) if critical else fortitude.held_chance(target, amount),
    )


def swings_this_round(
    state: D20Encounter, attacker: D20Combatant, target: D20Combatant, command: D20Attack
) -> tuple[Swing, ...]:
    """Every attack roll ``target`` can still face this round, all at it: this one and the
    rest of the attacker's action (its Multiattack), then the attacks left of whoever acts now
    and the whole actions of the target's foes still to act this round, in turn order."""
    against = sheet_of(target)

    def swings(
        who: D20Combatant, chosen: int, count: int, cover: int = 0, typed: str = ""
    ) -> tuple[Swing, ...]:
        sheet = sheet_of(who)
        damage, kind = attack_damage(sheet, typed)
        mode, _, auto_crit = attack_mode(who, target, chosen)
        modifier = damage_modifiers(target, damage, kind, not sheet.magical)
        one = Swing(
            sheet.attack_bonus,
            against.ac + cover,
            mode,
            sheet.crit_range,
            auto_crit,
            damage,
            modifier,
        )
        return (one,) * count

    own = max(attack_rolls_left(state, attacker), 1) if command.usage == ACTION else 1
    # from where it stands, with the damage typed for this attack (its action's others too)
    out = swings(attacker, command.mode, own, cover_bonus(command.cover), command.damage)
    order = in_turn(state)
    now = next((i for i, c in enumerate(order) if c.id == state.current_id), len(order))
    for index, who in enumerate(order[now:], start=now):
        if who.side == target.side or who.id == target.id:
            continue
        if who.id == attacker.id and (index == now or command.usage == ACTION):
            continue  # its action's attacks are counted above
        if out_word(who) or why_not(state, who):
            continue
        left = attack_rolls_left(state, who) if index == now else max(sheet_of(who).multiattack, 1)
        out += swings(who, 0, left)
    return out


def for_save(
    state: D20Encounter,
    target: D20Combatant,
    ability: str,
    dc: int,
    source: str,
    cover: int = 0,
    magical: bool = False,
    condition: str = "",
) -> Odds:
    mode, auto_fail = save_mode(target, ability, magical, condition)
    bonus = sheet_of(target).save(ability) + save_cover(cover, ability)
    found = save_odds(bonus, dc, mode, auto_fail)
    return found._replace(whose=f"{target.name}'s chances vs {source}")


def for_death(state: D20Encounter, hero: D20Combatant, successes: int, failures: int) -> Odds:
    found = death_odds(successes, failures)
    ends = found.extra["ends"]
    assert isinstance(ends, dict)
    note = (
        f"left alone: back {percent(ends['revived'])}, stable {percent(ends['stable'])}, "
        f"dies {percent(ends['dead'])}"
    )
    return found._replace(extra={**found.extra, "note": note}, whose=f"{hero.name}'s death save")


def dialog_odds(state: D20Encounter, command: Any) -> Odds | None:
    """The odds of the roll a dialog's command would make (None: no such roll)."""
    try:
        match command:
            case D20Attack():
                attacker = state.combatant(command.attacker_id)
                target = state.combatant(command.target_id)
                if attacker.id == target.id:
                    return None
                return for_attack(
                    state,
                    attacker,
                    target,
                    command.mode,
                    command.cover,
                    command.damage,
                    command.action,
                    command.usage,
                )
            case D20SaveEffect():
                if not command.target_ids:
                    return None
                target = state.combatant(command.target_ids[0])
                source = state.name_of(command.source_id)
                return for_save(
                    state,
                    target,
                    command.ability,
                    command.dc,
                    source,
                    command.cover,
                    command.magical,
                    command.condition,
                )
            case D20Stabilise():
                return stabilise_odds(state, command)
            case D20DeathSave():
                hero = state.combatant(command.combatant_id)
                sheet = sheet_of(hero)
                return for_death(state, hero, sheet.death_successes, sheet.death_failures)
    except Rejected:
        return None
    return None


def drop_this_round(state: D20Encounter, command: D20Attack) -> tuple[Fraction, int] | None:
    """The chance the attack's target drops before the round ends, when more attacks than
    this one can come at it (``swings_this_round``), and how many: None otherwise."""
    attacker, target = state.combatant(command.attacker_id), state.combatant(command.target_id)
    against = sheet_of(target)
    if against.hp <= 0 or attacker.id == target.id:
        return None
    if UNDEAD_FORTITUDE in against.traits or relentless.cap(against) is not None:
        return None  # it may stand at 1 hit point: not the sum worked out here
    if not wounded(target) and any(  # its first wound gives the later attacks advantage
        BLOOD_FRENZY in sheet_of(c).traits for c in state.combatants if c.side != target.side
    ):
        return None
    swings = swings_this_round(state, attacker, target, command)
    if len(swings) < 2:
        return None
    chance = _drop_chance(swings, against.hp + against.temp_hp)
    return None if chance is None else (chance, len(swings))


@lru_cache(maxsize=64)
def _drop_chance(swings: tuple[Swing, ...], to_drop: int) -> Fraction | None:
    """``drop_chance`` bounded as dice are (many attacks of wide damage against thousands of
    hit points is a long sum), None when it is too long; kept, as the dialog's line is made
    again at every key typed in it."""
    try:
        return drop_chance(swings, to_drop, Budget())
    except Rejected:
        return None


def last_odds(state: D20Encounter, damage: bool = True) -> Odds | None:
    """The chances the last roll had before it was rolled (without ``damage``, an attack's
    tiers alone: what the luck of a fight's summary needs, never its damage worked out)."""
    roll = state.last_roll
    match roll:
        case D20Attacked():
            attacker, target = state.find(roll.attacker_id), state.find(roll.target_id)
            if attacker is None or target is None:
                return None
            if not damage:
                found = attack_odds(
                    roll.bonus, roll.ac, roll.mode, roll.crit_range, auto_crit=roll.auto_crit
                )
                return found._replace(whose=whose_chances(attacker.name, target.name))
            return attack_figures(
                roll.bonus,
                roll.mode,
                roll.crit_range,
                roll.auto_crit,
                roll.base_damage,
                roll.damage_type,
                attacker.name,
                target,
                roll.target_hp,  # as it was attacked, not after the damage dealt
                roll.cover,
                not roll.magical,
            )
        case D20Saved():
            first = roll.rolls[0]
            target = state.find(first.target_id)
            if target is None:
                return None
            found = save_odds(first.bonus, roll.dc, first.mode, first.auto_fail)
            return found._replace(
                whose=f"{target.name}'s chances vs {state.name_of(roll.source_id)}"
            )
        case D20DeathSaved():
            hero = state.find(roll.combatant_id)
            if hero is None:
                return None
            before = _before_death_save(roll)
            return for_death(state, hero, *before)
        case D20ConcentrationSaved():
            mode = -1 if len(roll.faces) == 2 else 0  # only disadvantage rolls two (exhaustion)
            found = save_odds(roll.bonus, roll.dc, mode)
            return found._replace(whose=f"{state.name_of(roll.combatant_id)}'s concentration")
    return None


def _before_death_save(roll: D20DeathSaved) -> tuple[int, int]:
    match roll.result:
        case "success":
            return roll.successes - 1, roll.failures
        case "failure":
            return roll.successes, max(roll.failures - 1, 0)
        case "two failures":
            return roll.successes, max(roll.failures - 2, 0)
    return roll.successes, roll.failures
