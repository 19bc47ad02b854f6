"""Generic d20's rules a 5e table would dispute (issue 40, D4-07 to D4-15 of them), each with
scripted dice as rulings.md reads the SRD 5.1, its odds against an independent count, and
the dialogs by keys at 80x24."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from msgspec import structs

from rules.commands import AddCondition, NextTurn
from rules.dice import ScriptedDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.events import ConditionAdded
from rules.registry import get_system
from rules.systems.d20.encounter_odds import dialog_odds
from rules.systems.d20.events import D20Apply, D20Attack, D20DeathSave, D20SaveEffect
from rules.systems.d20.odds import attack_odds
from rules.systems.d20.wounds import take_damage
from tests.app.support import make_app, until
from tests.app.test_app_end_of_fight import notices
from tests.screen import screen_text
from tests.systems.d20.support import (
    FOE_SHEET,
    HERO_SHEET,
    duel,
    fight,
    history_of,
    run,
    sheet,
)
from tests.systems.d20.test_d20 import dying_hero
from tests.systems.d20.test_odds_d20 import _After, _Probe, death_ends_counted, every_path, tally

SYSTEM = get_system("d20")


def with_condition(state: Encounter, cid: str, name: str) -> Encounter:
    return fold_onto(state, decide(state, AddCondition(cid, name), ScriptedDice([])))


def saves_in_rounds(state: Encounter, *faces: int) -> Encounter:
    """Orla (c2) rolls a death save with each face, one a round from round 1."""
    for round_, face in enumerate(faces, start=1):
        state = state.update(round=round_)
        state, _ = run(state, D20DeathSave("c2"), face)
    return state


def pebble(state: Encounter, amount: str = "1") -> Encounter:
    """The goblin (c1) deals ``amount`` to Orla (c2) through a Dexterity save she fails."""
    state, _ = run(state, D20SaveEffect("c1", ("c2",), "Pebble", "dex", 30, amount), 2)
    state, _ = run(state, D20Apply())
    return state


# --- D4-07: a stable hero's death save counts are back at 0 --------------------------------------


def test_a_stable_hero_has_both_death_save_counts_back_at_0():
    state = saves_in_rounds(dying_hero(), 5, 5, 15, 15, 15)  # fail, fail, succeed x3
    orla = sheet(state, "c2")
    assert orla.stable and (orla.death_successes, orla.death_failures) == (0, 0)
    line = SYSTEM.describe(state, state.last_roll).plain  # the roll's own tally is kept
    assert "(3 successes, 2 failures)" in line and "Orla is stable" in line


def test_a_stable_hero_hit_again_is_dying_with_one_failure_not_dead():
    state = pebble(saves_in_rounds(dying_hero(), 5, 5, 15, 15, 15))
    orla = sheet(state, "c2")
    assert not orla.dead and not orla.stable
    assert (orla.death_successes, orla.death_failures) == (0, 1)
    # its next failed save does not stabilise it: the three successes are gone
    state = saves_in_rounds(state, 5)
    assert not sheet(state, "c2").stable and sheet(state, "c2").death_failures == 2


def test_a_stable_hero_from_an_older_save_hit_again_starts_from_0():
    kept = structs.replace(
        HERO_SHEET, hp=0, stable=True, death_successes=3, death_failures=2
    )  # as the tracker kept it before this fix
    after = take_damage(kept, 1)
    assert (after.death_successes, after.death_failures, after.dead) == (0, 1, False)


def test_a_stable_hero_hit_agains_death_odds_are_every_path_from_one_failure():
    state = pebble(saves_in_rounds(dying_hero(), 5, 5, 15, 15, 15))
    state = state.update(round=7)
    odds = dialog_odds(state, D20DeathSave("c2"))
    assert odds is not None
    ends = odds.extra["ends"]
    counted = death_ends_counted(state)
    assert (ends["revived"], ends["stable"], ends["dead"]) == counted
    assert counted[2] < Fraction(1)  # the old counts (3/2, then one more failure) were death


# --- D4-09: unconscious includes prone ----------------------------------------------------------


def archer_and_dying_hero() -> Encounter:
    """A goblin with a shortbow (c1) and Orla dying (c2), on Orla's turn."""
    state = dying_hero()
    archer = structs.replace(state.combatant("c1"), sheet=structs.replace(FOE_SHEET, ranged=True))
    return state.replace_combatant(archer)


