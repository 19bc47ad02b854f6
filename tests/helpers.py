"""Shared builders for the rules tests: encounters, commands and scripted rolls."""

from __future__ import annotations

from collections.abc import Iterable

from rules.commands import AddCombatant, NextTurn
from rules.dice import DiceSource, ScriptedDice
from rules.encounter import Combatant, Event
from rules.engine import decide, initial_state, new_encounter
from rules.events import NoteAdded
from rules.history import History
from rules.odds import Odds
from rules.system import RuleSystem
from rules.systems.livehack.system import LiveHackSheet


def rolls_initiative_on_add(system: RuleSystem) -> bool:
    """Whether a system rolls initiative as a combatant joins (tests that script initiative
    by hand take a system that does not)."""
    probe = Combatant(id="c1", name="Probe", sheet=system.new_sheet())
    return system.initiative_on_add(initial_state(new_encounter("Probe", system.name)), probe)


def no_dice() -> ScriptedDice:
    """A dice source that fails loudly if anything rolls."""
    return ScriptedDice([])


def new_history(name: str = "Test fight") -> History:
    return History(new_encounter(name, "livehack"))


def run(history: History, command: object, dice: DiceSource | None = None) -> list[Event]:
    """Decide a command against the live state and commit its events."""
    events = decide(history.state, command, dice if dice is not None else no_dice())
    history.commit(events, type(command).__name__)
    return events


def encounter(*sheets: LiveHackSheet | None, names: Iterable[str] | None = None) -> History:
    """A history with one combatant per sheet (ids c1, c2, ...), c1 to act in round 1.

    A ``None`` sheet gives the system's blank sheet. Names default to A, B, C...
    """
    chosen = list(names) if names is not None else [chr(ord("A") + i) for i in range(len(sheets))]
    history = new_history()
    for name, sheet in zip(chosen, sheets, strict=True):
        run(history, AddCombatant(name=name, sheet=sheet))
    return history


def people(count: int) -> History:
    """A history with ``count`` combatants on blank sheets."""
    return encounter(*([None] * count))


def advance(history: History, turns: int = 1) -> None:
    for _ in range(turns):
        run(history, NextTurn())


def who(history: History, combatant_id: str) -> Combatant:
    return history.state.combatant(combatant_id)


def condition_names(history: History, combatant_id: str) -> list[str]:
    return [c.name for c in who(history, combatant_id).conditions]


def order(history: History) -> list[str]:
    return [c.id for c in history.state.combatants]


def notes_in_effect(history: History) -> list[str]:
    """The texts of the notes in effect (solo play logs a refused move as a note)."""
    return [
        event.text
        for record in history.applied_in_effect()
        for event in record.events
        if isinstance(event, NoteAdded)
    ]


def unnamed(odds: Odds | None, added_note: bool = False) -> Odds | None:
    """Odds without what a system's hooks add to the bare computation: whose they are and,
    with ``added_note``, the note (Beer Run's upper hand, a Fatigue fumble)."""
    if odds is None:
        return None
    extra = {k: v for k, v in odds.extra.items() if not (added_note and k == "note")}
    return odds._replace(whose="", extra=extra)
