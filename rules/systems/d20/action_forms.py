"""The dialogs' side of a stat block's actions (stat_actions.py): the Action choice of the
attack dialog, the legendary dialog's and the reaction dialog's lists, and the command each
chosen action makes: an attack, a save effect on the targets chosen, a Multiattack's next
part, or, for an action with no roll (Detect), the action logged as used."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.errors import Rejected

from .actions import D20Action, action_text, made, named
from .cover import BONUS as COVER_BONUS
from .economy import note, spent
from .events import (
    ACTION,
    LEGENDARY,
    REACTION,
    D20Attack,
    D20LegendaryAction,
    D20Reaction,
    D20SaveEffect,
    D20UseAction,
    sheet_of,
)
from .standing import save_traits
from .stat_actions import composition, find, listed, parts_left, parts_made, save_command
from .table import MODE_OF
from .uses import recharge_odds, unavailable

MAX_NAMED = 4  # targets a dialog's note names (an area may hold dozens)

if TYPE_CHECKING:
    from .events import D20Combatant, D20Encounter

SIDE = "side:"
SHEETS = ""  # the Action choice's value for the sheet's own attack (no actions typed)
MAX_LABEL = 48  # characters of a choice's label: an action's parts cut to fit 80 columns


def anyone_acts_by_name(state: D20Encounter) -> bool:
    """Whether any combatant has a stat block's actions: the attack dialog asks which."""
    return any(sheet_of(c).actions for c in state.combatants)


def ordered(actor: D20Combatant) -> tuple[D20Action, ...]:
    """Its actions as the dialog offers them: its Multiattack first, then its main attack,
    then the rest in the stat block's order."""
    sheet = sheet_of(actor)
    multi = composition(sheet)
    main = next((a for a in sheet.actions if a.name == sheet.attack and a.attack), None)
    first = [a for a in (multi, main) if a is not None]
    return (*first, *(a for a in sheet.actions if a not in first))


def _label(action: D20Action) -> str:
    text = action_text(action)
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def action_choices(state: D20Encounter, actor: D20Combatant) -> tuple[tuple[str, str], ...]:
    """The attack dialog's Action choice: ``actor``'s actions first, the sheet's own attack,
    then the others' actions by name (so another attacker chosen, or named on the ``:`` line,
    finds its own)."""
    own = ordered(actor)
    sheet = sheet_of(actor)
    mine = tuple((a.name, _label(a)) for a in own)
    sheets = ((SHEETS, f"The attacker's main attack ({sheet.attack})"),)
    seen = {a.name.casefold() for a in own}
    others: list[tuple[str, str]] = []
    for other in state.combatants:
        for action in sheet_of(other).actions if other.id != actor.id else ():
            if action.name.casefold() not in seen:
                seen.add(action.name.casefold())
                others.append((action.name, f"{action.name} ({other.name})"))
    return (*mine, *sheets, *others) if mine else (*sheets, *others)


def side_choices(state: D20Encounter) -> tuple[tuple[str, str], ...]:
    sides = sorted({c.side for c in state.combatants})
    return tuple((SIDE + s, f"Everyone of {s}") for s in sides)


def targets_of(state: D20Encounter, chosen: str, source: str) -> tuple[str, ...]:
    """One combatant, or a whole side but the source (an area)."""
    if chosen.startswith(SIDE):
        side = chosen[len(SIDE) :]
        return tuple(c.id for c in state.combatants if c.side == side and c.id != source)
    return (chosen,)


def followed(state: D20Encounter, values: Mapping[str, str], proposed: str) -> str:
    """The Action chosen, or, where it was left at the one ``proposed`` for the dialog's
    actor and the attacker chosen (or named on the ``:`` line) has no action of that name,
    the attacker's own first: `:attack orla dragon` on the dragon's turn took its
    Multiattack for Orla, and was refused."""
    name = values["action"]
    attacker = state.find(values["attacker"])
    if name != proposed or name == SHEETS or attacker is None:
        return name
    if any(a.name.casefold() == name.casefold() for a in sheet_of(attacker).actions):
        return name
    return action_choices(state, attacker)[0][0]


