"""decide and apply: the only way encounter state changes.

``decide(state, command, dice)`` checks a command and returns the events it causes (it may
roll dice); ``apply(state, event)`` returns the state after one event and never rolls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec
from msgspec import structs

from rules import holds, initiative, plain_dice, table_options
from rules.bounds import (
    COMBATANTS,
    CONDITIONS,
    LIMIT,
    NAME,
    SAVED_CONDITIONS,
    out_of_bounds,
    within,
)
from rules.commands import (
    Act,
    AddCombatant,
    AddCombatants,
    AddCondition,
    AddNote,
    ChangeTrack,
    Commands,
    CoreCommand,
    Delay,
    DiscardConsequence,
    EditCombatant,
    MoveCombatant,
    NextTurn,
    PassTurn,
    Ready,
    RemoveCombatant,
    RemoveCondition,
    RollDice,
    RollInitiative,
    SetInitiative,
    SetOption,
    SetPolicy,
    SetSolo,
    SortInitiative,
    Surprise,
)
from rules.conditions import Condition
from rules.dice import DiceSource
from rules.encounter import (
    AnyCombatant,
    AnyEncounter,
    Combatant,
    CombatantAdded,
    CombatantEdited,
    Encounter,
    Event,
)
from rules.errors import Rejected
from rules.events import (
    CombatantMoved,
    CombatantRemoved,
    ConditionAdded,
    ConditionRemoved,
    ConsequenceDiscarded,
    CoreEvent,
    EncounterCreated,
    HoldEnded,
    HoldTaken,
    InitiativeSet,
    NoteAdded,
    OptionSet,
    OrderSorted,
    PolicySet,
    SideSurprised,
    SoloChose,
    SoloSideSet,
    TrackChanged,
    TurnAdvanced,
    TurnPassed,
)
from rules.logline import LogEntry, Span, spans
from rules.mentions import mentions
from rules.passing import passed
from rules.plain_dice import DiceRolled
from rules.registry import get_system
from rules.system import RuleSystem
from rules.text import inert, inert_value, slug

MAX_NAME = NAME
MAX_GROUP = 100  # combatants added by one command: more than any table fields at once
# The core's own commands and events, by their exact types: any other goes straight to the
# system. Looked up before the matches below, which would otherwise try every core case on
# each of a system's commands and events (an isinstance against a Struct class is slow).
CORE_COMMANDS = frozenset(CoreCommand.__args__)
CORE_EVENTS = frozenset((CoreEvent | CombatantAdded | CombatantEdited).__args__)
NUMBERED = re.compile(r"(.*\S)\s+([0-9]+)")  # "Bandit 2": a name and its number


def new_encounter(name: str, system: str) -> EncounterCreated:
    name = inert(name).strip()
    if not name:
        raise Rejected("an encounter needs a name")
    get_system(system)  # rejects an unknown system
    return EncounterCreated(name=name[:MAX_NAME], system=system)


def initial_state(created: EncounterCreated) -> AnyEncounter:
    system = get_system(created.system)
    return Encounter(name=created.name, system=created.system, system_state=system.new_state())


def fold(events: Iterable[Event]) -> AnyEncounter:
    """The state a whole event log describes; the first event must create the encounter."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, EncounterCreated):
        raise ValueError("an event log starts with encounter-created")
    return fold_onto(initial_state(first), it)


def fold_onto(state: AnyEncounter, events: Iterable[Event]) -> AnyEncounter:
    """The state after some events, from a given state."""
    for event in events:
        state = apply(state, event)
    return state


# --- decide ------------------------------------------------------------------------------


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise Rejected("a combatant needs a name")
    if len(name) > MAX_NAME:
        raise Rejected(f"a name can have at most {MAX_NAME} characters")
    return name


def decide(state: AnyEncounter, command: object, dice: DiceSource) -> list[Event]:
    # Every command's text, the core's and each system's, made inert before anyone reads it.
    command = inert_value(command)
    if (beyond := out_of_bounds(command)) is not None:  # what a save could not hold
        raise Rejected(f"too much: {beyond}")
    return decide_own(state, command, dice)


