"""Pain Pool rules with scripted dice.

Dice order in a roll: Power (attribute die, boon dice, bonus dice), Precision, Possibility,
then the Pain Pool. A hero built with ``hero()`` has Power d8, Precision d6, Possibility d4.
"""

from __future__ import annotations

import pytest

from rules.dice import ScriptedDice
from rules.engine import describe
from rules.errors import Rejected
from rules.systems.painpool.events import (
    ApplyOutcome,
    EndScene,
    PainPoolRoll,
    PainPoolState,
    SpendDespair,
    SpendHope,
    TakeDamage,
)
from rules.systems.painpool.roll import PainRoll, PoolRoll, dominant
from rules.systems.painpool.sheet import ChallengeSheet, HeldBonus
from rules.systems.painpool.system import SYSTEM
from tests.helpers import run
from tests.systems.painpool.challenge import (
    ALLY,
    FOE,
    HERO,
    fight,
    hero,
    pot,
    roll,
    sheet_of,
)

# --- the roll -----------------------------------------------------------------------------


def test_no_boons_is_d8_d6_d4_added_up_against_the_three_highest_pain_dice() -> None:
    history = fight()
    rolled = roll(history, [5, 3, 2, 4, 3, 1])
    assert [p.kept for p in rolled.pools] == [5, 3, 2]
    assert rolled.hero_total == 10
    assert rolled.pain.total == 8 and rolled.outcome == "success" and rolled.difference == 2


def test_the_texts_agile_fighter_rolls_2d8_d6_d4_and_keeps_one_d8() -> None:
    # "Power d4, Precision d8 and Possibility d6 ... he rolls 2d8 d6 d4"
    sheet = hero("Fighting +1d pre", power=4, precision=8, possibility=6)
    history = fight(sheet)
    rolled = roll(history, [3, 2, 7, 4, 1, 1, 1], boons=(("precision", "Fighting"),))
    power, precision, possibility = rolled.pools
    assert (power.size, precision.size, possibility.size) == (4, 8, 6)
    assert precision.faces == (2, 7) and precision.kept == 7
    assert rolled.hero_total == 3 + 7 + 4


def test_a_master_rolls_4d8_4d6_4d4_keeping_one_of_each() -> None:
    sheet = hero("Strong Arm +3d pow; Master Swordsman +3d pre; Opportunist +3d pos")
    history = fight(sheet)
    boons = (
        ("power", "Strong Arm"),
        ("precision", "Master Swordsman"),
        ("possibility", "Opportunist"),
    )
    faces = [1, 8, 2, 3, 6, 1, 1, 1, 1, 2, 3, 4, 6, 6, 6]  # 4d8, 4d6, 4d4, then Pain
    rolled = roll(history, faces, boons=boons)
    assert [p.count for p in rolled.pools] == [4, 4, 4]
    assert rolled.hero_total == 18  # the top of the 3-18 range
    assert rolled.outcome == "tie"  # against a Pain Pool of three 6s


def test_bullet_spends_the_professors_bonus_die_on_power_for_4d8_3d6_3d4() -> None:
    sheet = hero(
        "Big Gun +2d pow; Uncanny Aim +2d pre; Chink in the Armor +2d pos",
        held=(HeldBonus(name="armour weak to kinetic"),),
    )
    history = fight(sheet)
    boons = (
        ("power", "Big Gun"),
        ("precision", "Uncanny Aim"),
        ("possibility", "Chink in the Armor"),
    )
    faces = [1, 2, 3, 8, 1, 1, 1, 1, 1, 1, 1, 1, 1]  # Power: attribute, Big Gun, bonus
    rolled = roll(history, faces, boons=boons, bonus=((0, "power"),))
    assert [p.count for p in rolled.pools] == [4, 3, 3]
    assert rolled.pools[0].bonus_dice == (8,) and rolled.pools[0].kept == 8
    assert sheet_of(history).held == ()  # a non-sticky maneuver is exploited once


def test_one_boon_per_pool_and_only_where_it_feeds() -> None:
    history = fight(hero("Fighting +2d pre; Strong +1d pow/pre"))
    with pytest.raises(Rejected, match="does not feed Power"):
        roll(history, [], boons=(("power", "Fighting"),))
    with pytest.raises(Rejected, match="only one boon per roll"):
        roll(history, [], boons=(("precision", "Fighting"), ("precision", "Strong")))
    with pytest.raises(Rejected, match="only one pool per roll"):
        roll(history, [], boons=(("power", "Strong"), ("precision", "Strong")))
    with pytest.raises(Rejected, match="no boon"):
        roll(history, [], boons=(("power", "Flying"),))