def roll_command(state: D20Encounter, values: Mapping[str, str], attacker_id: str) -> Any:
    """The attack dialog's command for the action chosen (``values["action"]``)."""
    attacker = state.combatant(attacker_id)
    usage = values["usage"]
    name = values.get("action", SHEETS)
    if name == SHEETS:
        return _attack(values, attacker_id, _one_target(values["target"]), "", "")
    sheet = sheet_of(attacker)
    pool = (*sheet.reactions, *sheet.actions) if usage == REACTION else sheet.actions
    if named(pool, name) is None:  # another's, as the Action choice lists them
        owner = next((c for c in state.combatants if named(sheet_of(c).actions, name)), None)
        if owner is not None and owner.id != attacker_id:
            raise Rejected(
                f"{owner.name}'s {name} is not {attacker.name}'s: choose {owner.name} as the "
                f"Attacker, or one of {attacker.name}'s own actions"
            )
    action = find(pool, name, attacker.name)
    of = ""
    if action.makes:  # its next part (all of them off its turn, or once the action is spent)
        left = parts_left(state, attacker) or made(sheet.actions, action)
        if left:
            action, of = left[0], action.name
    return play(state, values, attacker_id, action, of)


def play(
    state: D20Encounter, values: Mapping[str, str], who: str, action: D20Action, of: str
) -> Any:
    """The command that plays ``action`` (made by ``of``) with the dialog's values."""
    usage = values["usage"]
    if action.attack:
        return _attack(values, who, _one_target(values["target"]), action.name, of)
    if action.save:
        return save_command(
            action,
            who,
            targets_of(state, values["target"], who),
            usage,
            of,
            damage=values.get("damage", "").strip() or action.damage,
            cover=COVER_BONUS.get(values.get("cover", "none"), 0),
            drain=values.get("drain") == "yes",
        )
    if usage == LEGENDARY:
        return D20LegendaryAction(who, of or action.name)
    if usage == REACTION:
        return D20Reaction(who, action.name)
    return D20UseAction(who, action.name, usage)


def _one_target(chosen: str) -> str:
    if chosen.startswith(SIDE):
        raise Rejected("An attack has one target: choose a combatant, not a side")
    return chosen


def _attack(values: Mapping[str, str], who: str, target: str, name: str, of: str) -> D20Attack:
    return D20Attack(
        who,
        target,
        MODE_OF.get(values.get("mode", "normal"), 0),
        values["usage"],
        cover=COVER_BONUS.get(values.get("cover", "none"), 0),
        drain=values.get("drain") == "yes",
        damage=values.get("damage", ""),
        action=name,
        of=of,
    )


def part_note(state: D20Encounter, command: Any) -> str:
    """Which part of its Multiattack the command makes, and what is left after it."""
    of = getattr(command, "of", "")
    who = state.find(getattr(command, "attacker_id", getattr(command, "source_id", "")))
    if not of or who is None or getattr(command, "usage", "") != ACTION:
        return ""
    multi = composition(sheet_of(who))
    if multi is None or multi.name != of:
        return ""
    used = note(state, who, ACTION)  # its last part made: the preview said "part 3 of 3"
    if spent(state, who, ACTION) and used:
        return f"{of}: {used.removeprefix('; ')}"
    parts = made(sheet_of(who).actions, multi)
    done = len(parts_made(state, who))
    left = parts_left(state, who)[1:]
    after = f"; then {listed(left)}" if left else "; its last part: the action spent"
    return f"{of}: part {min(done + 1, len(parts))} of {len(parts)}{after}"


def legendary_choices(sheet_actions: tuple[D20Action, ...]) -> tuple[tuple[str, str], ...]:
    """The legendary dialog's list: each by name with its cost ("Wing Attack (costs 2)")."""
    return tuple(
        (a.name, f"{a.name} (costs {a.cost})" if a.cost > 1 else a.name) for a in sheet_actions
    )


def legendary_command(state: D20Encounter, values: Mapping[str, str], who: str) -> Any:
    """The legendary dialog's command for a legendary action of the list: the action it
    makes (Tail Attack: its Tail), its own save or attack (Wing Attack), or it logged."""
    creature = state.combatant(who)
    sheet = sheet_of(creature)
    chosen = find(sheet.legendary_actions, values["what"], creature.name, "legendary action")
    action, of = chosen, ""
    if chosen.makes:
        action = find(sheet.actions, chosen.makes[0][0], creature.name)
        of = chosen.name
    if not (action.attack or action.save):
        return D20LegendaryAction(who, chosen.name, chosen.cost)
    return play(state, {**values, "usage": LEGENDARY}, who, action, of)


def reaction_command(state: D20Encounter, values: Mapping[str, str], who: str) -> Any:
    """The reaction dialog's command for a reaction of the list: played as its attack or save,
    or marked used."""
    creature = state.combatant(who)
    action = find(sheet_of(creature).reactions, values["what"], creature.name, "reaction")
    return play(state, {**values, "usage": REACTION}, who, action, "")