def decide_own(state: AnyEncounter, command: object, dice: DiceSource) -> list[Event]:
    """``decide`` for a command the rules made themselves from ``state`` (a forecast's solo
    move): its text is the state's, already inert and bounded, so it is not checked again
    (a tenth of a forecast's time)."""
    if type(command) not in CORE_COMMANDS:
        return _system_decide(state, command, dice)
    match command:  # the commonest first: a turn passed
        case NextTurn():
            return _next_turn(state, dice)
        case AddCombatant():
            return _followed(state, _add_all(state, (command,), dice))
        case AddCombatants(members=members, together=together):
            return _followed(state, _add_all(state, members, dice, together))
        case Commands(steps=steps):
            return _all_of(state, steps, dice)
        case SetInitiative() | RollInitiative() | SortInitiative():
            return initiative.initiative_events(get_system(state.system), state, command, dice)
        case EditCombatant():
            return _followed(state, _edit(state, command))
        case RemoveCombatant():
            state.combatant(command.combatant_id)
            removed = CombatantRemoved(command.combatant_id)
            if command.combatant_id == state.current_id and len(state.combatants) > 1:
                # Removing the one who acts ends its turn first, so the round turns over
                # (and conditions expire) exactly as if the turn had been passed.
                return [*_next_turn(state, dice), removed]
            return [removed]
        case MoveCombatant():
            state.combatant(command.combatant_id)
            index = max(0, min(command.index, len(state.combatants) - 1))
            if index == state.index_of(command.combatant_id):
                return []
            return [CombatantMoved(command.combatant_id, index)]
        case AddCondition():
            return _followed(state, [_add_condition(state, command)])
        case RemoveCondition():
            target = state.combatant(command.combatant_id)
            name = " ".join(command.name.split())  # as a condition's name is kept
            condition = target.condition(name)
            if condition is None:
                raise Rejected(f"{target.name} is not {name}")
            return [ConditionRemoved(target.id, condition.name)]
        case AddNote():
            text = command.text.strip()
            if not text:
                raise Rejected("a note needs some text")
            if command.combatant_id is not None:
                state.combatant(command.combatant_id)
            return [NoteAdded(text, command.combatant_id)]
        case SetSolo():
            return _set_solo(state, command)
        case SetPolicy():
            return _set_policy(state, command)
        case DiscardConsequence():
            what = get_system(state.system).pending(state)
            if not what:
                raise Rejected("Nothing is waiting to be applied")
            involved = tuple(sorted(mentions(state.last_roll))) if state.last_roll else ()
            return [ConsequenceDiscarded(what, involved)]
        case PassTurn():  # a player's own turn ended, then passed as NextTurn passes it
            return [passed(state, command), *_next_turn(state, dice)]
        case RollDice():
            return [plain_dice.rolled(command.notation, dice, by=command.by, hidden=command.hidden)]
        case ChangeTrack():
            return _followed(state, [_change_track(state, command)])
        case SetOption(name=option, value=value):
            if option == "surprise-way":
                holds.check_way(state, value)
            if option == "hp-view":
                holds.check_side(state, value.strip().partition(" ")[2])
            return [*table_options.decide(state.options, option, value)]
        case Surprise(side=side):
            return _surprised(state, holds.decide_surprise(state, side, dice), dice)
        case Delay():
            held = holds.decide_delay(state, command)
            if command.combatant_id != state.current_id or len(state.combatants) < 2:
                return held
            return [*held, *_next_turn(fold_onto(state, held), dice)]  # its turn passes on
        case Ready():
            return holds.decide_ready(state, command)
        case Act():
            return holds.decide_act(state, command)
    raise AssertionError(f"a core command without its case: {command!r}")  # pragma: no cover


def _followed(state: AnyEncounter, events: list[Event]) -> list[Event]:
    """A core command's events and what the system's rules make follow from them."""
    if not events:
        return events
    return [*events, *get_system(state.system).follows(state, events)]


