"""Generic d20's damage, issue 40 (D4-06, D4-12): several damage types in one attack, each
meeting the target's resistance, vulnerability or immunity on its own, from the sheet, a stat
block, the attack dialog and the ``:attack`` line; and a critical hit that rolls the damage
dice twice, so dice kept by rank (``4d6kh3``) are two groups each kept on its own. Each with
scripted dice as rulings.md reads the SRD 5.1, the odds against an independent count, and the
dialog by keys at 80x24."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec import structs

from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.registry import get_system
from rules.systems.d20.encounter_odds import dialog_odds, last_odds
from rules.systems.d20.events import D20Apply, D20Attack, D20Attacked, D20Damaged, D20SaveEffect
from rules.systems.d20.odds import damage_chances
from rules.systems.d20.sheet import HERO
from rules.systems.d20.table import critical_notation, split_damage, worked_out
from tests.app.support import make_app, until
from tests.app.test_app_command_line import type_line
from tests.cli.support import tracker
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, duel, history_of, run, sheet
from tests.systems.d20.test_odds_d20 import _After, every_path, tally
from tracker.store import library

SYSTEM = get_system("d20")
FLAME_TONGUE = "1d8+3 slashing + 2d6 fire"
# Small dice, so that every face of a critical's damage is played by the rules: 2d4 and 2d6.
SMALL = "1d4+1 slashing + 1d6 fire"
FIRE_PROOF = structs.replace(FOE_SHEET, hp=30, hp_max=30, resistances=("fire",))


def flame(damage: str = FLAME_TONGUE) -> Any:
    return card(HERO, hp="20/20", ac="15", attack_bonus="5", damage=damage)


# --- D4-06: several damage types in one attack -------------------------------------------------


@pytest.mark.parametrize(("typed", "kept"), [
    (FLAME_TONGUE, (FLAME_TONGUE, "")),
    ("2d10+8 piercing plus 2d6 fire", ("2d10+8 piercing + 2d6 fire", "")),  # the SRD's wording
    ("2d10 + 8 Piercing PLUS 2d6 Fire", ("2d10+8 piercing + 2d6 fire", "")),
    ("1d8+3 slashing +2d6 fire", (FLAME_TONGUE, "")),
    ("1d6 fire + 1d4 fire", ("1d6+1d4", "fire")),  # one type: one resistance, once
    ("1d8 + 3 slashing", ("1d8+3", "slashing")),  # one type, as every sheet before
    ("1d8+3", ("1d8+3", "")),
    ("1d6 plus 2d6 fire", ("1d6 plus 2d6 fire", "")),  # an untyped part stays apart
    ("1d8 slashing + 2", ("1d8 slashing + 2", "")),
])  # fmt: skip
def test_a_damage_of_several_types_is_read_with_plus_or_the_word_plus(typed, kept):
    assert split_damage(typed) == kept
    assert split_damage(" ".join(kept).strip()) == kept  # what is kept reads back the same


@pytest.mark.parametrize(("typed", "why"), [
    ("1d8 slashing 2d6 fire", "join a damage's parts with + or plus"),
    ("1d8 slashing +", "a part needs dice after it"),
    ("fire", "'fire' needs dice before it"),
    ("1d4 acid + 1d4 cold + 1d4 fire + 1d4 poison + 1d4 thunder", "at most 4 damage types"),
    ("1d8 slashing + 2d6x fire", "cannot read dice at 'x'"),
    ("1d8 " + "+ 1" * 300 + " fire", "at most 400 characters"),
])  # fmt: skip
def test_a_damage_of_several_types_that_cannot_be_read_is_refused_in_one_line(typed, why):
    with pytest.raises(Rejected) as refused:
        card(HERO, damage=typed)
    message = refused.value.message
    assert message.startswith("Damage: ") and why in message and "\n" not in message


def test_each_type_meets_the_targets_own_resistance_and_the_log_shows_both():
    state = duel(flame(), structs.replace(FOE_SHEET, resistances=("fire",)))
    # 10 + 5 hits AC 13; 1d8 shows 5 (8 slashing), 2d6 show 2 and 3 (5 fire, halved to 2)
    state, events = run(state, D20Attack("c1", "c2"), 10, 5, 2, 3)
    (roll,) = events
    assert [(p.damage_type, p.total) for p in roll.damage_parts] == [("slashing", 8), ("fire", 5)]
    assert "1d8+3 slashing + 2d6 fire: 5 + 3 → 8 slashing, 2 3 → 5 fire = 13" in (
        SYSTEM.describe(state, roll).plain
    )
    before = state
    state, events = run(state, D20Apply())
    dealt = events[0]
    assert isinstance(dealt, D20Damaged) and dealt.amount == 10  # 8 + 5 // 2
    line = SYSTEM.describe(before, dealt).plain
    assert "Goblin takes 10 (8 slashing + 5 fire, fire resistant: 2): 12 → 2 HP" in line
    assert sheet(state, "c2").hp == 2


@pytest.mark.parametrize(("defence", "amount", "note"), [
    ({"immunities": ("fire",)}, 8, "fire immune: 0"),
    ({"vulnerabilities": ("slashing",)}, 21, "slashing vulnerable: 16"),
    ({"resistances": ("slashing", "fire")}, 6, "slashing resistant: 4, fire resistant: 2"),
])  # fmt: skip
def test_immunity_and_vulnerability_take_one_type_and_leave_the_other(defence, amount, note):
    foe = structs.replace(FOE_SHEET, hp=30, hp_max=30, **defence)
    state, events = run(duel(flame(), foe), D20Attack("c1", "c2", apply=True), 10, 5, 2, 3)
    dealt = next(e for e in events if isinstance(e, D20Damaged))
    assert dealt.amount == amount
    assert note in SYSTEM.describe(state, dealt).plain


def test_a_critical_doubles_the_dice_of_every_type():
    state = duel(flame(), FIRE_PROOF)
    state, events = run(state, D20Attack("c1", "c2", apply=True), 20, 5, 1, 2, 3, 6, 6)
    roll, dealt = events[0], events[1]
    assert roll.damage == "2d8+3 slashing + 4d6 fire"
    assert [(p.damage_type, p.total) for p in roll.damage_parts] == [("slashing", 9), ("fire", 17)]
    assert dealt.amount == 9 + 17 // 2


def test_a_save_effects_damage_of_two_types_halves_each_then_meets_its_resistance():
    state = duel(foe=FIRE_PROOF)
    effect = D20SaveEffect("c1", ("c2",), "Flame Strike", "dex", 10, "2d6 fire + 2d6 radiant")
    state, events = run(state, effect, 15, 6, 6, 5, 5)  # a save (halved), 12 fire, 10 radiant
    state, events = run(state, D20Apply())
    dealt = events[0]
    assert [(p.rolled, p.amount) for p in dealt.parts] == [(12, 3), (10, 5)]
    assert dealt.amount == 8


def _dealt_to(state: Any, command: D20Attack, dice: Any) -> int:
    """The damage the rules deal with these dice (0 on a miss)."""
    events = decide(state, command, dice)
    return next((e.amount for e in events if isinstance(e, D20Damaged)), 0)


@pytest.mark.parametrize("natural", [10, 20])
def test_the_odds_of_a_two_type_attack_are_every_face_the_rules_can_roll(natural):
    # Every face of both types' dice, played by the rules against a target that resists fire;
    # the odds add each type's damage after its own resistance, never halve the sum.
    state = duel(flame(SMALL), FIRE_PROOF)
    attack = D20Attack("c1", "c2", apply=True)
    counted = tally(every_path(lambda dice: _dealt_to(state, attack, _After((natural,), dice))))
    odds = dialog_odds(state, D20Attack("c1", "c2"))
    assert odds is not None
    found = odds.extra["damage_on_critical" if natural == 20 else "damage_on_hit"]
    assert {int(amount): p for amount, p in found.items()} == counted
    whole = damage_chances(SMALL, natural == 20, "resistant")  # the sum halved: not the rules
    assert whole != counted


def test_the_chance_a_two_type_attack_drops_its_target_is_every_path_of_the_rules():
    foe = structs.replace(FIRE_PROOF, hp=9)
    state = duel(flame(SMALL), foe)
    attack = D20Attack("c1", "c2", apply=True)
    counted = Fraction(0)
    for natural in range(1, 21):  # Orla's d20: 1 misses, 8 to 19 hit, 20 is a critical
        paths = every_path(lambda dice, n=natural: _dealt_to(state, attack, _After((n,), dice)))
        counted += Fraction(1, 20) * sum((p for dealt, p in paths if dealt >= 9), Fraction(0))
    odds = dialog_odds(state, D20Attack("c1", "c2"))
    assert odds is not None and odds.extra["drop"] == counted


def test_the_last_rolls_odds_read_its_types_from_the_roll():
    state = duel(flame(SMALL), FIRE_PROOF)
    state, _ = run(state, D20Attack("c1", "c2"), 10, 1, 1)
    found = last_odds(state)
    before = dialog_odds(duel(flame(SMALL), FIRE_PROOF), D20Attack("c1", "c2"))
    assert found is not None and before is not None
    assert found.extra["damage_on_hit"] == before.extra["damage_on_hit"]


def test_an_attack_takes_a_damage_typed_for_it_in_place_of_the_sheets():
    state = duel(foe=FIRE_PROOF)  # Orla's sheet: 1d8+3 slashing
    attack = D20Attack("c1", "c2", damage="1d4 piercing plus 1d6 fire")
    state, events = run(state, attack, 10, 4, 6)
    assert events[0].damage == "1d4 piercing + 1d6 fire"
    assert f"vs AC 13, {SMALL};" in SYSTEM.preview(duel(), "roll", {"damage": SMALL})
    with pytest.raises(Rejected) as refused:
        decide(duel(), D20Attack("c1", "c2", damage="2d6 fire 1d4"), ScriptedDice([10]))
    assert refused.value.message.startswith("Damage: ")


def test_a_stat_block_takes_the_srds_plus_between_types():
    text = (
        'system = "d20"\nname = "Red Drake"\n\n[sheet]\nattack = "Bite"\n'
        'damage = "2d10+8 piercing plus 2d6 fire"\n'
    )
    drake = library.parse(text, "drake.toml").sheet()
    assert (drake.damage, drake.damage_type) == ("2d10+8 piercing + 2d6 fire", "")
    assert SYSTEM.sheet_stats(drake)[2] == "+0 2d10+8+2d6"


def test_a_roll_and_a_damage_saved_before_several_types_read_as_before():
    state = duel()
    state, events = run(state, D20Attack("c1", "c2", apply=True), 10, 5)
    roll, dealt = events[0], events[1]
    for event, key in ((roll, "damage_parts"), (dealt, "parts")):
        older = msgspec.json.decode(msgspec.json.encode(event))
        del older[key]
        again = msgspec.json.decode(msgspec.json.encode(older), type=type(event))
        assert again == event
    assert "Goblin takes 8 slashing: 12 → 4 HP" in SYSTEM.describe(duel(), dealt).plain


async def test_the_attack_dialog_by_keys_takes_two_types_and_the_log_shows_both(
    tmp_path: Path,
) -> None:
    foe = structs.replace(FOE_SHEET, resistances=("fire",))
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", foe))
    app = make_app(tmp_path, ScriptedDice([10, 5, 2, 3]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "hit" in screen_text(app), "the attack dialog's odds")
        for _ in range(20):  # Tab to the Damage field, wherever other fields put it
            focused = app.screen.focused
            if focused is not None and focused.id == "field-damage":
                break
            await pilot.press("tab")
        await pilot.press(*FLAME_TONGUE)
        await until(pilot, lambda: "2d6 fire" in screen_text(app), "the damage typed")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the attack")
        # the log at 80x24 wraps each line at its pane's width
        rolled = ("1d8+3 slashing + 2d6 fire: 5 + 3 → 8", "slashing, 2 3 → 5 fire = 13")
        await until(pilot, lambda: all(p in screen_text(app) for p in rolled), "the roll's parts")
        await pilot.press("d")
        dealt = ("Goblin takes 10 (8 slashing + 5 fire,", "resistant: 2): 12 → 2 HP")
        await until(pilot, lambda: all(p in screen_text(app) for p in dealt), "each type dealt")
        assert app.session.state.combatant("c2").sheet.hp == 2


async def test_the_attack_line_takes_two_types(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FIRE_PROOF))
    app = make_app(tmp_path, ScriptedDice([10, 4, 6]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_line(pilot, f'attack Orla Goblin +damage "{SMALL}"')
        await until(pilot, lambda: app.session.state.last_roll is not None, "the attack")
        roll = app.session.state.last_roll
        assert isinstance(roll, D20Attacked)
        assert [(p.damage_type, p.total) for p in roll.damage_parts] == [
            ("slashing", 5),
            ("fire", 6),
        ]


def test_tracker_roll_d20_gives_each_types_total():
    args = ("roll", "d20", "--attack", "5", "--ac", "1", "--damage", SMALL, "--seed", "3")
    result = tracker(*args, "--json")
    assert result.returncode == 0, result.stderr
    damage = json.loads(result.stdout)["damage"]
    assert [p["type"] for p in damage["parts"]] == ["slashing", "fire"]
    assert sum(p["total"] for p in damage["parts"]) == damage["total"]
    assert "slashing, " in tracker(*args).stdout


# --- D4-12: a critical rolls the damage dice twice -----------------------------------------------


def _brute(dice: int, sides: int, keep: int) -> dict[int, Fraction]:
    """``NdSkhK`` counted face by face, with no code of the tracker's."""
    found: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        total = sum(sorted(faces, reverse=True)[:keep])
        found[total] = found.get(total, Fraction(0)) + Fraction(1, sides**dice)
    return found