def test_the_log_shows_every_die_with_the_kept_ones_marked() -> None:
    history = fight(hero("Fighting +2d pre"), ChallengeSheet(pool=5, tokens=3))
    before = history.state
    rolled = roll(history, [4, 2, 6, 3, 1, 2, 5, 1, 6, 3], boons=(("precision", "Fighting"),))
    text = describe(before, rolled).plain
    assert "Power 1d8: [4] → 4" in text
    assert "Precision 3d6: 2 [6] 3  (attribute, Fighting +2d) → 6" in text
    assert "Possibility 1d4: [1] → 1" in text
    assert "Ogre Pain 5d6 (pool 5): 2 [5] 1 [6] [3] → 6 + 5 + 3 = 14" in text
    assert "11 vs 14 FAILURE (Worst outcome) difference -3" in text
    assert "Precision dominates: skill and finesse" in text  # a 6 on a d6 beats Pain's 6


# --- the Pain Pool ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "initiator", "dice", "extra_damage"),
    [
        ("glass-cannon", "challenge", 5, 0),  # +2d when attacking
        ("glass-cannon", "hero", 3, 0),
        ("fast-but-weak", "hero", 5, -1),  # +2d pool, -1 damage
        ("slow-but-strong", "hero", 3, 2),  # -1d pool (never under 3d6), +2 damage
        ("tank", "hero", 5, -1),  # +2d defending, -1 backlash
        ("tank", "challenge", 3, 0),
    ],
)
def test_enemy_templates_change_the_pool_and_the_damage(
    template: str, initiator: str, dice: int, extra_damage: int
) -> None:
    foe = ChallengeSheet(pool=3, tokens=5, templates=(template,))  # type: ignore[arg-type]
    history = fight(foe=foe)
    # The hero rolls 1s; the Pain Pool rolls 6s: a loss by 18 - 3 = 15.
    rolled = roll(history, [1, 1, 1] + [6] * dice, initiator=initiator)
    assert len(rolled.pain.dice) == dice
    assert rolled.hero_damage == 15 + extra_damage


def test_slow_but_strong_takes_a_die_off_a_bigger_pool() -> None:
    history = fight(foe=ChallengeSheet(pool=9, tokens=5, templates=("slow-but-strong",)))
    assert len(roll(history, [1, 1, 1] + [2] * 8).pain.dice) == 8


def test_the_gm_states_extra_pain_dice() -> None:
    history = fight(foe=ChallengeSheet(pool=3))
    assert len(roll(history, [1, 1, 1] + [2] * 5, pain_extra=2).pain.dice) == 5


@pytest.mark.parametrize(("typed", "count"), [("2", 2), ("2d6", 2), ("d6", 1), ("", 0)])
def test_the_dialogs_read_pain_dice_as_a_number_or_in_dice_notation(typed: str, count: int) -> None:
    """The roll's extra pain dice and a challenge's pool take ``3`` or ``3d6`` alike (the
    notation of :roll); the mechanics stay: a number of d6."""
    from rules.systems.painpool.forms import action_command

    state = fight().state
    values = {"hero": HERO, "challenge": FOE, "pain_extra": typed}
    command = action_command(state, "roll", values)
    assert isinstance(command, PainPoolRoll) and command.pain_extra == count
    for pool, size in (("5", 5), ("5d6", 5), ("", 3)):  # blank: the new challenge's pool
        made = action_command(state, "challenge", {"name": "Ogre", "pool": pool})
        assert made.sheet.pool == size  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("typed", "refused"),
    [
        ("2d8", "Extra pain dice: d6 only, and '2d8' rolls d8"),
        ("2d6+1", "Extra pain dice: a number of d6, e.g. 3 or 3d6, not '2d6+1'"),
        ("lots", "Extra pain dice: a number of d6, e.g. 3 or 3d6, not 'lots'"),
    ],
)
def test_pain_dice_of_another_kind_are_refused_by_name(typed: str, refused: str) -> None:
    from rules.systems.painpool.forms import action_command

    values = {"hero": HERO, "challenge": FOE, "pain_extra": typed}
    with pytest.raises(Rejected) as error:
        action_command(fight().state, "roll", values)
    assert error.value.message == refused


def test_health_tokens_fall_by_the_difference_and_the_challenge_passes_at_zero() -> None:
    history = fight(foe=ChallengeSheet(pool=3, tokens=4))
    roll(history, [8, 6, 4, 1, 1, 2])  # 18 vs 4: 14, more than the 4 tokens
    (lost,) = run(history, ApplyOutcome())
    assert lost.tokens == 4
    foe = sheet_of(history, FOE)
    assert foe.remaining == 0 and foe.passed
    with pytest.raises(Rejected, match="already been applied"):
        run(history, ApplyOutcome())
    with pytest.raises(Rejected, match="already passed"):
        roll(history, [])