def _system_decide(state: AnyEncounter, command: object, dice: DiceSource) -> list[Event]:
    system = get_system(state.system)
    if isinstance(command, system.command_types):
        return system.decide(state, command, dice)
    raise Rejected(f"{type(command).__name__} is not a command of {system.title}")


def _change_track(state: AnyEncounter, cmd: ChangeTrack) -> TrackChanged:
    target = state.combatant(cmd.combatant_id)
    track = get_system(state.system).main_track(target)
    if track is None:
        raise Rejected(f"{target.name} has no track to change quickly: edit the sheet (e)")
    steps = within(cmd.steps, "a change", -LIMIT, LIMIT)
    if steps == 0:
        raise Rejected("a change is at least 1")
    wanted = track.value + (steps if track.rising else -steps)
    after = max(track.low, min(track.high, wanted))
    if after == track.value:
        edge = "worst" if (steps > 0) else "best"
        raise Rejected(f"{target.name}'s {track.name} is already at its {edge} ({track.value})")
    return TrackChanged(target.id, track.name, track.value, after)


def _as_saved(sheet: object) -> object:
    """``sheet`` if a save could hold it: its type's bounds (a system's count that drives a
    loop, like a Multiattack) are checked as a save is decoded, so a sheet beyond them that
    did not come through its form (a served seat's command, a script) is refused here."""
    try:
        return msgspec.msgpack.decode(_ENCODER.encode(sheet), type=type(sheet))
    except msgspec.ValidationError as exc:
        raise Rejected(f"that sheet holds more than a save may ({exc})") from None


_ENCODER = msgspec.msgpack.Encoder()


def _add(state: AnyEncounter, cmd: AddCombatant, dice: DiceSource) -> list[Event]:
    system = get_system(state.system)
    sheet = cmd.sheet if cmd.sheet is not None else system.new_sheet()
    if not isinstance(sheet, system.sheet_types):
        raise Rejected(f"that sheet is not a {system.title} sheet")
    sheet = system.rolled_on_add(state, system.fit_sheet(state, _as_saved(sheet)), dice)
    renamed, name = _numbered(state, _clean_name(cmd.name), cmd.gm_only)
    combatant = Combatant(
        id=f"c{state.next_number}",
        name=name,
        side=cmd.side.strip() or "foes",
        gm_only=cmd.gm_only,
        notes=cmd.notes.strip(),
        sheet=sheet,
    )
    index = cmd.index
    if index is not None and not 0 <= index <= len(state.combatants):
        raise Rejected(f"place {index + 1} is outside the turn order")
    added = CombatantAdded(combatant, index)
    return [CombatantEdited(renamed), added] if renamed is not None else [added]


def _all_of(state: AnyEncounter, steps: tuple[object, ...], dice: DiceSource) -> list[Event]:
    """Each step decided on the state the ones before it leave: one undo step for them all
    (a step refused refuses the whole, so nothing is half done)."""
    if not steps:
        raise Rejected("nothing to do")
    if len(steps) > MAX_GROUP:
        raise Rejected(f"at most {MAX_GROUP} changes can be made at once")
    events: list[Event] = []
    for step in steps:
        if isinstance(step, Commands):
            raise Rejected("a change of several steps cannot hold another")
        found = decide_own(state, step, dice)
        for event in found:
            state = apply(state, event)
        events.extend(found)
    return events


