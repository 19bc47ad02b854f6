"""Pain Pool's sheets and their dialogs, a whole challenge replayed, and held bonus dice
(issue 18)."""

from __future__ import annotations

import pytest

from rules import snapshot
from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import describe, fold
from rules.errors import Rejected
from rules.systems.painpool.events import (
    ApplyOutcome,
    EndScene,
    SpendDespair,
    SpendHope,
    TakeDamage,
)
from rules.systems.painpool.sheet import ChallengeSheet, HeldBonus, HeroSheet
from rules.systems.painpool.system import SYSTEM
from tests.helpers import run
from tests.systems.painpool.challenge import (
    ALLY,
    FOE,
    HERO,
    fight,
    hero,
    roll,
    sheet_of,
)

# --- sheets -------------------------------------------------------------------------------


def test_the_hero_form_takes_one_each_of_d8_d6_d4() -> None:
    sheet = HeroSheet()
    values = {"power": "4", "precision": "8", "possibility": "6", "boons": "", "favor": "2"}
    made = SYSTEM.sheet_from_form(values, sheet)
    assert (made.power, made.precision, made.possibility, made.favor) == (4, 8, 6, 2)
    with pytest.raises(Rejected, match="one each of d8, d6 and d4"):
        SYSTEM.sheet_from_form({**values, "power": "8", "precision": "8"}, sheet)


def test_boons_are_typed_as_text_with_their_crossed_off_levels() -> None:
    sheet = hero("Fighting +3d pre/pow (damage 1, failure 1); Quick +1d pos @Talents")
    fighting, quick = sheet.boons
    assert fighting.pools == ("precision", "power") and (fighting.damage, fighting.failure) == (
        1,
        1,
    )
    assert fighting.usable == 1 and quick.cascade == "Talents" and quick.usable == 1
    # The edit dialog shows the crossed-off levels, so saving it unchanged keeps them.
    form = {f.key: f.default for f in SYSTEM.sheet_form(sheet)}
    assert form["boons"] == "Fighting +3d pre/pow (damage 1, failure 1); Quick +1d pos @Talents"
    assert SYSTEM.sheet_from_form(form, sheet) == sheet
    values = {**form, "boons": "Fighting +3d pre (damage 2); Brave +2d pow", "impacted": "fighting"}
    edited = SYSTEM.sheet_from_form(values, sheet)
    assert [(b.name, b.damage) for b in edited.boons] == [("Fighting", 2), ("Brave", 0)]
    assert edited.impacted == "Fighting"
    for bad, message in [
        ("Fighting +4d pre", "must be \\+1d, \\+2d or \\+3d"),
        ("Fighting +2d arm", "pools are pow, pre and pos"),
        ("Fighting", "should look like"),
        ("A +1d pre; a +1d pow", "its own name"),
        ("A +1d pre (damage 2)", "at most 1 level"),
        ("A +2d pre @C (damage 1, failure 1)", "at most 1 level"),
        ("A +2d pre (hurt 1)", "write crossed-off levels"),
    ]:
        with pytest.raises(Rejected, match=message):
            SYSTEM.sheet_from_form({**values, "boons": bad, "impacted": ""}, sheet)


def test_the_challenge_form_checks_its_numbers() -> None:
    base = ChallengeSheet()
    made = SYSTEM.sheet_from_form({"pool": "9", "tokens": "6", "spiral": "2", "tank": "yes"}, base)
    assert made == ChallengeSheet(pool=9, tokens=6, spiral=2, templates=("tank",))
    edited = made.__class__(pool=9, tokens=6, lost=4, spiral=2, templates=("tank",))
    form = {f.key: f.default for f in SYSTEM.sheet_form(edited)}
    assert SYSTEM.sheet_from_form(form, edited) == edited  # the edit dialog keeps everything
    assert SYSTEM.sheet_stats(edited)[:2] == ("Pain 7d6 (Tank)", "Health 2/6")  # spiral: -2d
    for values, message in [
        ({"pool": "2"}, "at least 3d6"),
        ({"tokens": "0"}, "at least one health token"),
        ({"lost": "5"}, "between 0 and 1"),
    ]:
        with pytest.raises(Rejected, match=message):
            SYSTEM.sheet_from_form(values, base)


def test_add_challenge_is_the_core_add_combatant_with_a_challenge_sheet() -> None:
    history = fight()
    values = {"name": "Juggernaut", "pool": "9", "tokens": "8", "fast-but-weak": "yes"}
    command = SYSTEM.action_command(history.state, "challenge", values)
    assert isinstance(command, AddCombatant)
    run(history, command)
    juggernaut = history.state.combatants[-1]
    assert juggernaut.side == "challenge"
    assert SYSTEM.sheet_stats(juggernaut.sheet) == (
        "Pain 9d6 (Fast but Weak)",
        "Health 8/8",
        "",
        "",
    )