def test_a_ranged_attack_on_an_unconscious_hero_is_a_plain_roll():
    _, events = run(archer_and_dying_hero(), D20Attack("c1", "c2"), 15, 3)  # one d20
    (roll,) = events
    assert roll.mode == 0 and roll.faces == (15,) and roll.outcome == "hit"  # no auto-crit
    assert roll.reasons == ("+Orla unconscious", "-Orla prone (unconscious)")


def test_a_melee_attack_on_an_unconscious_hero_has_advantage_and_a_hit_crits():
    _, events = run(dying_hero(), D20Attack("c1", "c2"), 3, 11, 1, 1)
    (roll,) = events
    assert roll.mode == 1 and roll.outcome == "critical"
    assert "+Orla prone (unconscious)" in roll.reasons


@pytest.mark.parametrize("ranged", [True, False])
def test_an_attack_on_an_unconscious_heros_odds_are_every_d20_the_rules_roll(ranged):
    goblin = structs.replace(FOE_SHEET, ranged=ranged, damage="2")
    state = dying_hero()
    state = state.replace_combatant(structs.replace(state.combatant("c1"), sheet=goblin))
    counted = tally(every_path(lambda dice: decide(state, D20Attack("c1", "c2"), dice)[0].outcome))
    odds = dialog_odds(state, D20Attack("c1", "c2"))
    assert odds is not None
    assert {t.label: t.p for t in odds.tiers} == {
        t.label: counted.get(t.label, Fraction(0)) for t in odds.tiers
    }
    plain = attack_odds(4, 15, 1 if not ranged else 0, auto_crit=not ranged)
    assert [t.p for t in odds.tiers] == [t.p for t in plain.tiers]


async def test_the_attack_dialog_on_a_dying_hero_by_keys_gives_a_ranged_roll_plain_odds(
    tmp_path: Path,
) -> None:
    archer = structs.replace(FOE_SHEET, ranged=True)
    weak = structs.replace(HERO_SHEET, hp=0, hp_max=20)
    history = history_of(("Goblin", "foes", archer), ("Orla", "party", weak))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "hit" in screen_text(app), "the attack dialog's odds")
        shown = screen_text(app)
        # 4 + d20 against AC 15: 11 to 19 hit, 20 crits; with advantage a miss is 25%
        assert "advantage and" in shown and "disadvantage cancel" in shown
        assert "50.0%" in shown and "45.0%" in shown and " 5.0%" in shown


# --- D4-11 and D4-14: resistance then vulnerability; petrified -----------------------------------


def test_resistance_then_vulnerability_to_one_type_halves_then_doubles():
    foe = structs.replace(
        FOE_SHEET, hp=40, hp_max=40, resistances=("fire",), vulnerabilities=("fire",)
    )
    state = fight(("Orla", "party", HERO_SHEET), ("Goblin", "foes", foe))
    state, _ = run(state, D20SaveEffect("c1", ("c2",), "Firebolt", "dex", 30, "25 fire"), 2)
    state, events = run(state, D20Apply())
    assert sheet(state, "c2").hp == 40 - 24  # 25 -> 12 -> 24, not 25
    assert (
        "takes 24 fire (resistant then vulnerable, of 25)"
        in SYSTEM.describe(state, events[0]).plain
    )


@pytest.mark.parametrize(
    ("kind", "fields", "dealt"),
    [
        ("slashing", {}, 4),
        ("", {}, 4),  # damage with no type: all damage
        ("poison", {}, 0),
        ("slashing", {"vulnerabilities": ("slashing",)}, 8),  # 8 -> 4 -> 8
        ("fire", {"immunities": ("fire",)}, 0),
    ],
)
def test_a_petrified_target_resists_all_damage_and_is_immune_to_poison(kind, fields, dealt):
    statue = structs.replace(FOE_SHEET, hp=30, hp_max=30, **fields)
    state = with_condition(duel(foe=statue), "c2", "petrified")
    effect = D20SaveEffect("c1", ("c2",), "Blast", "str", 10, f"8 {kind}".strip())
    state, _ = run(state, effect, 20)  # petrified: fails Strength saves outright
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").hp == 30 - dealt