def _add_all(
    state: AnyEncounter, members: tuple[AddCombatant, ...], dice: DiceSource, together: bool = False
) -> list[Event]:
    """Each member added in turn; one that rolls initiative as it joins (the system's
    ``initiative_on_add``) takes its place by it unless told where, a group ``together``
    sharing the first one's roll."""
    if not members:
        raise Rejected("nobody to add")
    if len(members) > MAX_GROUP:
        raise Rejected(f"at most {MAX_GROUP} combatants can be added at once")
    if len(state.combatants) + len(members) > COMBATANTS:
        raise Rejected(
            f"an encounter holds at most {COMBATANTS:,} combatants "
            f"(it has {len(state.combatants):,}; {len(members)} more would pass that)"
        )
    system = get_system(state.system)
    # Before the fight has begun, newcomers who roll as they join take the whole order by it,
    # and the first turn goes to the highest.
    unstarted = initiative.unstarted(state)
    events: list[Event] = []
    rolls: list[InitiativeSet] = []
    group = ""
    for member in members:
        added = _add(
            state, member, dice
        )  # each sees the ones before it: names are numbered in turn
        joining = added[-1]
        assert isinstance(joining, CombatantAdded)
        newcomer = joining.combatant
        if together:
            group = group or newcomer.id
            newcomer = structs.replace(newcomer, group=group)
        index = joining.index
        if system.uses_turn_order and system.initiative_on_add(state, newcomer):
            if not rolls or not together:
                rolled = initiative.rolled_for(system, state, (newcomer,), "", dice)
                rolls.append(structs.replace(rolled, combatant_ids=()))
            shared = rolls[-1]
            rolls[-1] = structs.replace(shared, combatant_ids=(*shared.combatant_ids, newcomer.id))
            if index is None:
                ranked = structs.replace(newcomer, initiative=shared.initiative)
                key = initiative.sort_key(system, ranked)
                # Those added before it hold their rolls already (folded after the last):
                # "Ghoul x2" sharing a 3 went Ghoul 2 before Ghoul 1, who had none yet.
                held = {cid: r.initiative for r in rolls for cid in r.combatant_ids}
                ranks = [
                    structs.replace(c, initiative=held[c.id]) if c.id in held else c
                    for c in state.combatants
                ]
                index = initiative.place(system, ranks, key, len(state.combatants))
        added[-1] = CombatantAdded(newcomer, index)
        state = fold_onto(state, added)
        events += added
    if rolls and unstarted:
        state = fold_onto(state, rolls)
        order = tuple(c.id for c in initiative.sorted_order(system, state.combatants))
        if order != tuple(c.id for c in state.combatants) or state.current_id != order[0]:
            return [*events, *rolls, OrderSorted(order, order[0])]
    return events + list(rolls)


def _split_number(name: str) -> tuple[str, int | None]:
    found = NUMBERED.fullmatch(name)
    return (found.group(1), int(found.group(2))) if found else (name, None)


def _with_number(name: str, number: int) -> str:
    suffix = f" {number}"
    return name[: MAX_NAME - len(suffix)].rstrip() + suffix


def _numbered(state: AnyEncounter, name: str, hidden: bool) -> tuple[AnyCombatant | None, str]:
    """A newcomer's name, numbered when it repeats one in the encounter, and the combatant
    that then needs a number too (the one who had the name alone), renamed.

    "Bandit" beside a "Bandit": "Bandit 1" and "Bandit 2"; beside "Bandit 1" and "Bandit 2":
    "Bandit 3" (after the highest number, so a number never comes back). A name typed with
    a number keeps it unless that very name is taken ("Bandit 7" stays "Bandit 7"). A
    newcomer hidden from the players never renames one they see (they would see it happen).
    """
    base, number = _split_number(name)
    family: list[tuple[AnyCombatant, int | None]] = []
    for combatant in state.combatants:
        their_base, their_number = _split_number(combatant.name)
        if their_base.casefold() == base.casefold():
            family.append((combatant, their_number))
    taken = any(c.name.casefold() == name.casefold() for c in state.combatants)
    if not taken and (number is not None or not family):
        return None, name
    highest = max((n for _, n in family if n is not None), default=0)
    alone = next((c for c, n in family if n is None), None)
    if alone is None or (hidden and not alone.gm_only):
        return None, _with_number(base, highest + 1)
    renamed = structs.replace(alone, name=_with_number(alone.name, highest + 1))
    return renamed, _with_number(base, highest + 2)


