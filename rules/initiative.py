"""Initiative: set or rolled for combatants, and the turn order sorted by it.

Initiative is core encounter state (``Combatant.initiative``), decided here for every system
with a turn order; a system gives its dice (``RuleSystem.initiative_dice``), its tie-break
(``initiative_tiebreak``) and whether a newcomer rolls as it is added (``initiative_on_add``).
Every die rolled is in the ``InitiativeSet`` event, so a replay needs no dice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from msgspec import structs

from rules import plain_dice
from rules.bounds import LIMIT, within
from rules.commands import RollInitiative, SetInitiative, SortInitiative
from rules.dice import DiceSource
from rules.encounter import AnyEncounter, Combatant
from rules.errors import Rejected
from rules.events import CombatantMoved, InitiativeSet, OrderSorted
from rules.system import RuleSystem

# Digits enough for any typed number: `within` refuses, by its sign and size, one too big.
NUMBER = re.compile(r"[+-]?[0-9]{1,40}")

InitiativeCommand = SetInitiative | RollInitiative | SortInitiative


def sort_key(system: RuleSystem, combatant: Combatant[Any]) -> tuple[int, ...]:
    """Where a combatant stands by initiative, compared highest first: anyone with one before
    anyone without, then the initiative, then the system's tie-break."""
    if combatant.initiative is None:
        return (0,)
    return (1, combatant.initiative, *system.initiative_tiebreak(combatant))


def sorted_order(system: RuleSystem, combatants: Sequence[Combatant[Any]]) -> list[Combatant[Any]]:
    """The combatants by initiative, highest first; ties (and those without) as they were."""
    return sorted(combatants, key=lambda c: sort_key(system, c), reverse=True)  # stable


def place(
    system: RuleSystem, combatants: Sequence[Combatant[Any]], key: tuple[int, ...], default: int
) -> int:
    """The index where one with ``key`` takes its place among ``combatants`` (itself not
    among them): before the first with a lower initiative, after those with one as high
    (ties: the newcomer last); ``default`` when nobody else has an initiative."""
    last_ranked = -1
    for index, other in enumerate(combatants):
        if other.initiative is None:
            continue
        if sort_key(system, other) < key:
            return index
        last_ranked = index
    return default if last_ranked < 0 else last_ranked + 1


def refuse_without_order(system: RuleSystem) -> None:
    if not system.uses_turn_order:
        raise Rejected(system.why_no_initiative())


def roll(notation: str, dice: DiceSource) -> tuple[int, plain_dice.DiceRolled | None]:
    """A number as given, or dice notation rolled (every die kept): the initiative and its
    roll. ``Rejected`` with one line, before any die is rolled, when it cannot be."""
    text = notation.strip()
    if NUMBER.fullmatch(text):
        return within(int(text), "an initiative", -LIMIT, LIMIT), None
    try:
        rolled = plain_dice.rolled(text, dice)
    except Rejected as exc:
        # Short: the dice's own line quotes what was typed; the whole fits 80 columns.
        raise Rejected(f"initiative: {exc.message}") from None
    if rolled.goal:
        raise Rejected(f"initiative is a number or dice, not a check: {notation!r}")
    return within(rolled.total, "an initiative", -LIMIT, LIMIT), rolled


def initiative_events(
    system: RuleSystem, state: AnyEncounter, command: InitiativeCommand, dice: DiceSource
) -> list[Any]:
    """The events of an initiative command: set, rolled or sorted (``Rejected`` if it cannot)."""
    refuse_without_order(system)
    match command:
        case SetInitiative():
            return _set(system, state, command, dice)
        case RollInitiative():
            return _roll_all(system, state, command, dice)
        case SortInitiative():
            if all(c.initiative is None for c in state.combatants):
                raise Rejected("nobody has an initiative yet: :init roll, or :init NAME N")
            sort = sorted_event(system, state)
            if sort is None:
                raise Rejected("the order already follows initiative")
            return [sort]


