"""Commands enter the log inert in Beer Run, its own text (a goal) included (moved from
tests/rules/test_text.py)."""

from __future__ import annotations

from hypothesis import example, given, settings

from rules.commands import AddCombatant, AddCondition, AddNote, EditCombatant, RemoveCondition
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History
from rules.systems.beerrun.events import SetGoal
from rules.systems.beerrun.sheet import Goal
from tests.hostile_text import CONTROLS, EVERY, SPOOFING, hostile_text, unsafe_strings


@settings(max_examples=60, deadline=None)
@given(name=hostile_text, note=hostile_text, condition=hostile_text)
@example(name=CONTROLS + SPOOFING, note=EVERY, condition=EVERY)
def test_commands_enter_the_log_inert(name: str, note: str, condition: str) -> None:
    """Names, sides, notes and conditions, a system's own text (a Beer Run goal), and the
    encounter's name: whatever was typed, what the rules keep is inert."""
    dice = SeededDice(1)
    name = name[:40]  # a name has at most 60 characters
    history = History(new_encounter(f"Fight {name}", "beerrun"))
    commands = [
        AddCombatant(name=f"Orla {name}", side=f"party {name}", notes=note),
        AddCombatant(name=f"Orla {name}", side="foes"),  # numbered: "Orla ... 2"
        AddCondition("c1", f"Dazed {condition}"),
        AddNote(f"Note {note}", "c1"),
        EditCombatant(combatant_id="c2", name=f"Brak {name}", notes=note),
        SetGoal(combatant_id="c1", goal=Goal(text=f"Escape {note}")),
        RemoveCondition("c1", f"Dazed {condition}"),
    ]
    for command in commands:
        history.commit(decide(history.state, command, dice))
    assert unsafe_strings(history.state) == []
    assert [record for record in history.records if unsafe_strings(record)] == []