def _edit(state: AnyEncounter, cmd: EditCombatant) -> list[Event]:
    before = state.combatant(cmd.combatant_id)
    system = get_system(state.system)
    sheet = before.sheet if cmd.sheet is None else system.fit_sheet(state, _as_saved(cmd.sheet))
    name = _clean_name(cmd.name) if cmd.name is not None else before.name
    if name != before.name:
        _name_free(state, before, name)
    after = Combatant(
        id=before.id,
        name=name,
        side=(cmd.side.strip() or before.side) if cmd.side is not None else before.side,
        gm_only=cmd.gm_only if cmd.gm_only is not None else before.gm_only,
        notes=cmd.notes.strip() if cmd.notes is not None else before.notes,
        conditions=before.conditions,
        policy=before.policy,
        initiative=before.initiative,
        group=before.group,
        delaying=before.delaying,
        ready=before.ready,
        hp_shown=before.hp_shown,
        sheet=sheet,
    )
    return [] if after == before else [CombatantEdited(after)]


def _name_free(state: AnyEncounter, renamed: AnyCombatant, name: str) -> None:
    """Refused when another combatant has ``name``, in any case or spelling the ``:`` line
    reads as one (``Zombie 1``, ``zombie-1``): names tell them apart there and in the log; a
    newcomer is numbered instead (``_numbered``)."""
    wanted = slug(name) or name.casefold()
    other = next(
        (c for c in state.combatants if (slug(c.name) or c.name.casefold()) == wanted), None
    )
    if other is not None and other.id != renamed.id:
        raise Rejected(f"{other.name} already has that name: give {renamed.name} another")


def _set_solo(state: AnyEncounter, cmd: SetSolo) -> list[Event]:
    side = cmd.side.strip()
    sides = {c.side for c in state.combatants}
    if cmd.on and side not in sides:
        known = ", ".join(sorted(sides)) or "none yet"
        raise Rejected(f"there is no side {side!r} (sides: {known})")
    if cmd.on == (side in state.solo_sides):
        return []
    return [SoloSideSet(side, cmd.on)]


def _set_policy(state: AnyEncounter, cmd: SetPolicy) -> list[Event]:
    target = state.combatant(cmd.combatant_id)
    known = [p.id for p in get_system(state.system).solo_policies]
    if cmd.policy and cmd.policy not in known:
        choices = ", ".join(known) or "none"
        raise Rejected(f"no policy {cmd.policy!r} (policies: {choices})")
    return [] if cmd.policy == target.policy else [PolicySet(target.id, cmd.policy)]


def _next_turn(state: AnyEncounter, dice: DiceSource) -> list[Event]:
    system = get_system(state.system)
    if not system.uses_turn_order:
        return _next_round(state)
    if not state.combatants:
        raise Rejected("there is nobody in the turn order yet")
    order = _taking_turns(system, state)
    if not order:
        raise Rejected("nobody takes a turn now")
    events: list[Event] = []
    ending = state.current
    index = next((i for i, c in enumerate(order) if c.id == state.current_id), -1)
    if index < 0 and ending is not None:
        # It left the order on its own turn (it died): the next is the one after its place,
        # and past the last the round ends, or those before it would take a second turn.
        place = state.index_of(ending.id)
        index = sum(1 for c in order if state.index_of(c.id) < place) - 1
    if ending is not None:
        events += [
            ConditionRemoved(ending.id, c.name, "expired")
            for c in ending.conditions
            if c.ends_with_turn(ending.id, state.round)
        ]
    wraps = index + 1 >= len(order)
    if wraps:
        for combatant in state.combatants:
            events += [
                ConditionRemoved(combatant.id, c.name, "expired")
                for c in combatant.conditions
                if c.ends_with_round(state.round)
                and not (combatant is ending and c.ends_with_turn(ending.id, state.round))
            ]
    following = order[0 if wraps else index + 1]
    rerolled: list[Event] = []
    if wraps and state.options.reroll_each_round:
        rerolled = _rerolled(system, state, dice)
        following = _taking_turns(system, fold_onto(state, rerolled))[0]
    events += system.turn_passing(state, ending, following)
    events += [*rerolled, *holds.lapsing(following)]
    events.append(
        TurnAdvanced(
            round=state.round + 1 if wraps else state.round,
            actor_id=following.id,
            previous_id=state.current_id,
        )
    )
    return events


