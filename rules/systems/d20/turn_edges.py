"""What the SRD ties to the start and end of a turn (issue 40, D4-02; rulings.md): a save
repeated at the end of each of the target's turns ("save ends", Hold Person), damage and
regeneration at the start of a turn (ongoing fire, a troll's regeneration, switched off for
a turn by fire or acid), a recharge rolled at the start of the creature's turn, and
conditions that last until the start or end of someone's next turn.

A condition that ends with a turn ends as the turn passes (``passing``, the core's
``turn_passing`` hook). A save or what a turn's start brings waits, as a roll's damage does
("waiting (d)"): ``d`` rolls it (``owed_command``), ``x`` sets it aside, solo play rolls it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from msgspec import structs

from rules.bounds import CONDITIONS
from rules.conditions import Condition
from rules.errors import Rejected
from rules.events import ConditionAdded, ConditionRemoved
from rules.odds import Odds, percent

from . import regeneration, uses
from . import table as dmg
from .decide import d20, damage_events
from .events import D20Healed, sheet_of, stamp_of, system_state
from .odds import save_odds
from .sheet import MAX_DC, MAX_HP, MAX_TEXT, life_word
from .standing import save_made, save_mode
from .table import ABILITIES
from .taken import dealt
from .turn_edge_events import (
    END,
    SAVE,
    START,
    D20EndingSet,
    D20EndOfTurnSave,
    D20EndOfTurnSaved,
    D20Perished,
    D20Recharged,
    D20RegenerationOff,
    D20RegenerationStopped,
    D20SetEnding,
    D20SetTurnStart,
    D20StartOfTurn,
    D20TurnPassed,
    D20TurnStarted,
    D20TurnStartSet,
    Edge,
    TurnStart,
)

if TYPE_CHECKING:
    from rules.dice import DiceSource

    from .events import D20Combatant, D20Encounter

COMMANDS = (D20SetEnding, D20SetTurnStart, D20RegenerationOff, D20EndOfTurnSave, D20StartOfTurn)
EVENTS = (
    D20EndingSet,
    D20TurnStartSet,
    D20RegenerationStopped,
    D20TurnPassed,
    D20EndOfTurnSaved,
    D20Recharged,
    D20TurnStarted,
    D20Perished,
)
DIE = 6  # a recharge's die
# A save at the end of a turn: the save tiers (same labels and bands), what each does here.
END_SAVE_TIERS = (
    ("fail", None, -1, "it stays"),
    ("save", 0, None, "it ends"),
)


# --- what waits --------------------------------------------------------------------------------


def _holds(state: D20Encounter, edge: Edge) -> D20Combatant | None:
    """The edge's target, while it is here, alive and still has the condition."""
    target = state.find(edge.target_id)
    if target is None or target.condition(edge.condition) is None:
        return None
    return None if life_word(sheet_of(target)) == "dead" else target


def save_waiting(state: D20Encounter) -> Edge | None:
    """The first save owed at the end of its target's turn."""
    for edge in system_state(state).edges:
        if edge.owed and _holds(state, edge) is not None:
            return edge
    return None


def start_waiting(state: D20Encounter) -> TurnStart | None:
    """What the start of the turn under way brings, while something waits to be done."""
    found = system_state(state)
    if not found.starting_id or found.starting_id != state.current_id:
        return None
    start = next((s for s in found.starts if s.combatant_id == found.starting_id), None)
    who = state.find(found.starting_id)
    if who is None or life_word(sheet_of(who)) == "dead":
        return None
    if start is None:  # a stat block's spent recharge actions alone (uses.py)
        return TurnStart(who.id) if uses.spent_recharges(sheet_of(who)) else None
    if start.ongoing or _regenerates(state, start, who) or (start.recharge and not start.ready):
        return start
    return start if uses.spent_recharges(sheet_of(who)) else None


def _regenerates(state: D20Encounter, start: TurnStart, who: D20Combatant) -> bool:
    sheet = sheet_of(who)
    return bool(start.regeneration) and system_state(state).regenerating and sheet.hp < sheet.hp_max


def owed_command(state: D20Encounter) -> Any | None:
    """The command that rolls what waits at a turn's edge (None: nothing does)."""
    edge = save_waiting(state)
    if edge is not None:
        return D20EndOfTurnSave(edge.target_id, edge.condition)
    start = start_waiting(state)
    if start is not None:
        return D20StartOfTurn(start.combatant_id)
    return None


def owed_by(command: D20EndOfTurnSave | D20StartOfTurn) -> str:
    """Whose roll ``owed_command`` is."""
    return command.target_id if isinstance(command, D20EndOfTurnSave) else command.combatant_id