def test_a_death_spiral_shrinks_the_pool_per_tokens_lost() -> None:
    history = fight(foe=ChallengeSheet(pool=6, tokens=10, spiral=2))
    roll(history, [3, 2, 1, 1, 1, 1, 1, 1, 1])  # 6 vs 3: 3 tokens lost
    run(history, ApplyOutcome())
    assert sheet_of(history, FOE).lost == 3
    # One die per 2 tokens lost: 6d6 becomes 5d6.
    assert len(roll(history, [1, 1, 1] + [1] * 5).pain.dice) == 5


# --- outcomes and boon damage -------------------------------------------------------------


def test_a_tie_is_the_good_outcome_with_nothing_to_apply() -> None:
    history = fight()
    rolled = roll(history, [3, 2, 1, 3, 2, 1])
    assert rolled.outcome == "tie" and SYSTEM.landing(history.state).tier == 1
    with pytest.raises(Rejected, match="tie"):
        run(history, ApplyOutcome())


def test_a_loss_is_taken_on_boons_the_player_chooses() -> None:
    history = fight(hero("Fighting +3d pre; Wits +2d pos"))
    rolled = roll(history, [1, 1, 1, 6, 6, 5], worst="thrown in the river")
    assert rolled.outcome == "failure" and rolled.hero_damage == 17 - 3
    assert SYSTEM.tiers(history.state)[2].effect.endswith("thrown in the river")
    with pytest.raises(Rejected, match="choose the boons"):
        run(history, ApplyOutcome())
    with pytest.raises(Rejected, match="at most 3"):
        run(history, TakeDamage(hits=(("Fighting", 4),)))
    with pytest.raises(Rejected, match="Assign exactly 5"):
        run(history, TakeDamage(hits=(("Fighting", 1),)))
    with pytest.raises(Rejected, match="once"):
        run(history, TakeDamage(hits=(("Fighting", 3), ("Fighting", 2))))
    with pytest.raises(Rejected, match="no boon or cascade 'Flying'"):
        run(history, TakeDamage(hits=(("Flying", 1),)))


def test_damage_crosses_off_levels_and_the_first_damaged_boon_becomes_impacted() -> None:
    history = fight(hero("Fighting +3d pre; Wits +2d pos; Brawn +1d pow"))
    roll(history, [2, 2, 2, 6, 6, 3])  # 6 vs 15: 9 damage, capped at 6 levels
    (event,) = run(history, TakeDamage(hits=(("Wits", 2), ("Fighting", 3), ("Brawn", 1))))
    assert event.impacted == "Fighting"  # the first damaged boon in the sheet's order
    sheet = sheet_of(history)
    assert sheet.impacted == "Fighting"
    assert [b.usable for b in sheet.boons] == [0, 0, 0]


def test_an_existing_impacted_boon_stays() -> None:
    history = fight(hero("Fighting +3d pre; Wits +2d pos", impacted="Fighting"))
    roll(history, [1, 1, 1, 2, 1, 1])  # 3 vs 4: 1 damage
    (event,) = run(history, TakeDamage(hits=(("Wits", 1),)))
    assert event.impacted == "" and sheet_of(history).impacted == "Fighting"


def test_a_cascade_loses_whole_boons_from_the_highest() -> None:
    talents = "Quick +1d pre @Talents; Mighty +3d pow @Talents; Sharp +2d pos @Talents"
    history = fight(hero(talents))
    roll(history, [1, 1, 1, 1, 2, 2])  # 3 vs 5: 2 damage
    (event,) = run(history, TakeDamage(hits=(("Talents", 2),)))
    assert [(h.boon, h.levels) for h in event.hits] == [("Mighty", 1), ("Sharp", 1)]
    boons = {b.name: b.usable for b in sheet_of(history).boons}
    assert boons == {"Quick": 1, "Mighty": 0, "Sharp": 0}
    with pytest.raises(Rejected, match="crossed off"):
        roll(history, [], boons=(("power", "Mighty"),))


def test_a_damaged_boon_rolls_fewer_dice() -> None:
    history = fight(hero("Fighting +3d pre; Wits +1d pos"))
    roll(history, [1, 1, 1, 1, 2, 2])  # 3 vs 5: 2 damage
    run(history, TakeDamage(hits=(("Fighting", 2),)))
    rolled = roll(history, [1, 1, 5, 1, 1, 1, 1], boons=(("precision", "Fighting"),))
    assert rolled.pools[1].count == 2  # +3d with two levels crossed off: +1d