def _surprised(state: AnyEncounter, events: list[Event], dice: DiceSource) -> list[Event]:
    """A surprise's events, and the turn passed on when the one acting takes none now."""
    after = fold_onto(state, events)
    order = _taking_turns(get_system(state.system), after)
    acting = after.current_id
    if acting is None or not order or any(c.id == acting for c in order):
        return events
    if after.round == 1:  # surprise comes as the fight begins: the first in the order acts
        return [*events, TurnAdvanced(round=1, actor_id=order[0].id, previous_id=acting)]
    return [*events, *_next_turn(after, dice)]  # as one who left the order on its turn


def _taking_turns(system: RuleSystem, state: AnyEncounter) -> list[AnyCombatant]:
    """Who takes a turn, in order: the system's order without those delaying."""
    return [c for c in system.turn_order(state) if not c.delaying]


def _rerolled(system: RuleSystem, state: AnyEncounter, dice: DiceSource) -> list[Event]:
    """Everyone's initiative rolled again as a new round begins (a group shares one roll),
    every die in its event, and the order sorted by it."""
    rolls: list[Event] = [
        initiative.rolled_for(system, state, members, "", dice)
        for members in initiative.groups(state.combatants, each=False)
    ]
    after = fold_onto(state, rolls)
    order = tuple(c.id for c in initiative.sorted_order(system, after.combatants))
    return [*rolls, OrderSorted(order, state.current_id)]


def _next_round(state: AnyEncounter) -> list[Event]:
    """For systems where every side acts each round: "next" ends the round."""
    events: list[Event] = [
        ConditionRemoved(combatant.id, c.name, "expired")
        for combatant in state.combatants
        for c in combatant.conditions
        if c.ends_with_round(state.round)
    ]
    events.append(TurnAdvanced(round=state.round + 1, actor_id=None, previous_id=None))
    return events


def _add_condition(state: AnyEncounter, cmd: AddCondition) -> ConditionAdded:
    target = state.combatant(cmd.combatant_id)
    name = " ".join(cmd.name.split())
    if not name:
        raise Rejected("a condition needs a name")
    if cmd.duration.kind == "rounds" and cmd.duration.rounds < 1:
        raise Rejected("a condition lasting rounds must last at least 1 round")
    if target.condition(name) is None and len(target.conditions) >= CONDITIONS:
        raise Rejected(f"{target.name} has {len(target.conditions)} conditions, the most one takes")
    return ConditionAdded(
        target.id, Condition(name, cmd.duration, state.expiry_for(target.id, cmd.duration))
    )


# --- apply -------------------------------------------------------------------------------