def owed_words(state: D20Encounter) -> str:
    """What a solo combatant does of what waits, as its line says it."""
    edge = save_waiting(state)
    if edge is not None:
        return f"saves against {edge.condition} at the end of its turn (DC {edge.dc})"
    start = start_waiting(state)
    return f"starts its turn: {_brings(state, start)}" if start is not None else ""


def pending(state: D20Encounter) -> str:
    """What waits, in a few words, with its chance."""
    edge = save_waiting(state)
    if edge is not None:
        target = state.combatant(edge.target_id)
        made = save_made(target, edge.ability, edge.dc, edge.magical, edge.condition)
        ability = edge.ability.capitalize()
        return f"{target.name}: {ability} save DC {edge.dc} ends {edge.condition} ({percent(made)})"
    start = start_waiting(state)
    if start is not None:
        return f"{state.name_of(start.combatant_id)}'s turn starts: {_brings(state, start)}"
    return ""


def _brings(state: D20Encounter, start: TurnStart) -> str:
    who = state.combatant(start.combatant_id)
    parts = []
    if start.ongoing:
        parts.append(f"takes {start.ongoing}")
    if _regenerates(state, start, who):
        # A troll down at 0: set aside (x), it does not regenerate, and dies (D5-16).
        down = " (set aside, it dies)" if life_word(sheet_of(who)) == "down" else ""
        parts.append(f"regains {start.regeneration} HP{down}")
    if start.recharge and not start.ready:
        chance = percent(Fraction(DIE + 1 - start.recharge, DIE))
        parts.append(f"recharge {recharge_text(start.recharge)} ({chance})")
    actions = uses.waiting_words(sheet_of(who))
    return ", ".join([*parts, actions] if actions else parts)


def recharge_text(lowest: int) -> str:
    return "6" if lowest == DIE else f"{lowest}-{DIE}"


def discard(state: D20Encounter) -> D20Encounter | None:
    """The state once what waits at a turn's edge is set aside (None: nothing waits)."""
    found = system_state(state)
    edge = save_waiting(state)
    if edge is not None:
        edges = tuple(structs.replace(e, owed=False) if e is edge else e for e in found.edges)
        return state.update(system_state=structs.replace(found, edges=edges))
    start = start_waiting(state)
    if start is not None:
        state = state.update(system_state=structs.replace(found, starting_id=""))
        who = state.combatant(start.combatant_id)
        if life_word(sheet_of(who)) == "down" and _regenerates(state, start, who):
            state = _dies(state, who)  # set aside at 0: "dies ... if it ... doesn't regenerate"
        return state
    return None


# --- decide ------------------------------------------------------------------------------------


def decide(state: D20Encounter, command: Any, dice: DiceSource) -> list[Any]:
    match command:
        case D20EndOfTurnSave():
            return _end_of_turn_save(state, command, dice)
        case D20StartOfTurn():
            return _start_of_turn(state, command, dice)
        case D20SetEnding():
            return _set_ending(state, command)
        case D20SetTurnStart():
            return [D20TurnStartSet(_turn_start(state, command))]
        case D20RegenerationOff():
            who = state.combatant(command.combatant_id)
            if not any(s.combatant_id == who.id and s.regeneration for s in _starts(state)):
                raise Rejected(f"{who.name} does not regenerate (Start of turn sets it)")
            return [D20RegenerationStopped(who.id)]
    raise Rejected(f"Generic d20 does not know the command {type(command).__name__}")


def _starts(state: D20Encounter) -> tuple[TurnStart, ...]:
    return system_state(state).starts


def _end_of_turn_save(state: D20Encounter, cmd: D20EndOfTurnSave, dice: DiceSource) -> list[Any]:
    edge = save_waiting(state)
    if edge is None or (edge.target_id, edge.condition) != (cmd.target_id, cmd.condition):
        raise Rejected("No end-of-turn save waits for them")
    target = state.combatant(edge.target_id)
    mode, auto_fail = save_mode(target, edge.ability, edge.magical, edge.condition)
    faces, natural = d20(dice, mode)
    bonus = sheet_of(target).save(edge.ability)
    total = natural + bonus
    success = not auto_fail and total >= edge.dc
    saved = D20EndOfTurnSaved(
        target.id,
        edge.condition,
        edge.ability,
        edge.dc,
        faces,
        mode,
        bonus,
        total,
        success,
        auto_fail,
        stamp_of(state),
    )
    return [saved, ConditionRemoved(target.id, edge.condition)] if success else [saved]