def _set(
    system: RuleSystem, state: AnyEncounter, command: SetInitiative, dice: DiceSource
) -> list[Any]:
    target = state.combatant(command.combatant_id)
    value, rolled = roll(command.value or system.initiative_dice(state, target), dice)
    events: list[Any] = [InitiativeSet((target.id,), value, rolled)]
    others = [c for c in state.combatants if c.id != target.id]
    key = sort_key(system, _with_initiative(target, value))
    index = place(system, others, key, state.index_of(target.id))
    if index != state.index_of(target.id):
        events.append(CombatantMoved(target.id, index))
    return events


def _with_initiative(combatant: Combatant[Any], value: int | None) -> Combatant[Any]:
    return structs.replace(combatant, initiative=value)


def groups(combatants: Iterable[Combatant[Any]], each: bool) -> list[list[Combatant[Any]]]:
    """Combatants in the order's order, a group added together as one (unless ``each``)."""
    found: dict[str, list[Combatant[Any]]] = {}
    for combatant in combatants:
        key = combatant.group if combatant.group and not each else combatant.id
        found.setdefault(key, []).append(combatant)
    return list(found.values())


def rolled_for(
    system: RuleSystem,
    state: AnyEncounter,
    members: Sequence[Combatant[Any]],
    notation: str,
    dice: DiceSource,
) -> InitiativeSet:
    """One roll for a group (its first member's dice unless ``notation`` says)."""
    value, rolled = roll(notation or system.initiative_dice(state, members[0]), dice)
    return InitiativeSet(tuple(m.id for m in members), value, rolled)


def _roll_all(
    system: RuleSystem, state: AnyEncounter, command: RollInitiative, dice: DiceSource
) -> list[Any]:
    waiting = [c for c in state.combatants if c.initiative is None]
    if not waiting:
        raise Rejected(
            "everyone has an initiative: :init sort orders them, :init NAME N changes one"
        )
    events: list[Any] = [
        rolled_for(system, state, members, command.dice, dice)
        for members in groups(waiting, command.each)
    ]
    after = state
    for event in events:
        after = apply_set(after, event)
    sort = sorted_event(system, after, first_turn=state)
    return [*events, sort] if sort is not None else events


def unstarted(state: AnyEncounter) -> bool:
    """Whether the fight has not begun: round 1, the turn with the first in the order (or
    nobody's), and no roll made. The first who has rolled on its turn has begun it: a
    newcomer sorted above it then waits for the next round, not taking its turn away (the
    first would have had a second turn in the round)."""
    first = not state.combatants or state.current_id == state.combatants[0].id
    return state.round == 1 and first and state.last_roll is None


def sorted_event(
    system: RuleSystem, state: AnyEncounter, first_turn: AnyEncounter | None = None
) -> OrderSorted | None:
    """The sort of ``state``'s order as an event, None when it is sorted already. Sorted
    before the fight has begun (``unstarted``), the turn goes to the new first."""
    before = first_turn or state
    order = sorted_order(system, state.combatants)
    ids = tuple(c.id for c in order)
    current = state.current_id
    if before.combatants and unstarted(before) and order:
        current = order[0].id
    if ids == tuple(c.id for c in state.combatants) and current == state.current_id:
        return None
    return OrderSorted(ids, current)


def apply_set(state: AnyEncounter, event: InitiativeSet) -> AnyEncounter:
    """The state with ``event``'s initiative on each of its combatants."""
    for cid in event.combatant_ids:
        state = state.replace_combatant(_with_initiative(state.combatant(cid), event.initiative))
    return state


def reorders(state: AnyEncounter, event: OrderSorted) -> bool:
    """Whether ``event`` moves anyone in ``state``'s order (else it only gives the first turn
    to the top of an order already sorted)."""
    after = apply_sort(state, event).combatants
    return [c.id for c in after] != [c.id for c in state.combatants]


def apply_sort(state: AnyEncounter, event: OrderSorted) -> AnyEncounter:
    """The order as sorted (anyone the event does not name, e.g. not seen, keeps after)."""
    by_id = {c.id: c for c in state.combatants}
    named = [by_id[cid] for cid in event.order_ids if cid in by_id]
    rest = [c for c in state.combatants if c.id not in set(event.order_ids)]
    current = event.current_id if event.current_id in by_id else state.current_id
    return state.update(combatants=(*named, *rest), current_id=current)
