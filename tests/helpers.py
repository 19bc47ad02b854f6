"""Shared builders for the rules tests: encounters, commands and scripted rolls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules import registry
from rules.commands import AddCombatant, NextTurn
from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.encounter import Combatant, Event
from rules.engine import decide, initial_state, new_encounter
from rules.errors import Rejected
from rules.events import NoteAdded
from rules.history import History
from rules.odds import Odds
from rules.system import RuleSystem
from tests.picks import a_system, has_turn_order, joins_without_dice


def rolls_initiative_on_add(system: RuleSystem) -> bool:
    """Whether a system rolls initiative as a combatant joins (tests that script initiative
    by hand take a system that does not)."""
    probe = Combatant(id="c1", name="Probe", sheet=system.new_sheet())
    return system.initiative_on_add(initial_state(new_encounter("Probe", system.name)), probe)


def no_dice() -> ScriptedDice:
    """A dice source that fails loudly if anything rolls."""
    return ScriptedDice([])


def a_scripted_system() -> str:
    """The first listed system whose turns a test can script by hand: it has a turn order and
    rolls nothing as a combatant joins, so c1 acts first, then c2... (``tests/picks.py``)."""
    return a_system(has_turn_order, joins_without_dice)


def a_demo_sheet(system: str) -> Any:
    """A sheet from the system's demo that is not its blank sheet (blank if none is)."""
    blank = registry.get_system(system).new_sheet()
    demo = registry.part(system, "demo")
    fight = demo.build().state.combatants if demo is not None else ()
    return next((c.sheet for c in fight if c.sheet != blank), blank)


def new_history(name: str = "Test fight", system: str | None = None) -> History:
    """A fresh fight in the system given, else ``a_scripted_system()``."""
    return History(new_encounter(name, system or a_scripted_system()))


def system_of(sheet: object) -> str:
    """The registered system whose sheet ``sheet`` is."""
    for name in registry.names():
        if isinstance(sheet, registry.get_system(name).sheet_types):
            return name
    raise ValueError(f"no registered system has sheets of type {type(sheet).__name__}")


def run(history: History, command: object, dice: DiceSource | None = None) -> list[Event]:
    """Decide a command against the live state and commit its events."""
    events = decide(history.state, command, dice if dice is not None else no_dice())
    history.commit(events, type(command).__name__)
    return events


def encounter(
    *sheets: Any, names: Iterable[str] | None = None, system: str | None = None
) -> History:
    """A history with one combatant per sheet (ids c1, c2, ...), c1 to act in round 1.

    A ``None`` sheet gives the system's blank sheet. The system is the one given, else the
    sheets' own, else ``a_scripted_system()``. Names default to A, B, C...
    """
    chosen = list(names) if names is not None else [chr(ord("A") + i) for i in range(len(sheets))]
    given = [sheet for sheet in sheets if sheet is not None]
    history = new_history(system=system or (system_of(given[0]) if given else None))
    for name, sheet in zip(chosen, sheets, strict=True):
        run(history, AddCombatant(name=name, sheet=sheet))
    return history


def roll_to_apply(history: History, actor: str = "c1") -> int:
    """Commit a roll by the roll dialog's defaults for ``actor``, with the first seed whose
    result the consequence command (``d``) applies; return that seed."""
    system = registry.get_system(history.state.system)
    for seed in range(1, 100):
        state = history.state
        values = {field.key: field.default for field in system.action_form(state, "roll", actor)}
        run(history, system.action_command(state, "roll", values), SeededDice(seed))
        try:
            if decide(history.state, system.consequence_command(history.state), SeededDice(seed)):
                return seed
        except Rejected:
            pass
        history.undo()
    raise AssertionError(f"{system.name}: no seed gave a roll whose result applies")


def people(count: int, system: str | None = None) -> History:
    """A history with ``count`` combatants on blank sheets."""
    return encounter(*([None] * count), system=system)


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