def _start_of_turn(state: D20Encounter, cmd: D20StartOfTurn, dice: DiceSource) -> list[Any]:
    start = start_waiting(state)
    if start is None or start.combatant_id != cmd.combatant_id:
        raise Rejected("Nothing waits at the start of their turn")
    who = state.combatant(start.combatant_id)
    events: list[Any] = []
    sheet = sheet_of(who)
    if start.ongoing:
        notation, kind = dmg.split_damage(start.ongoing, critical=False, typed=False)
        amount, _, _ = dmg.rolled(notation, False, dice)
        events += damage_events(state, who, None, amount, kind, dice=dice)
        sheet = dealt(sheet, events[0])
    regenerated = _regenerates(state, start, who) and not sheet.dead
    if regenerated:
        events.append(D20Healed(who.id, who.id, start.regeneration, False))
    if start.recharge and not start.ready:
        events.append(D20Recharged(who.id, dice.roll(DIE), start.recharge, stamp_of(state)))
    events += uses.recharge_rolls(state, who, dice)  # the stat block's spent actions, each a d6
    return [*events, D20TurnStarted(who.id, regenerated)]


def _set_ending(state: D20Encounter, cmd: D20SetEnding) -> list[Any]:
    target = state.combatant(cmd.target_id)
    name = " ".join(cmd.condition.split())
    if not name:
        raise Rejected("a condition needs a name")
    if len(name) > MAX_TEXT:
        raise Rejected(f"Condition: at most {MAX_TEXT} characters")
    if cmd.at not in (SAVE, START, END):
        raise Rejected("Ends: a save, or the start or end of a turn")
    edge = Edge(target.id, name, cmd.at, stamp_of(state))
    if cmd.at == SAVE:
        if cmd.ability not in ABILITIES:
            raise Rejected(f"Save: one of {', '.join(ABILITIES)}")
        if not 1 <= cmd.dc <= MAX_DC:
            raise Rejected(f"DC must be between 1 and {MAX_DC}")
        edge = structs.replace(edge, ability=cmd.ability, dc=cmd.dc)
    else:
        edge = structs.replace(edge, who_id=state.combatant(cmd.who_id).id)
    events: list[Any] = []
    on = target.condition(name)
    if on is None:
        if len(target.conditions) >= CONDITIONS:
            raise Rejected(f"{target.name} has {len(target.conditions)} conditions, the most")
        events.append(ConditionAdded(target.id, Condition(name)))
    else:
        edge = structs.replace(edge, condition=on.name)
    return [*events, D20EndingSet(edge)]


def _turn_start(state: D20Encounter, cmd: D20SetTurnStart) -> TurnStart:
    who = state.combatant(cmd.combatant_id)
    ongoing = " ".join(cmd.ongoing.split())
    if ongoing:
        if len(ongoing) > MAX_TEXT:
            raise Rejected(f"Ongoing damage: at most {MAX_TEXT} characters")
        try:
            dmg.split_damage(ongoing, critical=False)
        except Rejected as refused:
            raise Rejected(f"Ongoing damage: {refused.message}") from None
    if not 0 <= cmd.regeneration <= MAX_HP:
        raise Rejected(f"Regeneration: 0 to {MAX_HP} hit points")
    if not 0 <= cmd.recharge <= DIE:
        raise Rejected("Recharge: the lowest face of a d6 that recharges, like 5 for 5-6")
    return TurnStart(who.id, ongoing, cmd.regeneration, cmd.recharge, cmd.ready or not cmd.recharge)


# --- the turn passing (the core's hook) --------------------------------------------------------


def passing(state: D20Encounter, ending: D20Combatant | None, following: D20Combatant) -> list[Any]:
    found = system_state(state)
    recharges = bool(sheet_of(following).recharging)  # a stat block's spent actions (uses.py)
    perishes = regeneration.perishes(state, following)  # a troll down at 0, not regenerating
    if not (
        found.edges
        or found.starts
        or found.starting_id
        or found.regeneration_off_ids
        or recharges
        or perishes
    ):
        return []  # most fights: nothing tied to a turn (a forecast's runs)
    events: list[Any] = [D20Perished(following.id)] if perishes else []
    now = stamp_of(state)
    for edge in found.edges:
        target = _holds(state, edge)
        if target is None or edge.at == SAVE:
            continue
        ends = edge.at == END and ending is not None and edge.who_id == ending.id
        if not ((ends and now > edge.since) or (edge.at == START and edge.who_id == following.id)):
            continue
        condition = target.condition(edge.condition)
        if condition is None or _core_ends(condition, state.round):
            continue
        events.append(ConditionRemoved(target.id, condition.name, "expired"))
    ending_id = ending.id if ending is not None else ""
    owes = any(e.at == SAVE and e.target_id == ending_id for e in found.edges)
    starts = recharges or any(s.combatant_id == following.id for s in found.starts)
    if owes or starts or following.id in found.regeneration_off_ids:
        events.append(D20TurnPassed(ending_id, following.id))
    return events


