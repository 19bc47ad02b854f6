"""A stat block's actions played by name (actions.py): the action a command names found on
its sheet and checked, and what a Multiattack has left to make on the turn under way.

A Multiattack spends one action: its parts (Frightful Presence, Bite, Claw x2) are made one
by one, each a roll of its own marked ``of`` the Multiattack, and the action is spent with
the last of them (``part_made``). While one is under way, another action is a second one and
refused (rulings.md D5-02). A legendary action that makes another ("Tail Attack: Tail") is
played as the action it makes, marked ``of`` the legendary action, whose cost it spends.
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import TYPE_CHECKING, Any, NamedTuple

from msgspec import Struct, structs

from rules.errors import Rejected

from .actions import D20Action, made, named
from .economy import ANOTHER, own_turn, spent
from .events import (
    ACTION,
    LEGENDARY,
    MAX_MADE,
    REACTION,
    D20SaveEffect,
    Turn,
    sheet_of,
    stamp_of,
    system_state,
)
from .sheet import attack_damage
from .standing import attacks_left
from .table import split_damage
from .uses import unavailable

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter
    from .sheet import D20Sheet, Stamp


class Played(Struct, frozen=True):
    """The action a command plays, what makes it ("": itself) and the legendary actions it
    costs (1 off a legendary action)."""

    action: D20Action
    of: str = ""
    cost: int = 1


def composition(sheet: D20Sheet) -> D20Action | None:
    """Its Multiattack: the first of its actions that makes others."""
    return next((a for a in sheet.actions if a.makes), None)


def parts_made(state: D20Encounter, who: D20Combatant) -> tuple[str, ...]:
    """The parts of its Multiattack made on its own turn under way, by name."""
    turn = system_state(state).turn
    if turn is None or turn.combatant_id != who.id or not own_turn(state, who.id):
        return ()
    return turn.made if turn.stamp == stamp_of(state) else ()


def parts_left(state: D20Encounter, who: D20Combatant) -> tuple[D20Action, ...]:
    """What its Multiattack has still to make this turn, in its order (none once the
    action is spent, or without a Multiattack)."""
    sheet = sheet_of(who)
    multi = composition(sheet)
    if multi is None or spent(state, who, ACTION):
        return ()
    left = list(made(sheet.actions, multi))
    for name in parts_made(state, who):
        found = next((a for a in left if a.name == name), None)
        if found is not None:
            left.remove(found)
    return tuple(left)


def attack_rolls_left(state: D20Encounter, who: D20Combatant) -> int:
    """The attack rolls its action has left on this turn: its stat block Multiattack's parts
    that roll to hit, or the sheet's own Multiattack's (``standing.attacks_left``)."""
    if state.current_id != who.id or composition(sheet_of(who)) is None:
        return attacks_left(state, who)
    return sum(1 for part in parts_left(state, who) if part.bonus is not None)


def under_way(state: D20Encounter, who: D20Combatant) -> bool:
    """Whether its Multiattack is begun on this turn and not yet whole."""
    return bool(parts_made(state, who)) and bool(parts_left(state, who))


def listed(left: tuple[D20Action, ...]) -> str:
    """Parts as a composition writes them: "Bite, Claw x2"."""
    counts: dict[str, int] = {}
    for action in left:
        counts[action.name] = counts.get(action.name, 0) + 1
    return ", ".join(n if c == 1 else f"{n} x{c}" for n, c in counts.items())


def find(actions: tuple[D20Action, ...], name: str, who: str, what: str = "action") -> D20Action:
    """The action called ``name``; else refused in one line, with the nearest names."""
    found = named(actions, name)
    if found is not None:
        return found
    names = [a.name for a in actions]
    near = get_close_matches(name.casefold(), [n.casefold() for n in names], n=2, cutoff=0.6)
    meant = [n for n in names if n.casefold() in near]
    hint = f": did you mean {' or '.join(repr(n) for n in meant)}?" if meant else ""
    offered = "" if meant else f" (it has {', '.join(names) or 'none'})"
    return _refused(f"{who} has no {what} {name[:40]!r}{hint or offered}")


def _refused(message: str) -> D20Action:
    raise Rejected(message)


def chosen(state: D20Encounter, who: D20Combatant, name: str, of: str, usage: str) -> Played:
    """The action ``name`` that ``who`` plays now as ``usage``, made by ``of`` ("" itself),
    checked: it is on the sheet, ``uses.unavailable`` lets it, and it is no second action
    while a Multiattack is under way. A legendary action is looked for in the legendary
    actions first, a reaction in the reactions."""
    sheet = sheet_of(who)
    if usage == LEGENDARY:
        return _legendary(state, who, name, of)
    pool = (*sheet.reactions, *sheet.actions) if usage == REACTION else sheet.actions
    action = find(pool, name, who.name, "reaction" if usage == REACTION else "action")
    if of:
        maker = find(sheet.actions, of, who.name)
        if all(n.casefold() != action.name.casefold() for n, _ in maker.makes):
            raise Rejected(f"{maker.name} does not make {action.name}")
        _checked(state, who, maker)
    else:
        _checked(state, who, action)
    if usage != ACTION or not own_turn(state, who.id):
        return Played(action, of)
    multi = composition(sheet)
    left = parts_left(state, who)
    if multi is not None and (of or under_way(state, who)):
        if all(a.name != action.name for a in left):
            already = "its Multiattack is made" if not left else f"{listed(left)} left"
            raise Rejected(
                f"{who.name}'s {multi.name} has no {action.name} left to make ({already}): "
                f"another action would be a second one ({ANOTHER})"
            )
        return Played(action, multi.name)
    return Played(action, of)


def _legendary(state: D20Encounter, who: D20Combatant, name: str, of: str) -> Played:
    sheet = sheet_of(who)
    if of:
        maker = find(sheet.legendary_actions, of, who.name, "legendary action")
        action = find(sheet.actions, name, who.name)
        if all(n.casefold() != action.name.casefold() for n, _ in maker.makes):
            raise Rejected(f"{maker.name} does not make {action.name}")
        _checked(state, who, maker)
        return Played(action, maker.name, maker.cost)
    own = named(sheet.legendary_actions, name)
    if own is not None:
        _checked(state, who, own)
        return Played(own, "", own.cost)
    action = find((*sheet.legendary_actions, *sheet.actions), name, who.name, "legendary action")
    _checked(state, who, action)
    return Played(action)  # one of its actions as a legendary action: an attack, costs 1


def _checked(state: D20Encounter, who: D20Combatant, action: D20Action) -> None:
    why = unavailable(state, who, action)
    if why:
        raise Rejected(why)


def part_made(state: D20Encounter, who: str, name: str, stamp: Stamp) -> D20Encounter:
    """The state once ``who`` has made ``name``, a part of its Multiattack, on its own turn
    (``stamp``): the action spent with the last part. Off its own turn nothing is counted,
    as ``economy.spend`` counts nothing."""
    found = state.find(who)
    if found is None or not own_turn(state, who) or stamp != stamp_of(state):
        return state
    found_state = system_state(state)
    turn = found_state.turn
    if turn is None or turn.combatant_id != who or turn.stamp != stamp:
        turn = Turn(who, stamp)
    turn = structs.replace(turn, made=(*turn.made, name)[-MAX_MADE:])
    state = state.update(system_state=structs.replace(found_state, turn=turn))
    if parts_left(state, found):
        return state
    spent_too = structs.replace(turn, spent=tuple(dict.fromkeys((*turn.spent, ACTION))))
    return state.update(system_state=structs.replace(found_state, turn=spent_too))


class AttackProfile(NamedTuple):
    """The attack a command makes: its name, bonus, reach, damage and type, and whether it is
    magical (the sheet's *Magical attacks*, or the action's own ``magical``)."""

    name: str
    bonus: int
    ranged: bool
    damage: str
    kind: str
    magical: bool


def attack_profile(sheet: D20Sheet, name: str, usage: str, typed: str = "") -> AttackProfile:
    """The attack a command makes, unchecked (a dialog's preview and odds); the sheet's main
    attack when ``name`` is none of its attacks. Damage ``typed`` stands for the action's, as
    for the sheet's."""
    pool = (*sheet.reactions, *sheet.actions) if usage == REACTION else sheet.actions
    action = named(pool, name) if name else None
    damage, kind = attack_damage(sheet, typed)
    if action is None or action.bonus is None:
        return AttackProfile(sheet.attack, sheet.attack_bonus, sheet.ranged, damage, kind,
                             sheet.magical)  # fmt: skip
    if not typed.strip():
        damage, kind = split_damage(action.damage) if action.damage else ("", "")
    magical = sheet.magical or action.magical
    return AttackProfile(action.name, action.bonus, action.ranged, damage, kind, magical)


def save_command(
    action: D20Action, source_id: str, target_ids: tuple[str, ...], usage: str, of: str, **more: Any
) -> D20SaveEffect:
    """The save effect ``action`` (one with a save) makes on ``target_ids``: its DC, damage,
    condition and whether its save ends it; ``more`` the dialog's own (cover, a damage typed)."""
    ability, dc = action.save.split()
    fields: dict[str, Any] = {
        "damage": action.damage,
        "half": action.half,
        "condition": action.condition,
        "repeat": action.repeat,
        "magical": action.magical,
        **more,
    }
    return D20SaveEffect(
        source_id=source_id,
        target_ids=target_ids,
        effect=action.name,
        ability=ability,
        dc=int(dc),
        usage=usage,
        action=action.name,
        of=of,
        **fields,
    )
