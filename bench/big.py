"""Big encounters for benchmarks and tests: many combatants and a long log, in any system.

``big_fight(system, combatants, entries)`` starts from the system's demo (its ``demo`` part, so
every kind of pane has something real to show), adds plain combatants up to ``combatants``,
then plays rolls, conditions, notes and turns until the log holds ``entries`` events. Seeded:
the same arguments always give the same fight. Nothing here is per system: the rolls are the
system's roll dialog with its defaults, so a new system is covered by its folder alone.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.commands import AddCombatant, AddCondition, AddNote, NextTurn, RemoveCondition
from rules.conditions import Duration
from rules.dice import SeededDice
from rules.engine import decide
from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system, names, part

SYSTEMS = names()  # every registered system


def log_length(history: History) -> int:
    return sum(len(record.events) for record in history.applied_in_effect())


def big_fight(system: str, combatants: int = 200, entries: int = 20_000) -> History:
    """The system's demo grown to ``combatants`` combatants and about ``entries`` log entries."""
    demo = part(system, "demo")
    if demo is None:
        raise LookupError(f"{system} has no demo to grow a big fight from")
    build: Callable[[], History] = demo.build
    history = build()
    rules = get_system(system)
    dice = SeededDice(20_000)

    count = log_length(history)

    def run(command: object, label: str) -> bool:
        nonlocal count
        try:
            events = decide(history.state, command, dice)
        except Rejected:
            return False
        if events:
            history.commit(events, label)
            count += len(events)
        return bool(events)

    number = len(history.state.combatants)
    while len(history.state.combatants) < combatants:
        number += 1
        side = "party" if number % 5 == 0 else "foes"
        run(AddCombatant(name=f"Extra {number}", side=side, gm_only=number % 7 == 0), "add")
    step = 0
    while count < entries:
        state = history.state
        ids = [c.id for c in state.combatants]
        who = ids[step % len(ids)]
        kind = step % 6
        done = False
        if kind in (0, 1, 2):
            done = run(default_roll(rules, state, who), "roll")
        elif kind == 3:
            if any(c.name == "Prone" for c in state.combatant(who).conditions):
                done = run(RemoveCondition(who, "Prone"), "drop condition")
            else:
                done = run(AddCondition(who, "Prone", Duration("until-removed")), "condition")
        elif kind == 4:
            done = run(AddNote(f"Note {step}: the fight goes on", None), "note")
        else:
            done = run(NextTurn(), "next")
        if not done:
            run(AddNote(f"Note {step}", who), "note")
        step += 1
    return history


def default_roll(rules: object, state: object, who: str) -> object:
    """The system's roll with its dialog's defaults, for the selected combatant."""
    try:
        fields = rules.action_form(state, "roll", who)  # type: ignore[attr-defined]
        values = {field.key: field.default for field in fields}
        return rules.action_command(state, "roll", values)  # type: ignore[attr-defined]
    except Rejected:
        return AddNote("No roll possible", who)