def _core_ends(condition: Condition, round_: int) -> bool:
    """Whether the core may lift it as this turn passes (its rounds are up): not twice."""
    return condition.expires is not None and condition.expires.round <= round_


# --- fold --------------------------------------------------------------------------------------


def apply(state: D20Encounter, event: Any) -> D20Encounter:
    found = system_state(state)
    match event:
        case D20TurnPassed():
            edges = tuple(
                structs.replace(e, owed=True)
                if e.at == SAVE and e.target_id == event.ending_id
                else e
                for e in found.edges
                if _holds(state, e) is not None
            )
            off = found.regeneration_off_ids
            found = structs.replace(
                found,
                edges=edges,
                starting_id=event.following_id,
                regenerating=event.following_id not in off,
                regeneration_off_ids=tuple(c for c in off if c != event.following_id),
            )
        case D20EndingSet(edge=edge):
            same = edge.target_id, edge.condition.casefold()
            kept = tuple(
                e
                for e in found.edges
                if (e.target_id, e.condition.casefold()) != same and _holds(state, e) is not None
            )
            found = structs.replace(found, edges=(*kept, edge))
        case D20EndOfTurnSaved():
            state = state.update(last_roll=event, last_roll_applied=True)
            rolled = event.target_id, event.condition
            edges = tuple(
                structs.replace(e, owed=False) if (e.target_id, e.condition) == rolled else e
                for e in found.edges
                if not (event.success and (e.target_id, e.condition) == rolled)
            )
            found = structs.replace(found, edges=edges)
        case D20TurnStartSet(start=start):
            others = tuple(s for s in found.starts if s.combatant_id != start.combatant_id)
            doing = start.ongoing or start.regeneration or start.recharge
            found = structs.replace(found, starts=(*others, start) if doing else others)
        case D20RegenerationStopped():
            off = (
                *(c for c in found.regeneration_off_ids if c != event.combatant_id),
                event.combatant_id,
            )
            found = structs.replace(found, regeneration_off_ids=off)
        case D20Recharged():
            starts = tuple(
                structs.replace(s, ready=event.ready) if s.combatant_id == event.combatant_id else s
                for s in found.starts
            )
            found = structs.replace(found, starts=starts)
        case D20TurnStarted():
            found = structs.replace(found, starting_id="")
        case D20Perished():
            who = state.find(event.combatant_id)
            if who is not None:
                state = _dies(state, who)
    return state.update(system_state=found)


def _dies(state: D20Encounter, who: D20Combatant) -> D20Encounter:
    """A troll down at 0 that did not regenerate as its turn started, dead (D5-16)."""
    dead = structs.replace(sheet_of(who), dead=True)
    return state.replace_combatant(structs.replace(who, sheet=dead))


# --- what the app shows ------------------------------------------------------------------------


def last_odds(state: D20Encounter, roll: D20EndOfTurnSaved) -> Odds | None:
    target = state.find(roll.target_id)
    if target is None:
        return None
    found = save_odds(roll.bonus, roll.dc, roll.mode, roll.auto_fail)
    return found._replace(whose=f"{target.name}'s save against {roll.condition}")


def landing_summary(roll: D20EndOfTurnSaved) -> str:
    word = "ends" if roll.success else "stays"
    return f"{roll.total} vs DC {roll.dc}: {roll.condition} {word}"


def badges(state: D20Encounter, combatant: D20Combatant) -> tuple[str, ...]:
    found = system_state(state)
    if not (found.edges or found.starts):
        return ()
    out = []
    for edge in found.edges:
        if edge.target_id != combatant.id or _holds(state, edge) is None:
            continue
        if edge.at == SAVE:
            out.append(f"{edge.condition}: {edge.ability.capitalize()} {edge.dc} ends")
        else:
            out.append(f"{edge.condition} to the {edge.at} of {state.name_of(edge.who_id)}'s turn")
    for start in found.starts:
        if start.combatant_id != combatant.id or sheet_of(combatant).dead:
            continue  # the dead regenerate and recharge no more: nothing to say
        if start.ongoing:
            out.append(f"takes {start.ongoing} a turn")
        if start.regeneration:
            off = combatant.id in found.regeneration_off_ids
            out.append(f"regenerates {start.regeneration}" + (" (off)" if off else ""))
        if start.recharge:
            ready = "ready" if start.ready else "spent"
            out.append(f"recharge {recharge_text(start.recharge)} {ready}")
    return tuple(out)
