"""A combatant renamed to another's name is refused in one line (a GM renamed Bram "Troll" and
had two rows named Troll: the `:` line and the log could not tell them apart); a newcomer is
numbered instead, and a rename to its own name in another case goes through. A name the `:`
line reads as another's (``zombie-1`` for "Zombie 1") is another's too: it renamed the Imp,
and "zombie-1" then named it."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant, EditCombatant
from rules.dice import SeededDice
from rules.encounter import CombatantEdited
from rules.engine import decide, fold_onto, initial_state, new_encounter
from rules.errors import Rejected
from rules.registry import all_systems


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.name)
def test_a_rename_to_anothers_name_is_refused(system) -> None:  # type: ignore[no-untyped-def]
    state = initial_state(new_encounter("Test", system.name))
    for name in ("Bram", "Troll"):
        add = AddCombatant(name=name, side="foes", sheet=system.new_sheet())
        state = fold_onto(state, decide(state, add, SeededDice(1)))
    bram = next(c for c in state.combatants if c.name == "Bram")
    with pytest.raises(Rejected, match="Troll already has that name: give Bram another"):
        decide(state, EditCombatant(combatant_id=bram.id, name=" troll "), SeededDice(1))
    with pytest.raises(Rejected, match="Troll already has that name"):  # the line's "troll"
        decide(state, EditCombatant(combatant_id=bram.id, name="-TROLL!"), SeededDice(1))
    [renamed] = decide(state, EditCombatant(combatant_id=bram.id, name="BRAM"), SeededDice(1))
    assert isinstance(renamed, CombatantEdited) and renamed.combatant.name == "BRAM"
