"""Generic d20's damage types as a table types them (issue 42, item 8): a slip for one of
the SRD's thirteen ("slashng", "fyre") is refused with the type meant, in the rules, the
attack dialog, the sheet editor, the `:` line and the command line; a word far from all of
them is a type of the table's own; a damage kept in a save reads as it was kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from msgspec import structs

from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.systems.d20.damage_types import DAMAGE_TYPES, meant_type, type_note
from rules.systems.d20.events import D20SaveEffect
from rules.systems.d20.sheet import HERO, checked
from rules.systems.d20.table import split_damage
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.cli.support import tracker
from tests.screen import screen_text
from tests.systems.d20.support import (
    FOE_SHEET,
    HERO_SHEET,
    card,
    history_of,
    refused_by_library_add,
)
from tracker.screens.form import FormScreen

SLIPS = [("1d8+3 slashng", "slashing"), ("2d6 fyre", "fire"), ("1d10 lightening", "lightning")]


async def tab_to(pilot, field_id: str) -> None:  # type: ignore[no-untyped-def]
    """Tab to a dialog's field, wherever the fields before it put it."""
    for _ in range(40):
        focused = pilot.app.screen.focused
        if focused is not None and focused.id == field_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"no field {field_id}")


def test_the_srds_thirteen_damage_types_are_known():
    assert len(DAMAGE_TYPES) == 13 and all(meant_type(kind) == "" for kind in DAMAGE_TYPES)
    assert [type_note(kind) for kind in ("fire", "FIRE")] == ["", ""]


@pytest.mark.parametrize(("typed", "meant"), SLIPS)
def test_a_slip_for_an_srd_damage_type_is_refused_with_the_type_meant(typed, meant):
    with pytest.raises(Rejected, match=rf"did you mean {meant}\?") as refused:
        split_damage(typed)
    assert "\n" not in refused.value.message


@pytest.mark.parametrize("kind", ["holy", "void", "ice", "sonic", "frost"])
def test_a_type_far_from_every_srd_type_is_the_tables_own(kind):
    assert split_damage(f"1d6 {kind}") == ("1d6", kind)
    assert type_note(kind) == f"{kind} is no SRD damage type: a type of the table's own"


def test_a_slip_in_one_part_of_several_is_refused():
    with pytest.raises(Rejected, match=r"no damage type 'fyre': did you mean fire\?"):
        split_damage("1d8+3 slashing + 2d6 fyre")


def test_a_damage_kept_in_a_save_with_a_slip_still_reads():
    """A sheet from an older save entering another fight is not refused for a type it kept."""
    kept = structs.replace(HERO_SHEET, damage="1d8 slashing + 2d6 fyre", damage_type="")
    assert checked(kept) is kept


@pytest.mark.parametrize("field", ["resistances", "vulnerabilities", "immunities"])
def test_the_sheets_damage_type_fields_refuse_a_slip(field):
    label = field.capitalize()
    with pytest.raises(Rejected, match=rf"^{label}: no damage type 'fyre': did you mean fire\?"):
        card(HERO, **{field: "cold, fyre"})
    assert getattr(card(HERO, **{field: "cold, holy"}), field) == ("cold", "holy")


def test_the_sheets_damage_and_actions_fields_refuse_a_slip():
    with pytest.raises(Rejected, match=r"^Damage: no damage type 'slashng': did you mean"):
        card(HERO, damage="1d8+3 slashng")
    with pytest.raises(Rejected, match=r"no damage type 'piercng': did you mean piercing\?"):
        card(HERO, actions="Bite: +4 to hit, 1d6+2 piercng")


async def test_the_attack_dialog_by_keys_says_did_you_mean_and_rolls_nothing(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([10, 5]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "hit" in screen_text(app), "the attack dialog's odds")
        await tab_to(pilot, "field-damage")
        await pilot.press(*"1d6 fyre")
        await until(pilot, lambda: "did you mean fire?" in screen_text(app), "the slip told")
        await pilot.press("enter")
        await until(pilot, lambda: "did you mean fire?" in screen_text(app), "still told")
        assert isinstance(app.screen, FormScreen) and app.session.state.last_roll is None


async def test_the_sheet_editor_by_keys_refuses_a_resistance_slip(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([10]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the sheet editor")
        await tab_to(pilot, "field-sheet-resistances")
        await pilot.press(*"fyre", "enter")
        await until(pilot, lambda: "did you mean fire?" in screen_text(app), "the slip told")
        assert isinstance(app.screen, FormScreen)
        assert all(c.sheet.resistances == () for c in app.session.state.combatants)


async def test_the_attack_line_says_did_you_mean(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([10, 5]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, 'attack orla gob +damage "1d6 slashng"')
        await until(pilot, lambda: "did you mean slashing?" in screen_text(app), "the slip")
        assert app.session.state.last_roll is None


@pytest.mark.parametrize("command", ["roll", "odds"])
def test_tracker_roll_and_odds_refuse_a_slip_in_one_line(command):
    done = tracker(command, "d20", "--attack", "5", "--ac", "12", "--damage", "2d6 fyre")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "did you mean fire?" in done.stderr and "Traceback" not in done.stderr


def test_library_add_names_the_line_of_a_slip(tmp_path: Path) -> None:
    said = refused_by_library_add(
        tmp_path,
        "imp.toml",
        'system = "d20"\nname = "Imp"\n\n[sheet]\nattack_bonus = 5\ndamage = "1d4 piercing"\n'
        'resistances = "cold, fyre"\n',
    )
    assert "imp.toml line 7: Resistances: no damage type 'fyre': did you mean fire?" in said


def test_a_save_effects_damage_refuses_a_slip():
    state = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET)).state
    fireball = D20SaveEffect("c1", ("c2",), "Fireball", "dex", 15, damage="8d6 fyre")
    with pytest.raises(Rejected, match=r"did you mean fire\?"):
        decide(state, fireball, ScriptedDice([10] * 9))


async def test_a_sheet_given_a_type_of_the_tables_own_says_so_in_one_line(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([10]), history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, FormScreen), "the sheet editor")
        await tab_to(pilot, "field-sheet-resistances")
        await pilot.press(*"holy", "enter")
        note = "holy is no SRD damage type: a type of the table's own"
        await until(pilot, lambda: note in screen_text(app), "the note")
        assert ("holy",) in [c.sheet.resistances for c in app.session.state.combatants]
