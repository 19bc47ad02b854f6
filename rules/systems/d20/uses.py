"""What a stat block's actions spend and when they come back (SRD 5.1, *Monsters*): a
**recharge** action ("Recharge 5-6") is spent when used and rolled for, a d6, at the start of
each of the creature's turns until it comes back; a **per-day** action ("3/Day") counts its
uses; **Legendary Resistance** ("3/Day") turns a failed saving throw into a success, the GM's
choice. A long rest gives the uses a day back (``rested``). The readings are in rulings.md
(D5-01).

What is spent is on the sheet (``recharging``, ``used_today``, ``resisted``): an attack or a
save effect naming its action (``D20Attacked.action``, ``D20Saved.action``) spends it as it
is folded (``spend``); the start of the turn rolls for each action still recharging
(``recharge_rolls``, called by turn_edges.py). Nothing here refuses an action: the dialogs and
``decide`` ask ``unavailable`` first.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

from msgspec import Meta, Struct, structs

from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.forms import Field
from rules.logline import LogEntry, Span, spans
from rules.odds import percent
from rules.system import Action, Move

from .actions import MAX_NAME, MAX_PER_DAY, D20Action
from .events import (
    D20ConcentrationEnded,
    D20ConcentrationSaved,
    D20ConcentrationStarted,
    D20Saved,
    Dropped,
    sheet_of,
    stamp_of,
    system_state,
)
from .sheet import D20Sheet, Stamp, life_word

if TYPE_CHECKING:
    from rules.dice import DiceSource

    from .events import D20Combatant, D20Encounter

DIE = 6  # a recharge's die
LEGENDARY_RESISTANCE = "Legendary Resistance"
RESIST = "resist"  # the system action's id (the ``:resist`` line)
RESIST_ACTION = Action(
    RESIST, "Legendary resistance", "The GM's choice: a failed save in the last roll succeeds"
)
Name = Annotated[str, Meta(max_length=MAX_NAME)]
_WITHIN = ("", "this turn", "within two", "within three", "within four", "within five")


# --- commands and events ----------------------------------------------------------------------


class D20Resist(Struct, frozen=True):
    """Legendary Resistance: ``combatant_id``'s failed save in the last roll succeeds."""

    combatant_id: str


class D20ActionRecharged(Struct, frozen=True, tag="d20.action-recharged"):
    """A spent recharge action's d6 at the start of its creature's turn: back on ``lowest``
    or more."""

    combatant_id: str
    action: Name
    face: Annotated[int, Meta(ge=1, le=DIE)]
    lowest: Annotated[int, Meta(ge=1, le=DIE)]
    stamp: Stamp

    @property
    def ready(self) -> bool:
        return self.face >= self.lowest


class D20Resisted(Struct, frozen=True, tag="d20.resisted"):
    """A use of Legendary Resistance: the creature's failed save in the last roll (``effect``,
    ``ability``, ``dc``) succeeds; ``left`` uses remain today."""

    combatant_id: str
    effect: Annotated[str, Meta(max_length=200)]
    ability: Annotated[str, Meta(max_length=3)]
    dc: Annotated[int, Meta(ge=0, le=99)]
    left: Annotated[int, Meta(ge=0, le=MAX_PER_DAY)]
    stamp: Stamp


COMMANDS = (D20Resist,)
EVENTS = (D20ActionRecharged, D20Resisted)


# --- what a sheet has spent --------------------------------------------------------------------


def _all(sheet: D20Sheet) -> tuple[D20Action, ...]:
    return (*sheet.actions, *sheet.legendary_actions, *sheet.reactions)


def action_of(sheet: D20Sheet, name: str) -> D20Action | None:
    """The sheet's action called ``name`` (any case), its actions first."""
    wanted = name.casefold()
    return next((a for a in _all(sheet) if a.name.casefold() == wanted), None)


def recharging(sheet: D20Sheet, action: D20Action) -> bool:
    wanted = action.name.casefold()
    return any(n.casefold() == wanted for n in sheet.recharging)


def used(sheet: D20Sheet, action: D20Action) -> int:
    """The uses of a per-day action spent since the last long rest."""
    wanted = action.name.casefold()
    return next((n for name, n in sheet.used_today if name.casefold() == wanted), 0)