def _sum(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (x, p), (y, q) in itertools.product(a.items(), b.items()):
        out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def _chances(text: str, critical: bool) -> dict[int, Fraction]:
    found = worked_out(text, critical)
    return {int(v): Fraction(w, found.denominator) for v, w in found.weights.items()}


def test_a_critical_on_4d6kh3_is_two_groups_of_4d6kh3_with_mean_24_49():
    once = _brute(4, 6, 3)
    counted = _sum(once, once)  # two groups, each keeping its own highest three
    assert critical_notation("4d6kh3") == "4d6kh3+4d6kh3"
    assert _chances("4d6kh3", True) == counted
    assert worked_out("4d6kh3", True).mean == Fraction(15869, 648)  # 24.49, not 8d6kh3's 15.39
    assert round(float(worked_out("4d6kh3", True).mean), 2) == 24.49


@pytest.mark.parametrize(("text", "twice"), [
    ("4d6kh3", "4d6kh3+4d6kh3"),
    ("2d20kl1", "2d20kl1+2d20kl1"),
    ("4d6pl1", "4d6pl1+4d6pl1"),
    ("3d6ph1", "3d6ph1+3d6ph1"),
    ("2d6ra6", "2d6ra6+2d6ra6"),  # reroll and add once a group
    ("(1d6, 1d8)kh1", "(1d6, 1d8)kh1+(1d6, 1d8)kh1"),
    ("2d6e6", "4d6e6"),  # each die explodes on its own: twice as many is the same
    ("2d6ro1", "4d6ro1"),
    ("1d8+4d6kh3+3", "2d8+4d6kh3+4d6kh3+3"),  # what is added is added once
    ("10-4d6kh3", "10-(4d6kh3+4d6kh3)"),
    ("2*2d4kh1", "2*(2d4kh1+2d4kh1)"),
])  # fmt: skip
def test_a_criticals_damage_is_the_dice_rolled_twice_for_every_operation(text, twice):
    assert critical_notation(text) == twice
    if text.startswith(("1d8+", "10-", "2*")):
        return
    once = _chances(text, False)
    assert _chances(text, True) == _sum(once, once)


def test_a_critical_on_4d6kh3_logs_two_groups_each_keeping_three():
    hero = card(HERO, hp="20/20", ac="15", attack_bonus="5", damage="4d6kh3 fire")
    foe = structs.replace(FOE_SHEET, hp=40, hp_max=40)
    state = duel(hero, foe)
    # a natural 20; the groups: 6 5 4 (1) keeps 15, 1 1 (1) 6 keeps 8; 8d6kh3 would be 6 6 5
    state, events = run(state, D20Attack("c1", "c2"), 20, 6, 5, 4, 1, 1, 1, 1, 6)
    roll = events[0]
    assert roll.damage_total == 23
    line = SYSTEM.describe(state, roll).plain
    assert "4d6kh3+4d6kh3: 6 5 4 (1) + 1 1 (1) 6 = 23 fire" in line
    odds = dialog_odds(duel(hero, foe), D20Attack("c1", "c2"))
    assert odds is not None and "24.49 on a critical" in odds.extra["note"]


def test_a_critical_on_keep_highest_is_applied_as_rolled():
    hero = card(HERO, hp="20/20", ac="15", attack_bonus="5", damage="4d6kh3 fire")
    state = duel(hero, structs.replace(FOE_SHEET, hp=40, hp_max=40))
    state, _ = run(state, D20Attack("c1", "c2", apply=True), 20, 6, 5, 4, 1, 1, 1, 1, 6)
    assert sheet(state, "c2").hp == 40 - 23
