"""Where each combatant stands, read from the state: what its conditions do to its rolls,
whether it can act, its legendary actions and reaction left, and what waits to be rolled
(a concentration save, a dying hero's death save)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rules.errors import Rejected

from .condition_names import srd_name
from .damage_parts import parts_of
from .damage_types import counted
from .economy import spent
from .events import ACTION, ROLLS, D20State, Waiting, sheet_of, stamp_of, system_state
from .odds import save_chance
from .sheet import LAIR, D20Sheet, Stamp, life_word
from .table import (
    ATTACKED_WITH_ADVANTAGE,
    ATTACKED_WITH_DISADVANTAGE,
    ATTACKS_AT_ADVANTAGE,
    ATTACKS_AT_DISADVANTAGE,
    CRITICAL_WHEN_HIT,
    DEX_SAVES_AT_DISADVANTAGE,
    FAILS_STR_DEX,
    INCAPACITATING,
    PETRIFIED,
    PRONE,
    UNCONSCIOUS,
    modifier_of,
)
from .traits import AGAINST_CONDITIONS, AGAINST_MAGIC, BLOOD_FRENZY

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

NO_CONDITIONS: frozenset[str] = frozenset()
EXHAUSTED_ROLLS = 3  # exhaustion's level of disadvantage on attack rolls and saving throws
UNTYPED = "-"  # damage with no type, as petrified resists it (no sheet's type is "-")


def conditions_of(combatant: D20Combatant) -> frozenset[str]:
    """Its conditions by their SRD names, a British spelling read as the SRD's ("Paralysed"),
    a label of the table's own as typed (a dying or stable hero, a troll down, unconscious)."""
    if not combatant.conditions and combatant.sheet.hp > 0:
        return NO_CONDITIONS  # most combatants, most of the time (a forecast's runs)
    names = {srd_name(c.name) or c.name.casefold() for c in combatant.conditions}
    if life_word(combatant.sheet) in ("dying", "stable", "down"):
        names.add(UNCONSCIOUS)
    return frozenset(names)


def attack_mode(
    attacker: D20Combatant, target: D20Combatant, chosen: int, ranged: bool | None = None
) -> tuple[int, tuple[str, ...], bool]:
    """The attack's advantage (1), disadvantage (-1) or neither, from the dialog's choice and
    both sides' conditions (any of each cancel out), the reasons, and whether a hit is a
    critical (a paralyzed or unconscious target within 5 feet); ``ranged``: the stat block
    action's reach (None: the sheet's main attack's)."""
    mine, theirs = conditions_of(attacker), conditions_of(target)
    ranged = sheet_of(attacker).ranged if ranged is None else ranged
    up: list[str] = ["+chosen"] if chosen > 0 else []
    down: list[str] = ["-chosen"] if chosen < 0 else []
    if mine or theirs:  # most attacks: no condition on either side
        up += [f"+{attacker.name} {c}" for c in sorted(mine & ATTACKS_AT_ADVANTAGE)]
        down += [f"-{attacker.name} {c}" for c in sorted(mine & ATTACKS_AT_DISADVANTAGE)]
        up += [f"+{target.name} {c}" for c in sorted(theirs & ATTACKED_WITH_ADVANTAGE)]
        down += [f"-{target.name} {c}" for c in sorted(theirs & ATTACKED_WITH_DISADVANTAGE)]
        if PRONE in theirs or UNCONSCIOUS in theirs:  # an unconscious creature falls prone
            lying = "prone" if PRONE in theirs else "prone (unconscious)"
            if ranged:
                down.append(f"-{target.name} {lying}")
            else:
                up.append(f"+{target.name} {lying}")
    if not ranged and BLOOD_FRENZY in sheet_of(attacker).traits and wounded(target):
        up.append(f"+{attacker.name} Blood Frenzy")
    tired = sheet_of(attacker).exhaustion
    if tired >= EXHAUSTED_ROLLS:
        down.append(f"-{attacker.name} exhaustion {tired}")
    mode = (1 if up else 0) - (1 if down else 0)
    reasons = (*up, *down)
    auto_crit = not ranged and bool(theirs & CRITICAL_WHEN_HIT)
    return mode, reasons, auto_crit


