"""Magic Resistance (rulings.md D5-10): a creature whose *Traits* name it saves with
advantage against a save effect marked magical (a spell), its repeated save at the end of
its turns too; the save dialog's *Magical* (yes for a hero's effect), an action's
``magical`` part (a spell; a magic weapon's attack), the odds and the log count it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, fold_onto
from rules.registry import get_system
from rules.systems.d20.actions import action_text, parse_actions
from rules.systems.d20.encounter_odds import dialog_odds
from rules.systems.d20.events import D20Apply, D20Attack, D20Saved, D20SaveEffect
from rules.systems.d20.forms import preview
from rules.systems.d20.turn_edge_events import D20EndOfTurnSave, D20EndOfTurnSaved
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight, history_of, run, sheet
from tests.systems.d20.test_economy_d20 import started

SYSTEM = get_system("d20")
FIEND = card(hp="40/40", ac="15", saves="Wis +2", traits="Magic Resistance")


def hold(magical: bool = True, *targets: str) -> D20SaveEffect:
    return D20SaveEffect("c1", targets or ("c2",), "Hold Person", "wis", 13,
                         condition="paralyzed", repeat=True, magical=magical)  # fmt: skip


def versus(fiend: Any = FIEND) -> Any:
    """Sefi (c1, a hero) on her turn, the Fiend (c2, Wis +2) and a Goblin (c3, Wis +0)."""
    goblin = ("Goblin", "foes", FOE_SHEET)
    return started(fight(("Sefi", "party", HERO_SHEET), ("Fiend", "foes", fiend), goblin))


def test_a_spell_is_saved_against_with_advantage_and_the_log_says_so() -> None:
    state = versus()
    # the Fiend rolls two d20 and keeps the higher (5, 12: 14 saves); the Goblin one (9)
    _, events = run(state, hold(True, "c2", "c3"), 5, 12, 9)
    saved = events[0]
    assert isinstance(saved, D20Saved) and saved.magical
    fiend, goblin = saved.rolls
    assert (fiend.faces, fiend.mode, fiend.success) == ((5, 12), 1, True)
    assert (goblin.faces, goblin.mode) == ((9,), 0)
    said = SYSTEM.describe(state, saved).plain
    assert "Wisdom save DC 13 (magical)" in said
    assert "Fiend: 12 (5) +2 = 14 saves (advantage)" in said


def test_an_effect_not_magical_gives_no_advantage() -> None:
    _, events = run(versus(), hold(False), 5)
    assert events[0].rolls[0].mode == 0


def test_exhaustions_disadvantage_and_magic_resistance_cancel() -> None:
    _, events = run(versus(structs.replace(FIEND, exhaustion=3)), hold(True), 11)
    assert events[0].rolls[0].faces == (11,) and events[0].rolls[0].mode == 0


def test_the_save_repeated_at_the_end_of_its_turns_has_advantage_too() -> None:
    state, _ = run(versus(), hold(True), 3, 4)  # 4 + 2: fails, paralyzed
    state, _ = run(state, D20Apply())
    while SYSTEM.consequence_command(state) != D20EndOfTurnSave("c2", "paralyzed"):
        state = fold_onto(state, decide(state, NextTurn(), ScriptedDice([])))
    # Wis +2 against 13 with advantage: 1 - (10/20)^2
    assert SYSTEM.pending(state) == "Fiend: Wis save DC 13 ends paralyzed (75.0%)"
    state, events = run(state, D20EndOfTurnSave("c2", "paralyzed"), 2, 15)
    assert isinstance(events[0], D20EndOfTurnSaved) and events[0].faces == (2, 15)
    assert state.combatant("c2").condition("paralyzed") is None


def test_the_dialogs_odds_and_line_count_it() -> None:
    state = versus()
    odds = dialog_odds(state, hold(True))
    assert odds is not None and [t.p for t in odds.tiers] == [Fraction(1, 4), Fraction(3, 4)]
    plain = dialog_odds(state, hold(False))
    assert plain is not None and [t.p for t in plain.tiers] == [Fraction(1, 2), Fraction(1, 2)]
    assert "Fiend at advantage: Magic Resistance" in preview(state, "save", hold(True))
    assert "Fiend: advantage, were it magical" in preview(state, "save", hold(False))
    assert "Magic Resistance" not in preview(state, "save", hold(True, "c3"))


def test_the_save_dialog_marks_a_heros_effect_magical_and_a_monsters_not() -> None:
    state = versus()
    fields = {f.key: f.default for f in SYSTEM.action_form(state, "save", None)}
    assert fields["magical"] == "yes"  # Sefi's: a spell, most often
    command = SYSTEM.action_command(state, "save", {**fields, "targets": "c2"})
    assert isinstance(command, D20SaveEffect) and command.magical
    command = SYSTEM.action_command(state, "save", {**fields, "targets": "c2", "magical": "no"})
    assert not command.magical
    fiends_turn = started(fight(("Sefi", "party", HERO_SHEET), ("Fiend", "foes", FIEND)), "c2")
    assert {f.key: f.default for f in SYSTEM.action_form(fiends_turn, "save", None)}[
        "magical"
    ] == "no"


@pytest.mark.parametrize(
    "text",
    [
        "Hold Person: Wis 13 none, paralyzed, save ends, magical",
        "Flame Tongue: +6, 1d8+3 slashing + 2d6 fire, magical",
    ],
)
def test_an_action_is_typed_magical_and_written_back_the_same(text: str) -> None:
    (action,) = parse_actions(text)
    assert action.magical and action_text(action) == text


def test_a_stat_block_spell_is_magical_and_a_magic_weapon_passes_nonmagical_resistance() -> None:
    actions = (
        "Hold Person: Wis 13 none, paralyzed, save ends, magical; "
        "Flame Tongue: +6, 1d8+3 slashing, magical; Club: +6, 1d8+3 slashing"
    )
    caster = card("hero", hp="20/20", ac="14", saves="Wis +3", actions=actions)
    wight = structs.replace(FIEND, resistances=("nonmagical slashing",), hp=45, hp_max=45)
    state = started(fight(("Sefi", "party", caster), ("Wight", "foes", wight)))
    fields = {f.key: f.default for f in SYSTEM.action_form(state, "roll", None)}
    spell = SYSTEM.action_command(state, "roll", {**fields, "action": "Hold Person"})
    assert isinstance(spell, D20SaveEffect) and spell.magical
    _, events = run(state, spell, 5, 12)
    assert events[0].magical and events[0].rolls[0].mode == 1
    for name, taken in (("Flame Tongue", 8), ("Club", 4)):
        after, _ = run(state, D20Attack("c1", "c2", action=name), 15, 5)  # 5 + 3 slashing
        after, _ = run(after, D20Apply())
        assert 45 - sheet(after, "c2").hp == taken, name


async def test_by_keys_the_save_dialog_casts_a_spell_the_fiend_saves_at_advantage(
    tmp_path: Path,
) -> None:
    history = history_of(("Sefi", "party", HERO_SHEET), ("Fiend", "foes", FIEND))
    app = make_app(tmp_path, ScriptedDice([5, 12, 1, 1]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "down", "enter")  # the actions' second: a saving throw effect
        await until(pilot, lambda: "On a save" in screen_text(app), "the save effect dialog")
        await until(pilot, lambda: "at advantage" in screen_text(app), "the dialog's line")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the save")
        roll = app.session.state.last_roll
        assert isinstance(roll, D20Saved) and roll.rolls[0].faces == (5, 12)
        await until(pilot, lambda: "(advantage)" in screen_text(app), "the log")


# --- advantage against being charmed or frightened (rulings.md D5-14), Gnome Cunning ------------


def cult(traits: str) -> Any:
    """Sefi (c1) on her turn against a Cultist (c2, Wis +0) with ``traits``."""
    cultist = card(hp="9/9", ac="12", saves="Wis +0 Dex +1 Int +0", traits=traits)
    return started(fight(("Sefi", "party", HERO_SHEET), ("Cultist", "foes", cultist)))


def effect(ability: str, condition: str = "", magical: bool = False) -> D20SaveEffect:
    return D20SaveEffect("c1", ("c2",), "Effect", ability, 13, condition=condition,
                         magical=magical)  # fmt: skip


def test_dark_devotion_saves_with_advantage_against_fear_and_charm_only() -> None:
    state = cult("Dark Devotion")
    for condition, mode in (("frightened", 1), ("Charmed", 1), ("prone", 0), ("", 0)):
        faces = (4, 15) if mode else (4,)
        _, events = run(state, effect("wis", condition), *faces)
        assert events[0].rolls[0].mode == mode, condition
    said = preview(state, "save", effect("wis", "frightened"))
    assert "Cultist at advantage: Dark Devotion" in said


def test_brave_and_fey_ancestry_each_against_their_own_condition() -> None:
    for trait, condition, other in (("Brave", "frightened", "charmed"),
                                    ("Fey Ancestry", "charmed", "frightened")):  # fmt: skip
        state = cult(trait)
        assert run(state, effect("wis", condition), 4, 15)[1][0].rolls[0].mode == 1
        assert run(state, effect("wis", other), 4)[1][0].rolls[0].mode == 0


def test_a_brave_creatures_save_against_fear_repeated_at_its_turns_end_has_advantage() -> None:
    fear = D20SaveEffect("c1", ("c2",), "Fear", "wis", 30, condition="frightened", repeat=True)
    state, _ = run(cult("Brave"), fear, 3, 4)  # two dice: advantage, and both fail
    state, _ = run(state, D20Apply())
    while SYSTEM.consequence_command(state) != D20EndOfTurnSave("c2", "frightened"):
        state = fold_onto(state, decide(state, NextTurn(), ScriptedDice([])))
    _, events = run(state, D20EndOfTurnSave("c2", "frightened"), 2, 15)
    assert events[0].faces == (2, 15)


def test_gnome_cunning_is_advantage_on_int_wis_cha_saves_against_magic() -> None:
    state = cult("Gnome Cunning")
    assert run(state, effect("int", magical=True), 4, 15)[1][0].rolls[0].mode == 1
    assert run(state, effect("int"), 4)[1][0].rolls[0].mode == 0
    assert run(state, effect("dex", magical=True), 4)[1][0].rolls[0].mode == 0
    assert "Cultist: advantage, were it magical" in preview(state, "save", effect("wis"))