def dealt_by_every_path(state: Encounter) -> tuple[dict[int, Fraction], Fraction]:
    """Orla's (c1) attack on the goblin (c2), played by the rules: the damage a hit deals,
    each amount's chance, and the chance the goblin drops. The d20s that give the same
    outcome are merged before every face of the damage is played."""
    outcomes: dict[str, tuple[tuple[int, ...], Fraction]] = {}
    mode = decide(state, D20Attack("c1", "c2"), _Probe([20, 20]))[0].mode
    for faces in itertools.product(range(1, 21), repeat=1 if mode == 0 else 2):
        outcome = decide(state, D20Attack("c1", "c2"), _After(faces, _Probe([])))[0].outcome
        first, chance = outcomes.get(outcome, (faces, Fraction(0)))
        outcomes[outcome] = (first, chance + Fraction(1, 20 ** len(faces)))

    def play(dice: Any) -> tuple[int, bool]:
        after = fold_onto(state, decide(state, D20Attack("c1", "c2", apply=True), dice))
        goblin = sheet(after, "c2")
        return sheet(state, "c2").hp - goblin.hp, goblin.hp == 0

    on_hit: dict[int, Fraction] = {}
    drop = Fraction(0)
    for outcome, (faces, chance) in outcomes.items():
        for (dealt, dropped), p in every_path(lambda dice, f=faces: play(_After(f, dice))):
            if outcome == "hit":
                on_hit[dealt] = on_hit.get(dealt, Fraction(0)) + p
            drop += chance * p * dropped
    return on_hit, drop


@pytest.mark.parametrize(
    ("fields", "condition"),
    [
        ({"resistances": ("slashing",), "vulnerabilities": ("slashing",)}, ""),
        ({}, "petrified"),
        ({"vulnerabilities": ("slashing",)}, "Petrified"),
    ],
)
def test_the_damage_odds_follow_resistance_vulnerability_and_petrified(fields, condition):
    foe = structs.replace(FOE_SHEET, hp=10, hp_max=10, **fields)
    state = duel(foe=foe)
    if condition:
        state = with_condition(state, "c2", condition)
    on_hit, drop = dealt_by_every_path(state)
    odds = dialog_odds(state, D20Attack("c1", "c2"))
    assert odds is not None
    assert {int(v): p for v, p in odds.extra["damage_on_hit"].items()} == on_hit
    assert odds.extra["drop"] == drop


@pytest.mark.parametrize(
    ("fields", "condition", "mean"),
    [
        ({"resistances": ("slashing",), "vulnerabilities": ("slashing",)}, "", "7"),
        ({}, "Petrified", "3.50"),
    ],
)
async def test_the_attack_dialog_by_keys_gives_the_damage_after_resistance_and_petrified(
    tmp_path: Path, fields: dict[str, Any], condition: str, mean: str
) -> None:
    # 1d8+3 is 4 to 11: halved then doubled 4 4 6 6 8 8 10 10 (mean 7, not 7.50); halved
    # alone 2 2 3 3 4 4 5 5 (mean 3.50)
    foe = structs.replace(FOE_SHEET, hp=30, hp_max=30, **fields)
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", foe))
    if condition:
        history.commit(decide(history.state, AddCondition("c2", condition), ScriptedDice([])))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "damage mean" in screen_text(app), "the attack dialog's odds")
        assert f"damage mean {mean} on a hit" in screen_text(app)


# --- D4-13: condition names ----------------------------------------------------------------------


