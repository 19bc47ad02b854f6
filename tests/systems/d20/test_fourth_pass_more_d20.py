"""Generic d20's turn as a 5e table plays it, more of issue 40 (D4-17, D4-03, D4-05, D4-04):
each with scripted dice as rulings.md reads the SRD 5.1, its odds against an independent
count, and the dialogs by keys at 80x24."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules.commands import AddCondition
from rules.dice import ScriptedDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.errors import Rejected
from rules.registry import get_system
from rules.systems.d20.encounter_odds import dialog_odds, last_odds
from rules.systems.d20.events import (
    D20Apply,
    D20Attack,
    D20ConcentrationSave,
    D20DeathSave,
    D20Heal,
    D20Rest,
    D20SaveEffect,
    D20SetExhaustion,
    D20Stabilise,
)
from rules.systems.d20.sheet import life_word
from rules.systems.d20.stabilise import check_mode
from rules.systems.d20.standing import attack_mode, save_mode
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, duel, fight, history_of, run, sheet
from tests.systems.d20.test_odds_d20 import every_path, tally

SYSTEM = get_system("d20")


def with_condition(state: Encounter, cid: str, name: str) -> Encounter:
    return fold_onto(state, decide(state, AddCondition(cid, name), ScriptedDice([])))


# --- D4-17: cover -------------------------------------------------------------------------------


@pytest.mark.parametrize(("cover", "outcome", "shown"), [
    (0, "hit", "vs AC 13: hit"),
    (2, "miss", "vs AC 15 (half cover, +2): miss"),
    (5, "miss", "vs AC 18 (three-quarters cover, +5): miss"),
])  # fmt: skip
def test_cover_adds_2_or_5_to_the_targets_armour_class(cover, outcome, shown):
    state, events = run(duel(), D20Attack("c1", "c2", cover=cover), 9, *([3] if cover == 0 else []))
    (roll,) = events  # Orla's 9 + 5 = 14 against the goblin's AC 13
    assert roll.outcome == outcome
    assert shown in SYSTEM.describe(state, roll).plain


@pytest.mark.parametrize(("ability", "cover", "success"), [
    ("dex", 0, False), ("dex", 2, True), ("dex", 5, True), ("con", 5, False),
])  # fmt: skip
def test_cover_adds_to_a_dexterity_save_and_no_other(ability, cover, success):
    # the goblin: Dex +2, Con +1; a 12 against DC 15 fails bare, saves behind half cover
    effect = D20SaveEffect("c1", ("c2",), "Fireball", ability, 15 - (ability == "con"), "",
                           cover=cover)  # fmt: skip
    state, events = run(duel(), effect, 11)
    assert events[0].rolls[0].success is success
    words = {2: "(half cover, +2)", 5: "(three-quarters cover, +5)"}.get(cover, "")
    if words and ability == "dex":
        assert words in SYSTEM.describe(state, events[0]).plain


@pytest.mark.parametrize("cover", [0, 2, 5])
@pytest.mark.parametrize("mode", [0, 1])
def test_the_attack_odds_behind_cover_are_every_d20_the_rules_roll(cover, mode):
    state = duel()
    command = D20Attack("c1", "c2", mode=mode, cover=cover)
    counted = tally(every_path(lambda dice: run_outcome(state, command, dice)))
    odds = dialog_odds(state, command)
    assert odds is not None
    assert {t.label: t.p for t in odds.tiers} == {
        t.label: counted.get(t.label, Fraction(0)) for t in odds.tiers
    }
    state, _ = run(state, command, *([1] * (1 + abs(mode))))  # a miss: the last roll's odds too
    after = last_odds(state)
    assert after is not None and [t.p for t in after.tiers] == [t.p for t in odds.tiers]


def run_outcome(state: Encounter, command: D20Attack, dice: Any) -> str:
    return str(decide(state, command, dice)[0].outcome)


@pytest.mark.parametrize(("ability", "cover"), [("dex", 0), ("dex", 2), ("dex", 5), ("con", 5)])
def test_the_save_odds_behind_cover_are_every_d20_the_rules_roll(ability, cover):
    state = duel()
    effect = D20SaveEffect("c1", ("c2",), "Fireball", ability, 15, "", cover=cover)
    counted = tally(every_path(lambda dice: decide(state, effect, dice)[0].rolls[0].success))
    odds = dialog_odds(state, effect)
    assert odds is not None
    saved = next(t.p for t in odds.tiers if t.label != odds.tiers[0].label)
    assert saved == counted.get(True, Fraction(0))


async def test_the_attack_dialog_by_keys_takes_three_quarters_cover(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([14, 3]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "hit" in screen_text(app), "the attack dialog's odds")
        await pilot.press(*["tab"] * 4, "right", "right")  # Cover: three-quarters
        # +5 against AC 18: 13 to 19 hit (35%), not 8 to 19 (60%)
        await until(pilot, lambda: "three-quarters" in screen_text(app), "the cover chosen")
        await until(pilot, lambda: "35.0%" in screen_text(app), "the odds behind cover")
        assert "AC 18 (three-quarters cover)" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the attack")
        assert app.session.state.last_roll.ac == 18  # 14 + 5 = 19: a hit behind cover
        assert app.session.state.last_roll.outcome == "hit"


async def test_the_save_effect_dialog_by_keys_takes_half_cover(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([11, 3, 3]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "down", "enter")  # the actions' second: a saving throw effect
        await until(pilot, lambda: "On a save" in screen_text(app), "the save effect dialog")
        await pilot.press(*["tab"] * 8, "right")  # from the effect's name to Cover: half
        await until(pilot, lambda: "Half cover" in screen_text(app), "the cover chosen")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the save")
        roll = app.session.state.last_roll
        assert roll.cover == 2 and roll.rolls[0].total == 11 + 2 + 2
        assert roll.rolls[0].success  # 15 against DC 13


# --- D4-03: stabilising a dying creature --------------------------------------------------------


def tended() -> Encounter:
    """The goblin (c1) has dropped Orla (c2); Sefi (c3) stands by her."""
    weak = structs.replace(HERO_SHEET, hp=3)
    state = fight(("Goblin", "foes", FOE_SHEET), ("Orla", "party", weak),
                  ("Sefi", "party", HERO_SHEET))  # fmt: skip
    state, _ = run(state, D20Attack("c1", "c2"), 18, 1)  # 3 piercing
    state, _ = run(state, D20Apply())
    assert life_word(sheet(state, "c2")) == "dying"
    return state


@pytest.mark.parametrize(("face", "stable"), [(8, True), (7, False)])
def test_a_medicine_check_of_10_makes_a_dying_hero_stable(face, stable):
    state = fold_onto(tended(), decide(tended(), D20DeathSave("c2"), ScriptedDice([5])))
    state, events = run(state, D20Stabilise("c3", "c2", bonus=2), face)
    orla = sheet(state, "c2")
    assert life_word(orla) == ("stable" if stable else "dying")
    assert (orla.death_failures == 0) is stable  # stable: both counts back at 0
    line = SYSTEM.describe(state, events[0]).plain
    assert f"Sefi tends Orla: Wisdom (Medicine) {face} +2 = {face + 2} vs DC 10: " in line
    assert line.endswith("Orla is stable" if stable else "fails: Orla is still dying")
    if stable:
        assert SYSTEM.sheet_stats(sheet(state, "c2"))[3] == "stable"
        assert SYSTEM.pending(state) == ""  # no death save owed by a stable hero


def test_spare_the_dying_makes_a_dying_hero_stable_without_a_roll():
    state, events = run(tended(), D20Stabilise("c3", "c2", spell=True))
    assert life_word(sheet(state, "c2")) == "stable"
    assert (
        "Sefi casts spare the dying on Orla: Orla is stable"
        in SYSTEM.describe(state, events[0]).plain
    )


def test_a_poisoned_medic_makes_the_check_with_disadvantage():
    state = with_condition(tended(), "c3", "poisoned")
    state, events = run(state, D20Stabilise("c3", "c2"), 15, 4)
    assert events[0].mode == -1 and events[0].total == 4 and not events[0].success


@pytest.mark.parametrize(("medic", "target", "why"), [
    ("c3", "c1", "Goblin is not dying"),
    ("c2", "c2", "Orla cannot act: dying"),
])  # fmt: skip
def test_stabilising_is_refused_in_one_line_when_it_cannot_be(medic, target, why):
    with pytest.raises(Rejected, match=why):
        decide(tended(), D20Stabilise(medic, target), ScriptedDice([10]))


@pytest.mark.parametrize(("bonus", "condition"), [(0, ""), (2, ""), (-4, ""), (12, ""),
                                                  (3, "poisoned"), (0, "frightened")])  # fmt: skip
def test_the_stabilise_odds_are_every_d20_the_rules_roll(bonus, condition):
    state = with_condition(tended(), "c3", condition) if condition else tended()
    command = D20Stabilise("c3", "c2", bonus=bonus)

    def stable(dice: Any) -> bool:
        return life_word(sheet(fold_onto(state, decide(state, command, dice)), "c2")) == "stable"

    counted = tally(every_path(stable))
    odds = dialog_odds(state, command)
    assert odds is not None and odds.whose == "Sefi's Medicine check on Orla"
    assert {t.label: t.p for t in odds.tiers} == {
        "stable": counted.get(True, Fraction(0)),
        "fails": counted.get(False, Fraction(0)),
    }
    spell = dialog_odds(state, D20Stabilise("c3", "c2", spell=True))
    assert spell is not None and [t.p for t in spell.tiers] == [0, 1]


async def test_the_stabilise_dialog_by_keys_makes_a_dying_hero_stable_shown_in_its_row(
    tmp_path: Path,
) -> None:
    weak = structs.replace(HERO_SHEET, hp=0, hp_max=20)
    history = history_of(("Sefi", "party", HERO_SHEET), ("Orla", "party", weak),
                         ("Goblin", "foes", FOE_SHEET))  # fmt: skip
    app = make_app(tmp_path, ScriptedDice([9]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        place = [a.id for a in SYSTEM.actions(history.state)].index("stabilise")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "Medicine bonus" in screen_text(app), "the dialog")
        await pilot.press("1")  # the bonus, the first field typed into, focused: +1
        # d20 + 1 against DC 10: 9 to 20 succeed, 60%
        await until(pilot, lambda: "60.0%" in screen_text(app), "the odds with the bonus")
        assert "Sefi's Medicine check on Orla" in screen_text(app)
        await pilot.press("enter")
        await until(pilot, lambda: life_word(sheet(app.session.state, "c2")) == "stable", "it")
        row = next(line for line in screen_text(app).splitlines() if "Orla" in line)
        assert "stable" in row


# --- D4-05: a hit point maximum lowered by the damage taken -------------------------------------


def life_drain(state: Encounter, amount: int) -> tuple[Encounter, list[Any]]:
    """The goblin (c2) drains Orla (c1): a Constitution save she fails, ``amount`` necrotic."""
    effect = D20SaveEffect("c2", ("c1",), "Life Drain", "con", 30, f"{amount} necrotic",
                           half=False, drain=True)  # fmt: skip
    state, _ = run(state, effect, 2)
    return state, decide(state, D20Apply(), ScriptedDice([]))


def test_a_drain_lowers_the_maximum_by_the_damage_taken():
    state, events = life_drain(duel(), 7)
    line = SYSTEM.describe(state, events[0]).plain
    assert "Orla takes 7 necrotic: 20 → 13 HP, maximum 20 → 13" in line
    state = fold_onto(state, events)
    orla = sheet(state, "c1")
    assert (orla.hp, orla.hp_max, orla.hp_max_lost) == (13, 13, 7)
    state, _ = run(state, D20Heal("c1", "c1", "10"))  # healing stops at the lowered maximum
    assert sheet(state, "c1").hp == 13


def test_a_maximum_drained_to_0_kills_even_a_hero():
    state, events = life_drain(duel(), 12)  # 8/8 left: not massive damage next
    state = fold_onto(state, events)
    state, events = life_drain(state, 8)
    assert "dead: its hit point maximum is 0" in SYSTEM.describe(state, events[0]).plain
    assert SYSTEM.alerts(state, events[0]) == ["Orla is dead: its hit point maximum is 0"]
    state = fold_onto(state, events)
    assert sheet(state, "c1").dead and sheet(state, "c1").hp_max == 0


def test_the_same_damage_without_a_drain_leaves_the_hero_dying():
    state = fold_onto(*life_drain(duel(), 12))
    claw = D20SaveEffect("c2", ("c1",), "Claw", "con", 30, "8", half=False)
    state, _ = run(state, claw, 2)
    state, _ = run(state, D20Apply())
    assert life_word(sheet(state, "c1")) == "dying" and sheet(state, "c1").hp_max == 8


def test_an_attacks_drain_lowers_the_maximum_when_it_is_dealt():
    state, _ = run(duel(), D20Attack("c2", "c1", drain=True), 15, 4)  # 4 + 2 = 6 piercing
    assert state.last_roll.drain
    state, _ = run(state, D20Apply())
    assert (sheet(state, "c1").hp, sheet(state, "c1").hp_max) == (14, 14)


@pytest.mark.parametrize("hp", [6, 9])
def test_the_odds_of_a_draining_attack_are_every_path_the_rules_play(hp):
    hero = structs.replace(HERO_SHEET, hp=hp)
    state = duel(hero=hero)
    command = D20Attack("c2", "c1", drain=True, apply=True)

    def down(dice: Any) -> bool:
        return sheet(fold_onto(state, decide(state, command, dice)), "c1").hp == 0

    counted = tally(every_path(down))
    odds = dialog_odds(state, D20Attack("c2", "c1", drain=True))
    assert odds is not None and odds.extra["drop"] == counted.get(True, Fraction(0))


async def test_the_attack_dialog_by_keys_lowers_the_maximum(tmp_path: Path) -> None:
    history = history_of(("Goblin", "foes", FOE_SHEET), ("Orla", "party", HERO_SHEET))
    app = make_app(tmp_path, ScriptedDice([15, 4]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "Lowers max HP" in screen_text(app), "the attack dialog")
        await pilot.press(*["tab"] * 5, "right", "enter")  # Lowers max HP: Yes
        await until(pilot, lambda: app.session.state.last_roll is not None, "the attack")
        await pilot.press("d")
        await until(pilot, lambda: sheet(app.session.state, "c2").hp_max == 14, "the drain")
        row = next(line for line in screen_text(app).splitlines() if "Orla" in line)
        assert "14/14" in row


# --- D4-04: exhaustion's levels, a long rest ----------------------------------------------------


def tired(state: Encounter, cid: str, level: int) -> Encounter:
    return run(state, D20SetExhaustion(cid, level))[0]


@pytest.mark.parametrize("level", range(7))
def test_each_exhaustion_level_does_what_it_and_those_below_it_do(level):
    state = tired(tended(), "c3", level) if level else tended()  # Sefi, 20/20
    sefi, goblin = state.combatant("c3"), state.combatant("c1")
    assert check_mode(sefi)[0] == (-1 if level >= 1 else 0)  # ability checks
    assert attack_mode(sefi, goblin, 0)[0] == (-1 if level >= 3 else 0)
    assert save_mode(sefi, "wis")[0] == (-1 if level >= 3 else 0)
    assert sheet(state, "c3").hp_max == (10 if level >= 4 else 20)
    assert sheet(state, "c3").dead is (level == 6)
    if level:
        assert SYSTEM.badges(state, sefi)[-1] == f"exhaustion {level}"


def test_exhaustion_6_kills_with_a_line_that_says_so():
    state = tended()
    events = decide(state, D20SetExhaustion("c3", 6), ScriptedDice([]))
    assert SYSTEM.alerts(state, events[0]) == ["Sefi is dead: exhaustion 6"]
    assert "Sefi: exhaustion 0 → 6: death" in SYSTEM.describe(state, events[0]).plain


@pytest.mark.parametrize("level", [2, 3])
def test_the_odds_of_an_exhausted_attack_and_save_are_every_d20_the_rules_roll(level):
    state = tired(duel(), "c1", level)
    attack = D20Attack("c1", "c2")
    counted = tally(every_path(lambda dice: run_outcome(state, attack, dice)))
    odds = dialog_odds(state, attack)
    assert odds is not None
    assert {t.label: t.p for t in odds.tiers} == {
        t.label: counted.get(t.label, Fraction(0)) for t in odds.tiers
    }
    effect = D20SaveEffect("c2", ("c1",), "Hold", "con", 12, "")
    saved = tally(every_path(lambda dice: decide(state, effect, dice)[0].rolls[0].success))
    save = dialog_odds(state, effect)
    assert save is not None and save.tiers[1].p == saved.get(True, Fraction(0))


def test_an_exhausted_concentration_save_has_disadvantage_and_its_odds():
    state = tired(duel(hero=structs.replace(HERO_SHEET, concentrating="Bless")), "c1", 3)
    state, _ = run(state, D20SaveEffect("c2", ("c1",), "Bite", "dex", 30, "4", half=False), 2, 2)
    state, _ = run(state, D20Apply())
    save = D20ConcentrationSave("c1")
    counted = tally(every_path(lambda dice: decide(state, save, dice)[0].success))
    state, events = run(state, save, 15, 5)  # keeps the 5: 5 + 2 < 10
    assert events[0].faces == (15, 5) and not events[0].success
    after = last_odds(state)
    assert after is not None and after.tiers[1].p == counted[True] == Fraction(13 * 13, 400)


def test_a_long_rest_takes_one_level_off_and_gives_back_the_maximum():
    state = fold_onto(*life_drain(duel(), 4))  # Orla 16/16, 4 drained
    state = tired(state, "c1", 4)  # 8/8
    assert (sheet(state, "c1").hp, sheet(state, "c1").hp_max) == (8, 8)
    state, events = run(state, D20Rest(("c1", "c2")))
    orla = sheet(state, "c1")
    assert (orla.exhaustion, orla.hp, orla.hp_max, orla.hp_max_lost) == (3, 20, 20, 0)
    before = tired(fold_onto(*life_drain(duel(), 4)), "c1", 4)
    line = SYSTEM.describe(before, events[0]).plain
    assert "Orla: HP 8 → 20, maximum 8 → 20, exhaustion 4 → 3" in line


def test_a_hero_at_0_hit_points_gains_nothing_from_a_long_rest():
    state = tired(tended(), "c2", 2)
    state, _ = run(state, D20Rest(("c2",)))
    assert sheet(state, "c2").exhaustion == 2 and sheet(state, "c2").hp == 0


async def test_rest_long_on_the_line_takes_a_level_off(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    history.commit(decide(history.state, D20SetExhaustion("c1", 2), ScriptedDice([])))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "exhaustion 2" in screen_text(app), "the badge")
        await pilot.press("colon", *"rest long", "enter")
        await until(pilot, lambda: sheet(app.session.state, "c1").exhaustion == 1, "the rest")
        assert "exhaustion 1" in screen_text(app)


async def test_the_exhaustion_dialog_by_keys_sets_a_level_and_its_effect(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        place = [a.id for a in SYSTEM.actions(history.state)].index("exhaustion")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "disadvantage on ability checks" in screen_text(app), "it")
        await pilot.press("tab", "right", "right", "right", "enter")  # 1 -> 4
        await until(pilot, lambda: sheet(app.session.state, "c1").exhaustion == 4, "the level")
        row = next(line for line in screen_text(app).splitlines() if "party" in line)
        assert "10/10" in row  # the maximum halved