def test_a_whole_challenge_replays_from_its_save() -> None:
    history = fight(hero("Fighting +2d pre", favor=2))
    roll(history, [1, 1, 1, 6, 1, 1])  # Pain dominates
    run(history, SpendDespair(), ScriptedDice([6, 6, 6]))
    run(history, SpendHope(mode="raise", raise_by=1))
    reloaded = snapshot.decode(snapshot.encode(history))
    assert reloaded.state == history.state
    assert fold(event for event, _ in reloaded.in_effect()) == history.state


def test_next_ends_the_exchange_without_turns() -> None:
    from rules.commands import NextTurn

    history = fight()
    run(history, NextTurn())
    assert history.state.round == 2 and history.state.current_id is None


def test_passing_a_challenge_and_a_new_impacted_boon_are_announced() -> None:
    history = fight(hero("Fighting +2d pre"), ChallengeSheet(pool=3, tokens=2))
    roll(history, [1, 1, 1, 2, 1, 1])  # 3 vs 4: 1 damage
    before = history.state
    (damaged,) = run(history, TakeDamage(hits=(("Fighting", 1),)))
    assert SYSTEM.alerts(before, damaged) == [
        "Fighting is now Bullet's Impacted Boon: GM, start a subplot about it."
    ]
    roll(history, [8, 6, 4, 1, 1, 1])
    before = history.state
    (lost,) = run(history, ApplyOutcome())
    assert SYSTEM.alerts(before, lost) == [
        "Ogre has no health tokens left: the challenge is passed!"
    ]
    assert "The challenge is passed!" in describe(before, lost).plain


def test_the_roll_dialog_defaults_to_the_boons_that_add_the_most_dice() -> None:
    history = fight(hero("Fighting +3d pre/pow; Strong +1d pow; Lucky +2d pos (damage 2)"))
    form = {f.key: f.default for f in SYSTEM.action_form(history.state, "roll", HERO)}
    assert (form["boon_power"], form["boon_precision"], form["boon_possibility"]) == (
        "Strong",
        "Fighting",
        "",  # Lucky is crossed off
    )


# --- held bonus dice: held, given on, or ended by the situation (issue 18) ---------------------


def test_a_held_bonus_die_can_be_given_to_another_or_dropped() -> None:
    # "He can give this die to another or hold on to it"
    history = fight(hero(held=(HeldBonus(name="armour weak"), HeldBonus(name="high ground"))))
    from rules.systems.painpool.events import PassBonus

    before = history.state
    (event,) = run(history, PassBonus(hero_id=HERO, index=1, to_id=ALLY))
    assert "Bullet holds high ground: gives it to Prof" in describe(before, event).plain
    assert sheet_of(history).held == (HeldBonus(name="armour weak"),)
    assert sheet_of(history, ALLY).held == (HeldBonus(name="high ground"),)
    # "once ... something happens to change the situation the maneuver can't be used again"
    run(history, PassBonus(hero_id=HERO, index=0))
    assert sheet_of(history).held == ()
    with pytest.raises(Rejected, match="does not hold that bonus die"):
        run(history, PassBonus(hero_id=HERO, index=0))
    with pytest.raises(Rejected, match="already holds it"):
        run(history, PassBonus(hero_id=ALLY, index=0, to_id=ALLY))
    with pytest.raises(Rejected, match="is a challenge"):
        run(history, PassBonus(hero_id=ALLY, index=0, to_id=FOE))


def test_the_dialog_names_each_held_die_and_its_holder() -> None:
    history = fight(hero(held=(HeldBonus(name="flanked", sticky=True),)))
    fields = {f.key: f for f in SYSTEM.action_form(history.state, "bonus", None)}
    assert fields["die"].choices == (("c1:0", "Bullet: flanked (sticky)"),)
    values = {"die": "c1:0", "to": "c3"}
    command = SYSTEM.action_command(history.state, "bonus", values)
    run(history, command)
    assert sheet_of(history, ALLY).held == (HeldBonus(name="flanked", sticky=True),)
    with pytest.raises(Rejected, match="No hero holds a bonus die"):
        SYSTEM.action_form(fight().state, "bonus", None)


def test_the_end_of_the_scene_ends_the_bonus_dice() -> None:
    history = fight(hero(held=(HeldBonus(name="armour weak"),)))
    before = history.state
    (event,) = run(history, EndScene())
    assert event.bonus_ends and sheet_of(history).held == ()
    assert "Bonus dice end: Bullet" in describe(before, event).plain


def test_an_older_saves_end_of_scene_still_leaves_the_dice_held() -> None:
    import msgspec

    from rules.systems.painpool.events import SceneEnded

    old = msgspec.json.decode(b'{"type":"painpool.scene-ended","heal":false}', type=SceneEnded)
    assert old == SceneEnded(heal=False, bonus_ends=False)
    history = fight(hero(held=(HeldBonus(name="armour weak"),)))
    history.commit([old], "old scene")
    assert sheet_of(history).held == (HeldBonus(name="armour weak"),)
