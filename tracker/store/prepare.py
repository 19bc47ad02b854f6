"""A new encounter prepared in one go: the party of another save carried over, as it ended
or fresh, and groups of foes from the library. Everything is added by commands
(``AddCombatants``), so the new encounter's log says who came in, and undo takes it back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.commands import AddCombatant, AddCombatants
from rules.dice import DiceSource
from rules.difficulty import party_of
from rules.encounter import AnyEncounter, Combatant
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system
from tracker.store.library import Library, groups


def party_side(state: AnyEncounter) -> str:
    """The side of an encounter that is the party: "party" or "heroes" when there is one,
    else the first side in the turn order that is not "foes" or "challenge"."""
    sides = list(dict.fromkeys(c.side for c in state.combatants))
    found = party_of(sides)
    if found is None:
        raise Rejected(f"{state.name} has no party side (sides: {', '.join(sides) or 'none'})")
    return found


def party(state: AnyEncounter, library: Library, fresh: bool) -> tuple[AddCombatant, ...]:
    """The party side of ``state`` to add to a new encounter: each as it ended, or ``fresh``:
    with the sheet of the library's stat block of its name, else its own reset to full."""
    side = party_side(state)
    return tuple(
        _member(state.system, c, library, fresh) for c in state.combatants if c.side == side
    )


def _member(system: str, combatant: Combatant[Any], library: Library, fresh: bool) -> AddCombatant:
    sheet = combatant.sheet
    if fresh:
        entry = library.find(system, combatant.name)
        sheet = entry.sheet() if entry else get_system(system).fresh_sheet(sheet)
    return AddCombatant(
        name=combatant.name,
        side=combatant.side,
        gm_only=combatant.gm_only,
        notes=combatant.notes,
        sheet=sheet,
    )


def new_history(
    name: str,
    system: str,
    dice: DiceSource,
    *,
    library: Library,
    party_from: AnyEncounter | None = None,
    fresh: bool = False,
    foes: Sequence[str] = (),
) -> History:
    """A new encounter: the party of ``party_from``, then each "NAME xK" of ``foes``."""
    history = History(new_encounter(name, system))
    steps: list[AddCombatants] = []
    labels: list[str] = []
    if party_from is not None:
        if party_from.system != system:
            theirs = get_system(party_from.system).title
            raise Rejected(
                f"{party_from.name} is a {theirs} encounter, not {get_system(system).title}"
            )
        how = "fresh" if fresh else "as it ended"
        steps.append(AddCombatants(party(party_from, library, fresh)))
        labels.append(f"the party of {party_from.name}, {how}")
    for entry, copies in groups(library, system, foes):
        steps.append(AddCombatants(copies, together=len(copies) > 1))  # a group: one roll
        labels.append(f"add {entry.name} x{len(copies)}")
    for step, label in zip(steps, labels, strict=True):
        if step.members:
            history.commit(decide(history.state, step, dice), label)
    return history