def immune(target: D20Combatant, condition: str) -> bool:
    """Whether ``target``'s sheet is immune to ``condition`` (read as its SRD name)."""
    found = srd_name(condition)
    return bool(found) and found in sheet_of(target).condition_immunities


def wounded(target: D20Combatant) -> bool:
    """Whether ``target`` does not have all its hit points (what Blood Frenzy asks)."""
    sheet = sheet_of(target)
    return sheet.hp < sheet.hp_max


def damage_modifier(target: D20Combatant, kind: str, nonmagical: bool = False) -> str:
    """What ``target`` does to damage of type ``kind`` (``table.modifier_of``): its sheet's
    resistances, vulnerabilities and immunities (those "from nonmagical weapons" only when
    ``nonmagical``: a weapon attack that is not magical), and petrified's resistance to all
    damage (typeless too) and immunity to poison."""
    sheet = sheet_of(target)
    resist = counted(sheet.resistances, nonmagical)
    immune = counted(sheet.immunities, nonmagical)
    if target.conditions and PETRIFIED in conditions_of(target):
        kind = kind or UNTYPED
        resist, immune = (*resist, kind), (*immune, "poison")
    return modifier_of(kind, resist, counted(sheet.vulnerabilities, nonmagical), immune)


def damage_modifiers(
    target: D20Combatant, damage: str, kind: str, nonmagical: bool = False
) -> str | tuple[str, ...]:
    """What ``target`` does to a damage as a sheet keeps it: one modifier for its one type, or
    one for each of several types in order (``parts``)."""
    try:
        found = parts_of(damage, kind)
    except Rejected:  # unreadable: its odds are refused where its dice are worked out
        return damage_modifier(target, kind, nonmagical)
    if len(found) == 1:
        return damage_modifier(target, found[0].kind, nonmagical)
    return tuple(damage_modifier(target, part.kind, nonmagical) for part in found)


def save_made(
    target: D20Combatant, ability: str, dc: int, magical: bool = False, condition: str = ""
) -> Fraction:
    """The chance ``target`` makes a save as it stands (its conditions counted) against an
    effect (``magical``: a spell or other magical effect; ``condition``: what it lays)."""
    mode, auto_fail = save_mode(target, ability, magical, condition)
    return save_chance(sheet_of(target).save(ability), dc, mode, auto_fail)


def save_mode(
    target: D20Combatant, ability: str, magical: bool = False, condition: str = ""
) -> tuple[int, bool]:
    """A saving throw's disadvantage (restrained, Dexterity; exhaustion) or advantage (a
    trait against a ``magical`` effect or one laying ``condition``: ``save_traits``), the two
    cancelling, and whether it fails outright (paralyzed, petrified, stunned or unconscious,
    Strength or Dexterity)."""
    mine = conditions_of(target)
    auto_fail = ability in ("str", "dex") and bool(mine & FAILS_STR_DEX)
    worse = ability == "dex" and bool(mine & DEX_SAVES_AT_DISADVANTAGE)
    worse = worse or sheet_of(target).exhaustion >= EXHAUSTED_ROLLS
    better = bool(save_traits(target, ability, magical, condition))
    return int(better) - int(worse), auto_fail


def save_traits(
    target: D20Combatant, ability: str, magical: bool, condition: str
) -> tuple[str, ...]:
    """The traits that give ``target`` advantage on this save (Magic Resistance against a
    magical effect; Brave against one that frightens...)."""
    traits = sheet_of(target).traits
    if not traits:  # most creatures: no trait at all
        return ()
    laid = srd_name(condition) if condition else ""
    return tuple(
        t
        for t in traits
        if (magical and ability in AGAINST_MAGIC.get(t, ()))
        or (laid and laid in AGAINST_CONDITIONS.get(t, ()))
    )


