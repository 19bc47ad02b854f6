"""Generic d20's `:cond` endings on the line (issue 42, item 7): ``end NAME`` and ``start
NAME`` find the combatant as every name on the line does (a first name, a unique prefix),
and a mistyped one gets "did you mean"; the hint lists them; the condition dialog says
"did you mean prone?" as a slip is typed."""

from __future__ import annotations

from pathlib import Path

from rules.dice import ScriptedDice
from rules.systems.d20.turn_edge_events import D20SetEnding
from tests.app.line_support import context, refused, run
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, history_of
from tracker.line_commands.resolve import hint
from tracker.screens.form import FormScreen


def people():  # type: ignore[no-untyped-def]
    return history_of(("Orla Vance", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))


def test_a_conditions_end_names_its_combatant_by_first_name_or_prefix():
    for typed in ("orla", "orl", '"Orla Vance"', "c1"):
        command = run(f"cond gob Frightened end {typed}", people())
        assert isinstance(command, D20SetEnding) and (command.at, command.who_id) == ("end", "c1")
    command = run("cond orla Prone start gob", people())
    assert isinstance(command, D20SetEnding) and command.who_id == "c2"


def test_a_mistyped_name_in_a_conditions_end_gets_did_you_mean():
    said = refused("cond gob Frightened end orlaa", people())
    assert said == "no combatant 'orlaa': did you mean 'Orla Vance'?"


def test_end_of_round_is_still_the_cores_duration():
    command = run("cond gob Frightened end of round", people())
    assert not isinstance(command, D20SetEnding)


def test_the_cond_hint_shows_save_ends_and_whose_turn():
    shown = hint(":cond ", context(people()))
    assert "| save ABILITY DC | end NAME | start NAME]" in shown


async def test_the_condition_dialog_says_did_you_mean_prone_as_prne_is_typed(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path, ScriptedDice([10]), people())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the condition dialog")
        assert "no SRD condition" not in screen_text(app)  # nothing typed, nothing said
        await pilot.press(*"prne")
        # "prne is no SRD condition: ... (did you mean prone?)", wrapped at 80 columns
        await until(pilot, lambda: "mean prone?)" in screen_text(app), "the slip told")
        assert all(not c.conditions for c in app.session.state.combatants)