def apply(state: AnyEncounter, event: Event) -> AnyEncounter:
    if type(event) not in CORE_EVENTS:
        return _system_apply(state, event)
    match event:  # the commonest first: a turn passed
        case TurnAdvanced(round=round_, actor_id=actor):
            return state.update(round=round_, current_id=actor)
        case CombatantAdded(combatant=combatant, index=index):
            if len(state.combatants) >= COMBATANTS:  # a log no command made (decide refuses)
                raise Rejected(f"an encounter holds at most {COMBATANTS:,} combatants")
            people = list(state.combatants)
            people.insert(len(people) if index is None else index, combatant)
            number = int(combatant.id.lstrip("c") or 0)
            # Without a turn order nobody is "current": every side acts in each round.
            takes_turn = get_system(state.system).uses_turn_order
            return state.update(
                combatants=tuple(people),
                next_number=max(state.next_number, number + 1),
                current_id=state.current_id or (combatant.id if takes_turn else None),
            )
        case CombatantEdited(combatant=combatant):
            return state.replace_combatant(combatant)
        case CombatantRemoved(combatant_id=gone):
            index = state.index_of(gone)
            left = tuple(c for c in state.combatants if c.id != gone)
            current = state.current_id
            if current == gone:
                current = left[index % len(left)].id if left else None
            return state.update(combatants=left, current_id=current)
        case CombatantMoved(combatant_id=moved, index=index):
            people = [c for c in state.combatants if c.id != moved]
            people.insert(index, state.combatant(moved))
            return state.update(combatants=tuple(people))
        case ConditionAdded(combatant_id=cid, condition=condition):
            target = state.combatant(cid)
            kept = tuple(
                c for c in target.conditions if c.name.casefold() != condition.name.casefold()
            )
            if len(kept) >= SAVED_CONDITIONS:  # what a save may hold (a command stops sooner)
                raise Rejected(f"{target.name} has {len(kept)} conditions, the most one may")
            return state.replace_combatant(_with_conditions(target, (*kept, condition)))
        case ConditionRemoved(combatant_id=cid, name=name):
            target = state.combatant(cid)
            kept = tuple(c for c in target.conditions if c.name.casefold() != name.casefold())
            return state.replace_combatant(_with_conditions(target, kept))
        case NoteAdded() | SoloChose() | DiceRolled() | TurnPassed():
            return state
        case InitiativeSet():
            return initiative.apply_set(state, event)
        case OrderSorted():
            return initiative.apply_sort(state, event)
        case TrackChanged(combatant_id=cid, after=value):
            target = state.combatant(cid)
            sheet = get_system(state.system).with_track(target.sheet, value)
            return state.replace_combatant(structs.replace(target, sheet=sheet))
        case SoloSideSet(side=side, on=on):
            sides = tuple(s for s in state.solo_sides if s != side)
            return state.update(solo_sides=(*sides, side) if on else sides)
        case PolicySet(combatant_id=cid, policy=policy):
            return state.replace_combatant(structs.replace(state.combatant(cid), policy=policy))
        case ConsequenceDiscarded():
            settled = get_system(state.system).discard(state)
            return settled.update(last_roll_discarded=settled.last_roll_applied)
        case OptionSet(name=option, value=value):
            return state.update(options=table_options.read(state.options, option, value))
        case SideSurprised():
            return state
        case HoldTaken():
            return holds.apply_taken(state, event)
        case HoldEnded():
            return holds.apply_ended(state, event)
        case EncounterCreated():
            raise ValueError("encounter-created can only start a log")
    raise AssertionError(f"a core event without its case: {event!r}")  # pragma: no cover


def _system_apply(state: AnyEncounter, event: Event) -> AnyEncounter:
    after = get_system(state.system).apply(state, event)
    if after.last_roll_discarded and after.last_roll is not state.last_roll:
        after = after.update(last_roll_discarded=False)  # a new roll: nothing of it discarded
    return after


def _joined(parts: list[Span]) -> list[str | Span]:
    out: list[str | Span] = []
    for index, part in enumerate(parts):
        out += [", ", part] if index else [part]
    return out


def _with_conditions(target: AnyCombatant, conditions: tuple[Condition, ...]) -> AnyCombatant:
    return structs.replace(target, conditions=conditions)


# --- the log -------------------------------------------------------------------------------