def why_not(state: D20Encounter, combatant: D20Combatant) -> str:
    """Why it cannot act now ("" when it can)."""
    life = life_word(combatant.sheet)
    if life or not combatant.conditions:
        return life
    stopped = sorted(conditions_of(combatant) & INCAPACITATING)
    return stopped[0] if stopped else ""


def out_word(combatant: D20Combatant) -> str:
    """Out of the fight: "dead", "down" for a hero at 0 hit points (or a troll), or "lair"
    for a lair (it takes its turn, but no side fights on for it)."""
    sheet: D20Sheet = combatant.sheet  # not sheet_of: asked of every foe at each attack
    if sheet.kind == LAIR:
        return "lair"
    # life_word's commonest answers without its call: the dead pile up in a long fight
    if sheet.dead:
        return "dead"
    if sheet.hp > 0:
        return ""
    life = life_word(sheet)
    return "" if not life else ("dead" if life == "dead" else "down")


def legendary_left(state: D20Encounter, combatant: D20Combatant) -> int:
    """Legendary actions left: spent ones count since the start of its own last turn."""
    sheet = sheet_of(combatant)
    if not sheet.legendary:
        return 0
    return sheet.legendary - len(spent_since_own_turn(state, combatant, sheet))


def spent_since_own_turn(
    state: D20Encounter, combatant: D20Combatant, sheet: D20Sheet
) -> tuple[Stamp, ...]:
    place = state.index_of(combatant.id)
    now_round, now_place = stamp_of(state)
    start = (now_round, place) if place <= now_place else (now_round - 1, place)
    return tuple(s for s in sheet.legendary_spent if s >= start)


def attacks_left(state: D20Encounter, combatant: D20Combatant) -> int:
    """The attacks its action has left on this turn (its Multiattack, less those made; none
    once the action is spent, economy.py); on another's turn, a whole action's (a reaction or
    a legendary action is one attack)."""
    sheet = sheet_of(combatant)
    most = max(sheet.multiattack, 1)
    if state.current_id != combatant.id:
        return most
    if spent(state, combatant, ACTION):
        return 0
    if most == 1 or not sheet.attacks_made:
        return most
    now = stamp_of(state)
    return max(most - sum(1 for s in sheet.attacks_made if s == now), 0)


def reaction_used(state: D20Encounter, combatant: D20Combatant) -> bool:
    return sheet_of(combatant).reaction_round == state.round


def concentration_waiting(state: D20Encounter) -> Waiting | None:
    """The first concentration save owed by someone still here."""
    for waiting in system_state(state).concentration_saves:
        if state.find(waiting.combatant_id) is not None:
            return waiting
    return None


def death_save_waiting(state: D20Encounter) -> D20Combatant | None:
    """Whoever's turn it is, when it is a dying hero that has not rolled this turn."""
    actor = state.current
    return actor if actor is not None and owes_death_save(state, actor) else None


def owes_death_save(state: D20Encounter, actor: D20Combatant) -> bool:
    """Whether ``actor``, whose turn it is, is a dying hero that has not rolled this turn."""
    if life_word(actor.sheet) != "dying":
        return False
    return (actor.id, state.round) not in system_state(state).death_saved


def with_state(state: D20Encounter, found: D20State) -> D20Encounter:
    return state.update(system_state=found)


def in_turn(state: D20Encounter) -> tuple[D20Combatant, ...]:
    """Who takes a turn: everyone but the dead (a dying hero rolls its death saves). Asked at
    every turn passed, so the dead and those above 0 (``life_word``'s commonest answers) are
    seen without a call: a round of 40 turns is not 40 times 40 calls."""
    return tuple(
        [
            c
            for c in state.combatants
            if not (sheet := c.sheet).dead and (sheet.hp > 0 or life_word(sheet) != "dead")
        ]
    )


def roll_waits(state: D20Encounter) -> bool:
    """Whether the last roll's damage or conditions wait to be dealt (a miss deals none)."""
    roll = state.last_roll
    if state.last_roll_applied:
        return False
    if isinstance(roll, ROLLS[0]):
        return roll.outcome != "miss" and state.find(roll.target_id) is not None
    return isinstance(roll, ROLLS[1])