def test_paralysed_is_the_srds_paralyzed():
    state = with_condition(duel(), "c2", "Paralysed")
    _, events = run(state, D20Attack("c1", "c2"), 2, 9, 1, 1)  # advantage: 9 + 5 hits, crits
    assert events[0].outcome == "critical" and "+Goblin paralyzed" in events[0].reasons
    effect = D20SaveEffect("c1", ("c2",), "Web", "dex", 5)
    _, events = run(state, effect, 20)
    assert events[0].rolls[0].auto_fail
    assert state.combatant("c2").conditions[0].name == "Paralysed"  # kept as typed


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Paralysed", "Paralysed is read as the SRD's paralyzed"),
        (
            "Paralized",
            "Paralized is no SRD condition: a label with no rules effect (did you mean paralyzed?)",
        ),
        ("Hasted", "Hasted is no SRD condition: a label with no rules effect"),
        ("Prone", ""),
    ],
)
def test_a_condition_added_says_how_the_rules_read_its_name(name, said):
    state = duel()
    (event,) = decide(state, AddCondition("c2", name), ScriptedDice([]))
    assert isinstance(event, ConditionAdded)
    assert SYSTEM.notices(state, event) == ([said] if said else [])


def test_a_label_of_the_tables_own_has_no_rules_effect():
    state = with_condition(duel(), "c2", "Paralized")
    _, events = run(state, D20Attack("c1", "c2"), 15, 1)  # one d20, a plain hit
    assert events[0].mode == 0 and events[0].outcome == "hit"


def test_the_save_effect_dialog_says_how_its_condition_is_read():
    values = {"source": "c1", "ability": "wis", "dc": "13", "condition": "Paralysed"}
    assert SYSTEM.preview(duel(), "save", values) == "Paralysed is read as the SRD's paralyzed"


async def test_a_condition_by_keys_says_paralysed_is_paralyzed_and_flags_a_label(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("c", *"Paralysed", "enter")
        await until(pilot, lambda: app.session.state.combatant("c1").conditions, "the condition")
        assert "Paralysed is read as the SRD's paralyzed" in notices(app)
        await until(pilot, lambda: "read as the SRD" in screen_text(app), "the toast")
        app.clear_notifications()
        await pilot.press("c", *"Paralized", "enter")
        await until(pilot, lambda: len(app.session.state.combatant("c1").conditions) == 2)
        flag = "Paralized is no SRD condition: a label with no rules effect (did you mean"
        assert flag in notices(app)
        await until(pilot, lambda: "no SRD condition" in screen_text(app), "the toast")


# --- D4-15: massive damage says why ---------------------------------------------------------------


def test_massive_damage_kills_with_a_line_that_says_why():
    hurt = structs.replace(HERO_SHEET, hp=5, hp_max=12)
    state = fight(("Goblin", "foes", FOE_SHEET), ("Orla", "party", hurt))
    state, _ = run(state, D20SaveEffect("c1", ("c2",), "Boulder", "dex", 30, "18"), 2)
    events = decide(state, D20Apply(), ScriptedDice([]))
    line = SYSTEM.describe(state, events[0]).plain  # the state the event meets
    assert line.endswith("5 → 0 HP dead: massive damage, 13 past 0 is at least its maximum of 12")
    assert SYSTEM.alerts(state, events[0]) == [
        "Orla is dead: massive damage, 13 past 0 is at least its maximum of 12"
    ]
    assert sheet(fold_onto(state, events), "c2").dead


def test_massive_damage_at_0_and_a_third_failure_say_why():
    state = dying_hero()  # Orla at 0 of 20
    (event, *_) = decide(
        state, D20SaveEffect("c1", ("c2",), "Rock", "dex", 30, "20"), ScriptedDice([2])
    )
    state = fold_onto(state, [event])
    events = decide(state, D20Apply(), ScriptedDice([]))
    assert "dead: massive damage, 20 at 0 hit points is at least its maximum of 20" in (
        SYSTEM.describe(state, events[0]).plain
    )
    state = saves_in_rounds(dying_hero(), 1)  # two failures
    state = fold_onto(state, decide(state, NextTurn(), None))
    state, _ = run(state, D20SaveEffect("c1", ("c2",), "Rock", "dex", 30, "1"), 2)
    events = decide(state, D20Apply(), ScriptedDice([]))
    assert SYSTEM.describe(state, events[0]).plain.endswith("dead: three death save failures")