def test_failure_levels_return_at_the_end_of_the_scene_damage_lingers() -> None:
    history = fight(hero("Fighting +3d pre; Wits +2d pos"))
    roll(history, [1, 1, 1, 1, 2, 2], harm="failure")  # 3 vs 5: 2 failure levels
    run(history, TakeDamage(hits=(("Fighting", 2),)))
    roll(history, [1, 1, 1, 1, 2, 2])  # 2 damage
    run(history, TakeDamage(hits=(("Wits", 2),)))
    before = history.state
    (ended,) = run(history, EndScene())
    assert "Bullet recovers Fighting +2" in describe(before, ended).plain
    levels = {b.name: (b.damage, b.failure) for b in sheet_of(history).boons}
    assert levels == {"Fighting": (0, 0), "Wits": (2, 0)}
    run(history, EndScene(heal=True))
    assert all(b.crossed == 0 for b in sheet_of(history).boons)


# --- maneuvers ----------------------------------------------------------------------------


def test_a_failed_maneuver_costs_failure_levels_not_damage() -> None:
    # "A character performing a maneuver does not risk being damaged": the loss is still a
    # loss, paid in failure levels, whatever the roll's stakes said.
    history = fight(hero("Fighting +3d pre; Wits +2d pos"))
    rolled = roll(history, [1, 1, 1, 2, 1, 1], kind="maneuver", harm="damage")
    assert rolled.outcome == "failure" and rolled.hero_damage == 1
    assert SYSTEM.pending(history.state) == "Bullet takes 1 failure levels"
    with pytest.raises(Rejected, match="takes 1 failure levels: choose the boons"):
        run(history, ApplyOutcome())
    (event,) = run(history, TakeDamage(hits=(("Wits", 1),)))
    assert event.harm == "failure" and event.impacted == ""  # failure levels impact nothing
    wits = sheet_of(history).boons[1]
    assert (wits.failure, wits.damage) == (1, 0)
    run(history, EndScene())  # failure levels return at the end of the scene
    assert sheet_of(history).boons[1].failure == 0


def test_only_damage_makes_a_boon_impacted() -> None:
    history = fight(hero("Fighting +3d pre; Wits +2d pos"))
    roll(history, [1, 1, 1, 2, 1, 1], harm="failure")
    (event,) = run(history, TakeDamage(hits=(("Wits", 1),)))
    assert event.impacted == "" and sheet_of(history).impacted == ""


def test_a_successful_maneuver_gives_a_bonus_die_to_hold_or_give() -> None:
    history = fight()
    roll(history, [8, 6, 4, 1, 1, 1], kind="maneuver", intent="armour weak", beneficiary_id=ALLY)
    (granted,) = run(history, ApplyOutcome())
    assert granted.hero_id == ALLY
    assert sheet_of(history, ALLY).held == (HeldBonus(name="armour weak"),)
    assert sheet_of(history, FOE).lost == 0  # a maneuver deals no damage


def test_a_sticky_maneuver_is_free_once_then_a_favor_per_use() -> None:
    history = fight(hero(favor=1, held=(HeldBonus(name="high ground", sticky=True),)))
    first = roll(history, [1, 1, 1, 1, 1, 1, 1], bonus=((0, "power"),))
    assert first.favor_spent == 0
    assert sheet_of(history).held == (HeldBonus(name="high ground", sticky=True, used=True),)
    second = roll(history, [1, 1, 1, 1, 1, 1, 1], bonus=((0, "precision"),))
    assert second.favor_spent == 1 and sheet_of(history).favor == 0
    with pytest.raises(Rejected, match="costs 1 favor"):
        roll(history, [], bonus=((0, "power"),))


def test_only_a_hero_initiates_a_maneuver() -> None:
    with pytest.raises(Rejected, match="hero's action"):
        roll(fight(), [], kind="maneuver", initiator="challenge")


# --- dominance ----------------------------------------------------------------------------


def pools(power: int, precision: int, possibility: int) -> tuple[PoolRoll, ...]:
    return (
        PoolRoll(pool="power", size=8, attribute=power),
        PoolRoll(pool="precision", size=6, attribute=precision),
        PoolRoll(pool="possibility", size=4, attribute=possibility),
    )


def pain(*faces: int) -> PainRoll:
    return PainRoll(parts=(), dice=faces)