def resistance_left(sheet: D20Sheet) -> int:
    return max(sheet.legendary_resistance - sheet.resisted, 0)


def recharge_text(lowest: int) -> str:
    return str(DIE) if lowest >= DIE else f"{lowest}-{DIE}"


def unavailable(state: D20Encounter, combatant: D20Combatant, action: D20Action) -> str:
    """Why ``combatant`` cannot use ``action`` now ("" when it can): a recharge spent, or no
    use left today."""
    sheet = sheet_of(combatant)
    if action.recharge and recharging(sheet, action):
        return f"{action.name} is recharging ({recharge_text(action.recharge)})"
    if action.per_day and used(sheet, action) >= action.per_day:
        return f"{action.name}: no uses left today (0/{action.per_day})"
    return ""


def spend(state: D20Encounter, combatant_id: str, name: str) -> D20Encounter:
    """The fold of an attack or save effect made with the action ``name``: a recharge action
    is spent until its d6 brings it back, a per-day action counts one use."""
    who = state.find(combatant_id)
    if who is None or not name:
        return state
    sheet = sheet_of(who)
    action = action_of(sheet, name)
    if action is None or not (action.recharge or action.per_day):
        return state
    if action.recharge and not recharging(sheet, action):
        sheet = structs.replace(sheet, recharging=(*sheet.recharging, action.name))
    if action.per_day:
        count = min(used(sheet, action) + 1, action.per_day)
        wanted = action.name.casefold()
        others = tuple(u for u in sheet.used_today if u[0].casefold() != wanted)
        sheet = structs.replace(sheet, used_today=(*others, (action.name, count)))
    return state.replace_combatant(structs.replace(who, sheet=sheet))


def restored(sheet: D20Sheet) -> D20Sheet:
    """A long rest: every use a day back, every recharge ready."""
    if not (sheet.recharging or sheet.used_today or sheet.resisted):
        return sheet
    return structs.replace(sheet, recharging=(), used_today=(), resisted=0)


def rest_words(before: D20Sheet) -> str:
    """What a long rest gives back of the uses ("" when nothing was spent)."""
    return "uses a day back" if before.used_today or before.resisted else ""


# --- recharge: rolled at the start of the creature's turn -------------------------------------


def spent_recharges(sheet: D20Sheet) -> tuple[D20Action, ...]:
    """The recharge actions waiting for their d6, in the sheet's order."""
    if not sheet.recharging:
        return ()
    return tuple(a for a in _all(sheet) if a.recharge and recharging(sheet, a))


def recharge_rolls(state: D20Encounter, who: D20Combatant, dice: DiceSource) -> list[Any]:
    """A d6 for each spent recharge action, from the injected dice, each in its event."""
    now = stamp_of(state)
    return [
        D20ActionRecharged(who.id, a.name, dice.roll(DIE), a.recharge, now)
        for a in spent_recharges(sheet_of(who))
    ]


def chance(action: D20Action) -> Fraction:
    """The chance one d6 brings it back."""
    return Fraction(DIE + 1 - action.recharge, DIE) if action.recharge else Fraction(1)


def recharge_odds(action: D20Action, turns: int = 2) -> str:
    """Its exact odds of coming back: "Fire Breath: 33.3% back this turn, 55.6% within two"
    (one d6 a turn, at the start of each; ``turns`` from 1 to 5)."""
    if not action.recharge:
        return ""
    turns = min(max(turns, 1), len(_WITHIN) - 1)
    stays = 1 - chance(action)
    parts = [
        f"{percent(1 - stays**k)} {'back ' if k == 1 else ''}{_WITHIN[k]}"
        for k in range(1, turns + 1)
    ]
    return f"{action.name}: {', '.join(parts)}"


def waiting_words(sheet: D20Sheet) -> str:
    """What the start of its turn rolls for, with each chance ("" when nothing)."""
    return ", ".join(
        f"{a.name} recharge {recharge_text(a.recharge)} ({percent(chance(a))})"
        for a in spent_recharges(sheet)
    )


# --- legendary resistance ----------------------------------------------------------------------


