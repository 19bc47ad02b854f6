"""A dialog's first field to type in has the focus before any key typed after the opener.

Under load a typed "Fireball" once landed in a saving throw's Source choice (its ``l``s step
a choice) and made a dead goblin the source: the keys reached the choice Textual focuses
first, before the dialog moved the focus to the field to type in.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from rules.commands import AddCombatant
from rules.dice import SeededDice
from rules.registry import get_system
from tests.app.support import burst_handled, fight_of, keys_of, press_at_once
from tests.picks import a_system
from tracker.app import TrackerApp
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen
from tracker.session import EncounterSession
from tracker.widgets.choice import Choice

SIZE = (80, 24)
PEOPLE = (AddCombatant(name="Orla", side="heroes"), AddCombatant(name="Goblin"))


def typed_after_a_choice(name: str) -> bool:
    """A system with an action (other than "roll") whose dialog opens typing in a text
    field that comes after a choice: the choice is what Textual would focus first."""
    return action_typed_after_a_choice(name) is not None


def action_typed_after_a_choice(name: str) -> str | None:
    system = get_system(name)
    state = fight_of(name, *PEOPLE).state
    for action in system.actions(state):
        if action.id == "roll":
            continue
        try:
            fields = system.action_form(state, action.id, None)
        except Exception:  # an action this fight cannot take
            continue
        kinds = [f.kind for f in fields]
        typed = next(
            (i for i, f in enumerate(fields) if f.kind != "choice" and f.focus_first), None
        )
        if typed is not None and "choice" in kinds[:typed]:
            return action.id
    return None


SYSTEM = a_system(typed_after_a_choice)


def make_app(tmp_path: Path) -> TrackerApp:
    session = EncounterSession(fight_of(SYSTEM, *PEOPLE), SeededDice(3), tmp_path / "f.fight")
    return TrackerApp(session, saves=tmp_path)


def menu_keys(app: TrackerApp, action_id: str) -> list[str]:
    """``s``, then ↓ to the action in the system's menu, then Enter."""
    state = app.session.state
    ids = [a.id for a in app.session.system.actions(state) if app.session.allows("system", a.id)]
    return ["s", *["down"] * ids.index(action_id), "enter"]


def choices(dialog: FormScreen) -> list[str]:
    return [choice.value for choice in dialog.query(Choice)]


async def opened_and_left_on_a_choice(pilot: Pilot[None], action_id: str) -> FormScreen:
    """The dialog opened by keys and closed with the focus left on its first choice: it is
    kept, and opened again as the next saving throw of a fight is."""
    app = pilot.app
    await press_at_once(pilot, *menu_keys(app, action_id))
    dialog = app.screen
    assert isinstance(dialog, FormScreen)
    dialog.query(Choice).first().focus()
    await burst_handled(pilot)
    await press_at_once(pilot, "escape")
    assert app.screen is not dialog
    return dialog


async def test_a_name_typed_with_the_keys_that_open_a_dialog_lands_in_its_first_text_field(
    tmp_path: Path,
) -> None:
    action_id = action_typed_after_a_choice(SYSTEM)
    assert action_id is not None
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await press_at_once(pilot, *menu_keys(app, action_id), *keys_of("Fireball"))
        dialog = app.screen
        assert isinstance(dialog, FormScreen)
        field = app.focused
        assert isinstance(field, Input)
        assert field.value.endswith("Fireball")
        await press_at_once(pilot, "ctrl+u", "escape")
        untouched = choices(dialog)
        await opened_and_left_on_a_choice(pilot, action_id)
        await press_at_once(pilot, *menu_keys(app, action_id), "ctrl+u", *keys_of("Fireball"))
        assert app.screen is dialog
        assert app.focused is field
        assert field.value == "Fireball"
        assert choices(dialog) == untouched  # no choice stepped by an "l"


async def test_keys_read_before_a_kept_dialog_is_shown_again_go_to_its_first_text_field(
    tmp_path: Path,
) -> None:
    # The keys are in the app's queue before the dialog's ScreenResume is handled, as under
    # load: they reached the choice the focus was left on, and its "l"s stepped it.
    action_id = action_typed_after_a_choice(SYSTEM)
    assert action_id is not None
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await opened_and_left_on_a_choice(pilot, action_id)
        untouched = choices(dialog)
        assert isinstance(app.screen, EncounterScreen)
        app.screen.action_system(action_id)  # its opener handled: the dialog is pushed
        await press_at_once(pilot, *keys_of("Fireball"))
        assert app.screen is dialog
        field = app.focused
        assert isinstance(field, Input)
        assert field.value.endswith("Fireball")  # its "F" was lost in the choice
        assert choices(dialog) == untouched
