"""A condition whose name the rules do not know, in any system that names the conditions its
rules know (``condition_names``): allowed, and marked in one line as a label with no rules
effect as it is added, with the name it is a slip for (issue 42, item 8). A system that
knows none says nothing: every condition there is the table's."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commands import AddCondition
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.registry import get_system
from tests.app.support import until
from tests.app.test_initiative import fight, line
from tests.app.test_layout import SMALL
from tests.picks import a_system, keeps_added_order, knows_conditions
from tests.screen import screen_text
from tracker.screens.form import FormScreen

KNOWN = ("Marked", "Shaken")


def knows_none(name: str) -> bool:
    return keeps_added_order(name) and not knows_conditions(name)


@pytest.fixture
def knowing(monkeypatch: pytest.MonkeyPatch) -> str:
    """A system that knows no condition by name, made to know two."""
    name = a_system(knows_none)
    monkeypatch.setattr(get_system(name), "condition_names", lambda: KNOWN)
    return name


def test_a_system_that_knows_no_conditions_marks_none():
    system = get_system(a_system(knows_none))
    assert [system.condition_note(n) for n in ("Hasted", "Marked", "Markd")] == ["", "", ""]


def test_a_name_the_rules_do_not_know_is_a_label_and_a_slip_says_which(knowing: str) -> None:
    system = get_system(knowing)
    title = system.title
    assert system.condition_note("marked") == "" and system.condition_note("  ") == ""
    assert system.condition_note("Hasted") == (
        f"Hasted is no condition {title}'s rules know: a label with no rules effect"
    )
    assert system.condition_note("Markd").endswith("(did you mean Marked?)")


async def test_a_label_added_on_the_line_is_marked_in_one_line(
    tmp_path: Path, knowing: str
) -> None:
    app = fight(tmp_path, system=knowing)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await line(pilot, 'add "Orla Vance" party')
        await line(pilot, "cond orla Hasted")
        said = "Hasted is no condition"
        await until(pilot, lambda: said in screen_text(app), "the note")
        state = app.session.state
        (event,) = decide(state, AddCondition("c1", "Shaken"), ScriptedDice([]))
        assert get_system(knowing).notices(state, event) == []


async def test_the_condition_dialog_says_did_you_mean_as_a_slip_is_typed(
    tmp_path: Path, knowing: str
) -> None:
    app = fight(tmp_path, system=knowing)
    async with app.run_test(size=SMALL) as pilot:
        await line(pilot, 'add "Orla Vance" party')
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the condition dialog")
        await pilot.press(*"Markd")
        said = "(did you mean Marked?)"
        await until(pilot, lambda: said in screen_text(app), "the slip told before it is added")
        assert app.session.state.combatants[0].conditions == ()
        await pilot.press("enter")  # still the table's to add, as a label
        await until(pilot, lambda: bool(app.session.state.combatants[0].conditions), "added")
