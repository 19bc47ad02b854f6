"""A dialog's defaults follow whoever is chosen to act (``Dialogs.refilled``): on Bram's turn,
his action spent, the Imp's attack was offered as Bram's bonus action, at the Imp itself, and
`:attack imp bram` was refused ("A bonus action is taken on its own turn"); an effect whose
Source was changed to a hero kept the monster's *Magical* no, so Magic Resistance was lost."""

from __future__ import annotations

from pathlib import Path

from msgspec import structs

from rules.dice import ScriptedDice
from rules.systems.d20.events import ACTION, BONUS, D20Attack
from rules.systems.d20.forms import refilled
from rules.systems.d20.system import SYSTEM
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight, history_of, run
from tracker.screens.form import FormScreen

BRAM = structs.replace(HERO_SHEET, bonus_attack=True)  # a second attack as a bonus action
IMP = card(hp="10/10", ac="13", attack_bonus="5", damage="1d4+3 piercing", saves="Wis +1",
           traits="Magic Resistance")  # fmt: skip


def spent() -> list[tuple[str, str, object]]:
    """Bram (c1, acting), his action spent on a miss; the Imp (c2), a Goblin (c3)."""
    return [("Bram", "party", BRAM), ("Imp", "foes", IMP), ("Goblin", "foes", FOE_SHEET)]


def test_the_attack_dialog_refilled_for_the_imp_is_the_imps() -> None:
    state = fight(*spent())  # type: ignore[arg-type]
    state, _ = run(state, D20Attack("c1", "c2"), 2)
    proposed = {f.key: f.default for f in SYSTEM.action_form(state, "roll", None)}
    assert proposed["usage"] == BONUS and proposed["attacker"] == "c1"
    again = refilled(state, "roll", {**proposed, "attacker": "c2"}, "attacker")
    assert again is not None
    found = {f.key: f.default for f in again}
    assert (found["usage"], found["target"]) == (ACTION, "c1")
    assert refilled(state, "roll", proposed, "target") is None  # nothing follows a target


async def test_by_keys_the_imps_attack_on_brams_turn(tmp_path: Path) -> None:
    history = history_of(*spent())  # type: ignore[arg-type]
    # Bram's miss; the Imp's 15 hits, 1d4: 2
    app = make_app(tmp_path, ScriptedDice([2, 15, 2]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"attack bram imp", "enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "Bram's miss")
        await pilot.press("r")
        await until(pilot, lambda: "Bonus action" in screen_text(app), "Bram's bonus action")
        await pilot.press("right")  # the Attacker: the Imp
        await until(pilot, lambda: "◀ Imp ▶" in screen_text(app), "the Imp attacks")
        await until(pilot, lambda: "◀ Action ▶" in screen_text(app), "as its action")
        assert "◀ Bram ▶" in screen_text(app)  # its target: its foe, not itself
        await pilot.press("escape")
        await pilot.press("colon", *"attack imp bram", "enter")
        await until(pilot, lambda: app.session.state.last_roll.attacker_id == "c2", "it rolls")


async def test_by_keys_an_effect_of_a_heros_is_magical_when_chosen_as_its_source(
    tmp_path: Path,
) -> None:
    history = history_of(("Imp", "foes", IMP), ("Bram", "party", BRAM))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "down", "enter")  # the actions' second: a saving throw effect
        await until(pilot, lambda: "◀ Imp ▶" in screen_text(app), "the Imp's effect")
        form = app.screen
        assert isinstance(form, FormScreen) and form.values()["magical"] == "no"  # a monster's
        for _ in range(3):  # back from the first field typed in (Effect) to the Source
            if form.focused is not None and form.focused.id == "field-source":
                break
            await pilot.press("shift+tab")
        await pilot.press("right")  # the Source: Bram
        await until(pilot, lambda: "◀ Bram ▶" in screen_text(app), "Bram's effect")
        assert form.values()["magical"] == "yes"  # a hero's: magical
        assert form.values()["targets"] == "side:foes"  # at his foes, no longer his own side
        await until(pilot, lambda: "Magic Resistance" in screen_text(app), "the Imp's advantage")