def _failed_save(state: D20Encounter, who: D20Combatant) -> D20Saved | D20ConcentrationSaved | None:
    """The last roll when ``who`` failed it: a save effect still to be dealt, or its
    concentration save made now (its concentration ended by it)."""
    roll = state.last_roll
    if isinstance(roll, D20ConcentrationSaved):
        lost = roll.combatant_id == who.id and not roll.success
        return roll if lost and roll.stamp == stamp_of(state) else None
    if not isinstance(roll, D20Saved) or state.last_roll_applied:
        return None
    failed = any(r.target_id == who.id and not r.success for r in roll.rolls)
    return roll if failed else None


def dropped(state: D20Encounter, event: D20ConcentrationEnded) -> tuple[Dropped, ...]:
    """The conditions a failed concentration save lifts (still on their targets as its end
    is folded), kept for Legendary Resistance to lay again."""
    out = []
    for held in system_state(state).held:
        target = state.find(held.target_id) if held.source_id == event.combatant_id else None
        found = target.condition(held.condition) if target is not None else None
        if found is not None:
            out.append(Dropped(held, found))
    return tuple(out)


def resist(state: D20Encounter, command: D20Resist) -> list[Any]:
    who = state.combatant(command.combatant_id)
    sheet = sheet_of(who)
    if not sheet.legendary_resistance:
        raise Rejected(f"{who.name} has no Legendary Resistance")
    left = resistance_left(sheet)
    if not left:
        raise Rejected(
            f"{who.name} has no Legendary Resistance left today (0/{sheet.legendary_resistance})"
        )
    roll = _failed_save(state, who)
    if roll is None:
        raise Rejected(
            f"{who.name} has no failed save waiting to be dealt: Legendary Resistance turns one "
            "before its result is applied"
        )
    if isinstance(roll, D20Saved):
        return [D20Resisted(who.id, roll.effect, roll.ability, roll.dc, left - 1, stamp_of(state))]
    events: list[Any] = [D20Resisted(who.id, roll.effect, "con", roll.dc, left - 1, roll.stamp)]
    if roll.effect and not sheet.concentrating:  # it concentrates on, its effect held again
        events.append(D20ConcentrationStarted(who.id, roll.effect))
        for lifted in system_state(state).dropped:
            target = state.find(lifted.held.target_id)
            if target is not None and target.condition(lifted.condition.name) is None:
                events.append(ConditionAdded(target.id, lifted.condition))
    return events


def resisters(state: D20Encounter) -> list[D20Combatant]:
    """Who may turn the last roll's failed save now: uses left, not dead."""
    roll = state.last_roll
    if isinstance(roll, D20ConcentrationSaved):
        found = [state.find(roll.combatant_id)]
        if roll.success or roll.stamp != stamp_of(state):
            return []
    elif not isinstance(roll, D20Saved) or state.last_roll_applied:
        return []
    else:
        found = [state.find(r.target_id) for r in roll.rolls if not r.success]
    return [
        c
        for c in found
        if c is not None and resistance_left(sheet_of(c)) and life_word(sheet_of(c)) != "dead"
    ]


def resist_form(state: D20Encounter, selected: str | None) -> list[Field]:
    """The dialog of Legendary Resistance: who turns its failure (the highlighted one first)."""
    who = resisters(state)
    if not who:
        raise Rejected("No failed save waits that Legendary Resistance can turn")
    who.sort(key=lambda c: c.id != selected)
    choices = tuple(
        (c.id, f"{c.name} ({resistance_left(sheet_of(c))}/{sheet_of(c).legendary_resistance})")
        for c in who
    )
    return [
        Field(
            key="combatant",
            label="Who",
            kind="choice",
            default=choices[0][0],
            choices=choices,
            help="Its failed save succeeds instead: one use of Legendary Resistance",
        )
    ]


def resist_command(state: D20Encounter, values: Any) -> D20Resist:
    found = state.find(str(values.get("combatant", "")))
    if found is None:
        raise Rejected("Who: choose the creature whose failed save succeeds")
    return D20Resist(found.id)