def played_preview(state: D20Encounter, command: Any) -> str:
    """The dialog's line for a stat block action that rolls no attack ("" for another)."""
    match command:
        case D20SaveEffect() if command.action:
            source = state.combatant(command.source_id)
            on_save = "half" if command.half else "none"
            what = ", ".join(
                w for w in (command.damage and f"{command.damage} ({on_save} on a save)",
                            command.condition) if w
            )  # fmt: skip
            names = ", ".join(state.name_of(t) for t in command.target_ids[:4])
            more = f" and {len(command.target_ids) - 4} more" if len(command.target_ids) > 4 else ""
            line = (
                f"{source.name}'s {command.action}: {command.ability.capitalize()} save DC "
                f"{command.dc}{', ' + what if what else ''}; on {names}{more}"
            )
            part = part_note(state, command)
            return f"{line}; {part}" if part else line
        case D20UseAction():
            return f"{state.name_of(command.combatant_id)} uses {command.action}: no roll"
        case D20LegendaryAction():
            return f"{state.name_of(command.combatant_id)} takes {command.what}: no roll"
        case D20Reaction():
            return f"{state.name_of(command.combatant_id)} reacts with {command.what}: no roll"
    return ""


def magic_note(state: D20Encounter, command: D20SaveEffect) -> str:
    """The targets a trait gives advantage on this save, as the dialog names them ("Imp at
    advantage: Magic Resistance"), and those it would were the effect magical."""
    targets = [found for t in command.target_ids[:MAX_NAMED] if (found := state.find(t))]
    ability, laid = command.ability, command.condition
    better = [
        f"{c.name} at advantage: {', '.join(why)}"
        for c in targets
        if (why := save_traits(c, ability, command.magical, laid))
    ]
    would = [
        c.name
        for c in targets
        if not command.magical
        and save_traits(c, ability, True, laid) != save_traits(c, ability, False, laid)
    ]
    if would:
        better.append(f"{', '.join(would)}: advantage, were it magical")
    return "; ".join(better)


def lists_of(sheet: Any) -> tuple[tuple[D20Action, ...], ...]:
    """A sheet's three lists: its actions, its legendary actions, its reactions."""
    return sheet.actions, sheet.legendary_actions, sheet.reactions


def use_choices(state: D20Encounter, actor: D20Combatant) -> tuple[tuple[str, str], ...]:
    """Every action of every stat block by name, ``actor``'s first (its Multiattack first),
    once each: a legendary action with its cost."""
    found: dict[str, tuple[str, str]] = {}
    others = [c for c in state.combatants if c.id != actor.id]
    for who in (actor, *others):
        sheet = sheet_of(who)
        own = (*ordered(who), *sheet.legendary_actions, *sheet.reactions)
        for action in own:
            label = f"{action.name} (costs {action.cost})" if action.cost > 1 else action.name
            found.setdefault(action.name.casefold(), (action.name, label))
    return tuple(found.values())


def use_command(state: D20Encounter, values: Mapping[str, str]) -> Any:
    """The ``use`` dialog's command: a legendary action or a reaction of its lists when used
    as one, else one of its actions as the attack dialog plays it."""
    who = values["who"]
    sheet = sheet_of(state.combatant(who))
    name, usage = values["action"], values["usage"]
    if named(sheet.actions, name) is None:  # only legendary, or only a reaction: taken as one
        if named(sheet.legendary_actions, name) is not None:
            usage = LEGENDARY
        elif named(sheet.reactions, name) is not None:
            usage = REACTION
    if usage == LEGENDARY and named(sheet.legendary_actions, name) is not None:
        return legendary_command(state, {**values, "what": name}, who)
    if usage == REACTION and named(sheet.reactions, name) is not None:
        return reaction_command(state, {**values, "what": name}, who)
    return roll_command(state, {**values, "attacker": who}, who)


def unavailable_note(state: D20Encounter, command: Any) -> str:
    """The dialog's word when the action it would play cannot be used now ("Fire Breath is
    recharging (5-6)": refused, with its exact odds of coming back), "" when it can or names
    none."""
    name = getattr(command, "action", "")
    who = state.find(getattr(command, "attacker_id", getattr(command, "source_id", "")))
    if not name or who is None:
        return ""
    sheet = sheet_of(who)
    action = named((*sheet.actions, *sheet.legendary_actions, *sheet.reactions), name)
    why = unavailable(state, who, action) if action is not None else ""
    if not why:
        return ""
    odds = recharge_odds(action) if action is not None and action.name in sheet.recharging else ""
    back = f" ({odds.partition(': ')[2]})" if odds else ""  # 33.3% back this turn, 55.6% ...
    return f"; {why}: refused{back}"