def describe(before: AnyEncounter, event: Event) -> LogEntry:
    """The log entry for an event, named from the state it was applied to."""

    def name(cid: str | None) -> Span:
        return Span(before.name_of(cid), "name")

    match event:
        case EncounterCreated():
            return LogEntry("roster", (spans("Encounter ", Span(event.name, "name"), " begins"),))
        case CombatantAdded(combatant=c):
            hidden = " (GM only)" if c.gm_only else ""
            return LogEntry(
                "roster", (spans(Span(c.name, "name"), f" joins the {c.side}{hidden}"),)
            )
        case CombatantEdited(combatant=c):
            was = before.name_of(c.id)
            if was != c.name and before.find(c.id) == structs.replace(c, name=was):
                return LogEntry("roster", (spans(name(c.id), " is now ", Span(c.name, "name")),))
            return LogEntry("roster", (spans(Span(c.name, "name"), " was edited"),))
        case CombatantRemoved(combatant_id=cid):
            return LogEntry("roster", (spans(name(cid), " leaves the encounter"),))
        case CombatantMoved(combatant_id=cid, index=index):
            return LogEntry(
                "roster", (spans(name(cid), f" moves to place {index + 1} in the order"),)
            )
        case TurnAdvanced(round=round_, actor_id=actor):
            lines = []
            if round_ != before.round:
                lines.append(spans(Span(f"— Round {round_} —", "round")))
            if actor is not None:
                lines.append(spans(Span("▶ ", "turn"), name(actor), "'s turn"))
            return LogEntry("turn", tuple(lines))
        case TurnPassed(combatant_id=cid, by=by):
            player = f"'s player ({by})" if by else "'s player"
            return LogEntry("turn", (spans(name(cid), player, " ends the turn"),))
        case ConditionAdded(combatant_id=cid, condition=c):
            line = spans(name(cid), " is ", Span(c.name, "condition"), f" {c.duration.describe()}")
            return LogEntry("condition", (line,))
        case ConditionRemoved(combatant_id=cid, name=cond, reason=reason):
            why = " (expired)" if reason == "expired" else ""
            return LogEntry(
                "condition", (spans(name(cid), " is no longer ", Span(cond, "condition"), why),)
            )
        case NoteAdded(text=text, combatant_id=cid):
            about: list[str | Span] = [name(cid), ": "] if cid else []
            return LogEntry("note", (spans(Span("✎ ", "muted"), *about, Span(text, "note")),))
        case SoloSideSet(side=side, on=on):
            what = "now plays" if on else "hands back"
            return LogEntry("roster", (spans(f"The tracker {what} the side ", Span(side, "name")),))
        case PolicySet(combatant_id=cid, policy=policy):
            how = policy or "its default policy"
            return LogEntry("roster", (spans(name(cid), f" will be played by: {how}"),))
        case ConsequenceDiscarded(what=what):
            line = spans(Span("⊘ ", "muted"), "Discarded, not applied: ", Span(what, "tier"))
            return LogEntry("roll", (line,))
        case DiceRolled():
            return LogEntry("roll", plain_dice.lines(event))
        case InitiativeSet(combatant_ids=ids, initiative=value, roll=rolled):
            who = _joined([name(cid) for cid in ids])
            head = spans(*who, ": initiative ", Span(str(value), "tier"))
            return LogEntry("turn", (head, plain_dice.line(rolled)) if rolled else (head,))
        case OrderSorted(current_id=cid):  # the pane shows the order itself
            # Not "▶ ": that starts a turn's line. A newcomer placed first by its roll only
            # takes the first turn; one a reader may not see is not named.
            mark = Span("⇅ ", "muted")
            if initiative.reorders(before, event):
                line = spans(mark, "The order sorted by initiative")
            elif before.find(cid) is None:
                line = spans(mark, "The first turn goes to the highest initiative")
            else:
                line = spans(mark, name(cid), " acts first: the highest initiative")
            return LogEntry("turn", (line,))
        case TrackChanged(combatant_id=cid, track=track, before=was, after=now):
            change = f"{now - was:+d}"
            line = spans(name(cid), f" {track}: {was} → ", Span(str(now), "tier"), f" ({change})")
            return LogEntry("roster", (line,))
        case OptionSet():
            return LogEntry("roster", (spans(Span("⚙ ", "muted"), table_options.described(event)),))
        case SideSurprised(side=side, effect=effect):
            line = spans("⚑ The ", Span(side, "name"), f" side is surprised: {effect}")
            return LogEntry("turn", (line,))
        case HoldTaken(combatant_id=cid, trigger=trigger):
            if trigger:
                line = spans(name(cid), " readies a reaction: ", Span(trigger, "note"))
            else:
                line = spans(name(cid), " delays: out of the order until it acts")
            return LogEntry("turn", (line,))
        case HoldEnded(combatant_id=cid, how=how):
            words = {
                "acted": " stops delaying and acts now",
                "spent": " takes its readied reaction",
                "lapsed": "'s readied reaction lapses",
            }
            return LogEntry("turn", (spans(name(cid), words[how]),))
        case SoloChose(combatant_id=cid, policy=policy, reason=reason):
            line = spans(Span("⚙ ", "muted"), name(cid), f" ({policy or 'default'}): ", reason)
            return LogEntry("solo", (line,))
    return get_system(before.system).describe(before, event)
