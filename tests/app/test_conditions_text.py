"""The combatants pane's Conditions column: a condition a badge already says with how it ends
is said once, by the badge (a Generic d20 table saw "frightened, unconscious, frightened:
Wis 19 ends"); one with rounds left, or no such badge, keeps its own word."""

from __future__ import annotations

from rules.conditions import Condition
from rules.encounter import Combatant
from rules.registry import all_systems
from tracker.widgets.combatants import conditions_text


def test_a_condition_a_badge_ends_is_said_once() -> None:
    who = Combatant(
        id="c1",
        name="Orla",
        conditions=(Condition("frightened"), Condition("prone"), Condition("charmed")),
        sheet=all_systems()[0].new_sheet(),
    )
    badges = ("frightened: Wis 19 ends", "charmed to the end of Imp's turn", "proneness 2")
    said = conditions_text(who, badges).plain
    assert said == "prone, frightened: Wis 19 ends, charmed to the end of Imp's turn, proneness 2"
    assert conditions_text(who).plain == "frightened, prone, charmed"
