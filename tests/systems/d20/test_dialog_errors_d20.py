"""A refusal in a Generic d20 dialog is shown whole at 80x24, by keys: the Heal dialog's
dice error (it ended in a bare ``(``, which read as a line cut short: "... dice like 2d6, or
("), a refusal of two lines in the tallest dialog, the Saving throw effect's; and the `:`
line's usage of ``save``, the app's and the action's (four lines: it was cut at two)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from rules.dice import ScriptedDice
from tests.app.support import keys_of, make_app, until
from tests.screen import screen_strips
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, history_of
from tracker.screens.action_menu import ActionMenuScreen
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.form import FormScreen

SIZE = (80, 24)


def shown_error(app) -> str:  # type: ignore[no-untyped-def]
    """The dialog's error line as the screen shows it, its rows read as one."""
    return shown(app, app.screen.query_one("#error", Static))


def shown(app, widget: Static) -> str:  # type: ignore[no-untyped-def]
    """What the screen shows of ``widget``, its rows read as one."""
    region = widget.region
    strips = screen_strips(app)
    if not region or region.bottom > len(strips):
        return ""
    rows = [strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)]
    return " ".join(" ".join(rows).split())


async def action_dialog(pilot, title: str) -> None:  # type: ignore[no-untyped-def]
    """``s``, then the action of that title, as the menu lists it."""
    app = pilot.app
    await pilot.press("s")
    await until(pilot, lambda: isinstance(app.screen, ActionMenuScreen), "the actions menu")
    titles = [a.title for a in app.session.system.actions(app.session.state)]
    await pilot.press(*["down"] * titles.index(title), "enter")
    await until(pilot, lambda: isinstance(app.screen, FormScreen), f"the {title} dialog")


async def typed_in(pilot, key: str, text: str) -> None:  # type: ignore[no-untyped-def]
    """``text`` typed over the focused field ``key``'s value, then Enter."""
    app = pilot.app
    field = app.screen.query_one(f"#field-{key}", Input)
    await until(pilot, lambda: app.screen.focused is field, f"{key} focused")
    await pilot.press("end", "ctrl+u", *keys_of(text), "enter")


async def test_the_heal_dialogs_dice_error_is_whole(tmp_path: Path) -> None:
    people = (("Sefi", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history_of(*people))
    async with app.run_test(size=SIZE) as pilot:
        await action_dialog(pilot, "Heal")
        await typed_in(pilot, "amount", "abc")
        said = "cannot read dice at 'abc': expected a number, dice like 2d6, or '('"
        await until(pilot, lambda: shown_error(app) == said, "the whole error")


async def test_a_refusal_of_two_lines_in_the_tallest_dialog_is_whole(tmp_path: Path) -> None:
    people = (("Sefi", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history_of(*people))
    async with app.run_test(size=SIZE) as pilot:
        await action_dialog(pilot, "Saving throw effect")
        await pilot.press("tab", "tab", "tab")  # from the Effect's name past Save and DC
        await typed_in(pilot, "damage", "2d63d84")
        said = (
            "cannot read dice at 'd84': after 2d63 comes an operation (k p rr ro ra e mi ma c),"
            " a label in brackets, an operator or the end"
        )
        await until(pilot, lambda: shown_error(app) == said, "the whole error")
        assert app.screen.query_one("#error", Static).region.height == 2  # wrapped, not cut


async def test_the_lines_usage_of_save_is_whole(tmp_path: Path) -> None:
    people = (("Sefi", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history_of(*people))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon")
        await until(pilot, lambda: isinstance(app.screen, CommandLineScreen), "the prompt")
        await pilot.press(*keys_of("save "))
        hint = app.screen.query_one("#command-hint", Static)
        said = app.screen.hint("save ")
        assert said.startswith("save: save now · with other words, Saving throw effect")
        await until(pilot, lambda: shown(app, hint) == said, "the whole usage")
