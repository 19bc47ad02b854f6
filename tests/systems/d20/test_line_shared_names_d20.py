"""Generic d20's actions whose ids are also the app's commands on the `:` line, at 80x24 by
keys: ``save`` (the Saving throw effect) and ``heal`` (Heal). The app's command keeps the
line it fits (``:save`` alone saves, ``:heal orla 5`` moves the track); any other words go to
the action, never lost to a save of the file; ``:help`` lists both."""

from __future__ import annotations

from pathlib import Path

from rules.dice import ScriptedDice
from rules.systems.d20.events import D20Healed, D20Saved
from tests.app.support import keys_of, make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, history_of
from tracker.screens.command_prompt import CommandLineScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.form import FormScreen

SIZE = (80, 24)


def beasts():  # type: ignore[no-untyped-def]
    return history_of(("Sefi", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))


def rolled(app, kind):  # type: ignore[no-untyped-def]
    return [e for e, _ in app.session.history.in_effect() if isinstance(e, kind)]


async def typed(pilot, line: str) -> None:  # type: ignore[no-untyped-def]
    """`:`, the line key by key, then Enter."""
    await pilot.press("colon")
    await until(pilot, lambda: isinstance(pilot.app.screen, CommandLineScreen), "the prompt")
    await pilot.press(*keys_of(line), "enter")


async def test_save_with_an_effects_words_rolls_the_effect_not_a_save_of_the_file(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, ScriptedDice([5]), beasts())  # Imp's Wisdom save: 5, failed
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await typed(pilot, "save sefi imp +ability wis +dc 13 +condition charmed +damage 0")
        await until(pilot, lambda: rolled(app, D20Saved), "the effect rolled")
        saved = rolled(app, D20Saved)[0]
        assert (saved.source_id, saved.ability, saved.dc) == ("c1", "wis", 13)
        await until(pilot, lambda: isinstance(app.screen, EncounterScreen), "the prompt closed")
        assert "Saved to" not in screen_text(app)
        assert "Wisdom save DC 13" in screen_text(app)
        await typed(pilot, "save")  # alone: the app's own, the file saved
        await until(pilot, lambda: "Saved to" in screen_text(app), "the file saved")
        assert len(rolled(app, D20Saved)) == 1
        await typed(pilot, "save now")  # a stray word, no one named: refused, nothing rolled
        said = "save takes no words · with a combatant or a +field, Saving throw effect"
        await until(pilot, lambda: said in screen_text(app).replace("\n", " "), "refused")
        assert len(rolled(app, D20Saved)) == 1


async def test_help_save_lists_the_apps_save_and_the_effect(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([]), beasts())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await typed(pilot, "help save")
        said = "save: save now · with other words, Saving throw effect: save [ACTOR]"
        await until(pilot, lambda: said in screen_text(app).replace("\n", " "), "both named")


async def test_heal_takes_a_track_change_or_the_heal_actions_words(tmp_path: Path) -> None:
    app = make_app(tmp_path, ScriptedDice([]), beasts())
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await typed(pilot, "wound imp 5")
        await typed(pilot, "heal imp 2")  # NAME N: the app's, hit points back
        await until(pilot, lambda: "9/12" in screen_text(app), "the track moved back")
        await typed(pilot, "heal sefi imp +amount 3")  # the Heal action's words
        await until(pilot, lambda: rolled(app, D20Healed), "Sefi heals the imp")
        healed = rolled(app, D20Healed)[0]
        assert (healed.healer_id, healed.target_id) == ("c1", "c2")
        await typed(pilot, "heal")  # alone: the Heal dialog, as any action with a dialog
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the Heal dialog")
        assert "Healer" in screen_text(app)