def resisted(state: D20Encounter, event: D20Resisted) -> D20Encounter:
    """The fold: one use spent; the last roll's failure for it is a success, so its result,
    dealt after, halves or spares the damage and lays no condition."""
    who = state.find(event.combatant_id)
    if who is None:
        return state
    sheet = sheet_of(who)
    sheet = structs.replace(sheet, resisted=min(sheet.resisted + 1, MAX_PER_DAY))
    state = state.replace_combatant(structs.replace(who, sheet=sheet))
    roll = state.last_roll
    if isinstance(roll, D20ConcentrationSaved) and roll.combatant_id == who.id:
        found = system_state(state)
        again = tuple(d.held for d in found.dropped if d.held.source_id == who.id)
        found = structs.replace(found, held=(*found.held, *again), dropped=())
        return state.update(last_roll=structs.replace(roll, success=True), system_state=found)
    if isinstance(roll, D20Saved):
        rolls = tuple(
            structs.replace(r, success=True) if r.target_id == who.id else r for r in roll.rolls
        )
        state = state.update(last_roll=structs.replace(roll, rolls=rolls))
        found = system_state(state)
        held = tuple(  # the effect no longer holds it
            h for h in found.held if not (h.source_id == roll.source_id and h.target_id == who.id)
        )
        if held != found.held:
            state = state.update(system_state=structs.replace(found, held=held))
    return state


def solo_resist(state: D20Encounter) -> Move | None:
    """A solo creature spends Legendary Resistance on a failed save whose failure lays a
    condition or deals more than a quarter of its hit points (rulings.md, D5-01)."""
    roll = state.last_roll
    for who in resisters(state):
        if not state.is_solo(who) or not isinstance(roll, D20Saved):
            continue
        dear = bool(roll.damage) and roll.damage_total * 4 > sheet_of(who).hp
        if roll.condition or dear:
            why = f"lays {roll.condition}" if roll.condition else "costs over a quarter of its HP"
            return Move(who.id, D20Resist(who.id), f"uses Legendary Resistance (the failure {why})")
    return None


# --- what the app shows ------------------------------------------------------------------------


def badges(sheet: D20Sheet) -> tuple[str, ...]:
    """The row's marks: each recharge action ready or its roll ("Fire Breath 5-6"), each
    per-day action's uses left ("Web 1/2"), Legendary Resistance's ("2/3")."""
    out = []
    for action in _all(sheet):
        if action.recharge:
            spent = recharging(sheet, action)
            out.append(f"{action.name} {recharge_text(action.recharge) if spent else 'ready'}")
        if action.per_day:
            out.append(f"{action.name} {action.per_day - used(sheet, action)}/{action.per_day}")
    if sheet.legendary_resistance:
        out.append(f"{LEGENDARY_RESISTANCE} {resistance_left(sheet)}/{sheet.legendary_resistance}")
    return tuple(out)


def describe(state: D20Encounter, event: Any) -> LogEntry:
    name = Span(state.name_of(event.combatant_id), "name")
    if isinstance(event, D20ActionRecharged):
        word = ("back", "success") if event.ready else ("still spent", "failure")
        line = spans(
            name,
            f"'s {event.action} recharge ({recharge_text(event.lowest)}): ",
            Span(str(event.face), "die"),
            " - ",
            Span(word[0], word[1]),
        )
        return LogEntry("roll", (line,))
    if isinstance(event, D20Resisted):
        total = state.find(event.combatant_id)
        most = sheet_of(total).legendary_resistance if total is not None else event.left + 1
        short = event.ability.capitalize()
        line = spans(
            name,
            f" uses {LEGENDARY_RESISTANCE} ({event.left}/{most} left): the failed {short} save ",
            Span("succeeds", "success"),
            f" ({event.effect})",
        )
        return LogEntry("roll", (line,))
    raise TypeError(f"not a use's event: {event!r}")


def apply(state: D20Encounter, event: Any) -> D20Encounter:
    """The fold of a use's events."""
    if isinstance(event, D20Resisted):
        return resisted(state, event)
    who = state.find(event.combatant_id)
    if who is None or not event.ready:
        return state
    sheet = sheet_of(who)
    wanted = event.action.casefold()
    kept = tuple(n for n in sheet.recharging if n.casefold() != wanted)
    return state.replace_combatant(
        structs.replace(who, sheet=structs.replace(sheet, recharging=kept))
    )