@pytest.mark.parametrize(
    ("hero_dice", "pain_dice", "winner"),
    [
        ((7, 3, 2), (5, 4, 1), "power"),
        ((2, 5, 1), (4, 1, 1), "precision"),
        ((1, 1, 4), (3, 2, 1), "possibility"),
        ((5, 3, 2), (6, 1, 1), "pain"),
        ((6, 6, 2), (1, 1, 1), "power"),  # ties: the larger die beats the smaller
        ((1, 6, 2), (6, 6, 6), "precision"),  # same die: a hero pool beats Pain
        ((1, 1, 4), (4, 1, 1), "pain"),  # Pain's d6 beats Possibility's d4
    ],
)
def test_dominance_is_the_highest_kept_die(hero_dice, pain_dice, winner) -> None:
    assert dominant(pools(*hero_dice), pain(*pain_dice)) == winner


# --- Despair and Hope ---------------------------------------------------------------------


def test_pain_dominating_gives_the_gm_a_despair_token() -> None:
    history = fight()
    before = history.state
    rolled = roll(history, [2, 2, 2, 6, 1, 1])
    assert rolled.dominant == "pain" and rolled.despair_given
    assert pot(history) == PainPoolState(despair=1, hope=0)
    assert SYSTEM.status(history.state) == "Despair 1 · Hope 0"
    assert SYSTEM.alerts(before, rolled) == ["Pain dominates: the GM gains a Despair token."]
    text = describe(before, rolled).plain
    assert "Pain dominates: gains won at a heavy cost" in text
    assert "The GM gains a Despair token" in text


def test_despair_rerolls_the_pain_pool_keeping_the_higher_and_gives_hope() -> None:
    history = fight(foe=ChallengeSheet(pool=3, tokens=5))
    roll(history, [5, 4, 3, 6, 1, 1])  # 12 vs 8: success by 4, Pain dominates
    run(history, SpendDespair(), ScriptedDice([5, 5, 4]))
    assert pot(history) == PainPoolState(despair=0, hope=1)
    last = history.state.last_roll
    assert last.pain.total == 14 and last.outcome == "failure"
    # A worse re-roll is not kept.
    history.undo()
    run(history, SpendDespair(), ScriptedDice([1, 1, 1]))
    assert history.state.last_roll.pain.total == 8
    with pytest.raises(Rejected, match="no Despair token"):
        run(history, SpendDespair(), ScriptedDice([1, 1, 1]))


def test_hope_rerolls_chosen_pools_each_keeping_the_higher() -> None:
    history = fight()
    roll(history, [2, 2, 2, 6, 1, 1])  # Pain dominates: Despair 1
    run(history, SpendDespair(), ScriptedDice([1, 1, 1]))  # worse: kept 6 1 1; Hope 1
    run(history, SpendHope(pools=("power", "precision")), ScriptedDice([7, 1]))
    last = history.state.last_roll
    assert [p.kept for p in last.pools] == [7, 2, 2]  # Precision keeps its 2 over the 1
    assert pot(history).hope == 0
    with pytest.raises(Rejected, match="no Hope token"):
        run(history, SpendHope(pools=("power",)), ScriptedDice([1]))


def test_hope_raises_the_roll_for_favor_and_pain_dominates() -> None:
    history = fight(hero(favor=3))
    roll(history, [2, 2, 2, 6, 1, 1])  # Despair 1
    run(history, SpendDespair(), ScriptedDice([1, 1, 1]))  # Hope 1
    with pytest.raises(Rejected, match="costs 4 favor"):
        run(history, SpendHope(mode="raise", raise_by=4))
    run(history, SpendHope(mode="raise", raise_by=3))
    last = history.state.last_roll
    assert last.hero_total == 9 and last.outcome == "success" and last.dominant == "pain"
    assert sheet_of(history).favor == 0


def test_a_hope_raise_gives_despair_when_pain_did_not_dominate_before() -> None:
    history = fight(hero(favor=2))
    roll(history, [1, 1, 1, 6, 1, 1])  # Pain dominates: Despair 1
    run(history, SpendDespair(), ScriptedDice([1, 1, 1]))  # Hope 1, Despair 0
    roll(history, [8, 1, 1, 1, 1, 1])  # Power dominates: no token
    assert pot(history) == PainPoolState(despair=0, hope=1)
    run(history, SpendHope(mode="raise", raise_by=1))
    assert pot(history) == PainPoolState(despair=1, hope=0)


def test_tokens_are_spent_after_the_roll_and_before_it_is_applied() -> None:
    history = fight()
    with pytest.raises(Rejected, match="roll first"):
        run(history, SpendDespair())
    roll(history, [8, 6, 4, 1, 1, 1])
    run(history, ApplyOutcome())
    with pytest.raises(Rejected, match="already been applied"):
        run(history, SpendHope(pools=("power",)))
