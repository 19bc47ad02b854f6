"""Beer Run rules: sheets, goals, the pool builder, rounds, helping, damage, ceding, outcomes."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules.commands import AddCombatant, EditCombatant, NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, describe, fold_onto, new_encounter
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.history import History
from rules.snapshot import decode, encode
from rules.systems.beerrun.decide import br_state, categories, pending_now, plan_pool
from rules.systems.beerrun.events import (
    AddOutcomeDie,
    BuildPool,
    Cede,
    DiceGained,
    GoalGained,
    LandDamage,
    RollRound,
    SetCategories,
    SetGoal,
)
from rules.systems.beerrun.sheet import (
    BeerRunSheet,
    Goal,
    OutcomeDie,
    TempDie,
    parse_abilities,
    parse_outcomes,
    parse_temp_dice,
)
from rules.systems.beerrun.system import SYSTEM
from tests.systems.beerrun.brawl import (
    ANN,
    GOBLIN,
    ORLA,
    brawl,
    me,
    orla_wins,
    rejects,
    rolled,
    run,
    size,
)

# --- sheets -------------------------------------------------------------------------------------


def test_abilities_are_dice_in_the_categories_the_gm_names():
    abilities = parse_abilities("Body: Fencing d8, Health d6; Mind: Wits d6")
    assert [(a.name, a.category, a.size) for a in abilities] == [
        ("Fencing", "Body", 8),
        ("Health", "Body", 6),
        ("Wits", "Mind", 6),
    ]
    with pytest.raises(Rejected, match="under a category"):
        parse_abilities(": Fencing d8")
    with pytest.raises(Rejected, match="listed twice"):
        parse_abilities("Body: Fencing d8, fencing d6")
    with pytest.raises(Rejected, match="now/full"):
        parse_abilities("Body: Fencing d8/6")


def test_the_form_takes_the_abilities_as_the_table_shows_them():
    # The combatants pane shows no categories and a damaged die as now/full.
    history = brawl()
    typed = SYSTEM.sheet_from_form({"abilities": "Stab d10, Health d3/4"}, BeerRunSheet())
    assert [(a.name, a.category, a.size, a.rating) for a in typed.abilities] == [
        ("Stab", "", 10, 10),
        ("Health", "", 3, 4),
    ]
    run(history, AddCombatant(name="Thug", sheet=typed))
    thug = me(history, "c4")
    assert [(a.name, a.category) for a in thug.abilities] == [("Stab", "Body"), ("Health", "Body")]
    assert SYSTEM.sheet_stats(thug)[1] == "Stab d10, Health d3/4"
    # What the table shows, typed back into the edit form, changes nothing.
    shown = SYSTEM.sheet_stats(me(history, "c1"))[1]
    assert shown == "Fencing d8, Health d6, Wits d6"
    edited = SYSTEM.sheet_from_form({"abilities": shown, "intensity": "10"}, me(history, "c1"))
    assert (
        decide(history.state, EditCombatant(combatant_id="c1", sheet=edited), ScriptedDice([]))
        == []
    )


def test_an_ability_of_no_known_category_takes_its_neighbours():
    history = brawl()
    typed = SYSTEM.sheet_from_form({"abilities": "Slur d4, Charm d6, Kick d8"}, BeerRunSheet())
    run(history, AddCombatant(name="Thug", sheet=typed))  # Charm is in Mind (Ann's sheet)
    assert [a.category for a in me(history, "c4").abilities] == ["Mind", "Mind", "Mind"]
    typed = SYSTEM.sheet_from_form({"abilities": "Stab d6, Bite d4; Mind: Gaze d8"}, BeerRunSheet())
    run(history, AddCombatant(name="Lout", sheet=typed))
    assert [a.category for a in me(history, "c5").abilities] == ["Body", "Body", "Mind"]
    typed = SYSTEM.sheet_from_form({"abilities": "Roar d4, Claw d6"}, BeerRunSheet())
    rejects(
        history,
        AddCombatant(name="Thug", sheet=typed),
        r"Which category is Roar in\? Write the abilities under their categories, like "
        r"Body: Roar d4 \(categories here: Body, Mind\)",
    )


def test_abilities_with_no_category_in_a_new_encounter_go_under_general():
    history = History(new_encounter("Alley", "beerrun"))
    typed = SYSTEM.sheet_from_form({"abilities": "Fists d6, Health d6"}, BeerRunSheet())
    run(history, AddCombatant(name="Thug", sheet=typed))
    assert [(a.name, a.category) for a in me(history, "c1").abilities] == [
        ("Fists", "General"),
        ("Health", "General"),
    ]
    typed = SYSTEM.sheet_from_form({"abilities": "Bite d8, Speed d4"}, BeerRunSheet())
    run(history, AddCombatant(name="Dog", side="foes", sheet=typed))  # the one category there
    assert {a.category for a in me(history, "c2").abilities} == {"General"}
    assert categories(history.state) == ("General",)


def test_abilities_with_no_category_take_the_gms_only_category():
    history = History(new_encounter("Alley", "beerrun"))
    run(history, SetCategories(("Body",)))
    typed = SYSTEM.sheet_from_form({"abilities": "Fists d6, Health d6"}, BeerRunSheet())
    run(history, AddCombatant(name="Thug", sheet=typed))
    assert {a.category for a in me(history, "c1").abilities} == {"Body"}


def test_a_die_worn_to_zero_can_be_edited():
    history = brawl()
    zeroed = structs.replace(
        me(history, "c3"), abilities=parse_abilities("Body: Stab d0/10, Health d4")
    )
    assert SYSTEM.sheet_stats(zeroed)[1] == "Stab d0/10, Health d4"
    shown = {f.key: f.default for f in SYSTEM.sheet_form(zeroed)}
    assert shown["abilities"] == "Body: Stab d0/10, Health d4"
    assert SYSTEM.sheet_from_form(shown, zeroed) == zeroed


def test_the_sheet_form_round_trips_every_part_of_the_sheet():
    typed = {
        "abilities": ORLA,
        "intensity": "7",
        "situation": "d8x2",
        "penalty": "d6",
        "outcomes": "+Sword d6, -Limp d4",
    }
    made = SYSTEM.sheet_from_form(typed, BeerRunSheet())
    assert made.intensity == 7
    assert made.situation == (TempDie(8, 2),) and made.penalty == (TempDie(6, 1),)
    assert made.outcomes == parse_outcomes("+Sword d6, -Limp d4")
    shown = {f.key: f.default for f in SYSTEM.sheet_form(made)}
    assert SYSTEM.sheet_from_form(shown, BeerRunSheet()) == made
    assert SYSTEM.sheet_stats(made) == (
        "7",
        "Fencing d8, Health d6, Wits d6",
        "",
        "+d8x2 -d6x1 -Limp d4",
    )
    with pytest.raises(Rejected, match="like d8x2"):
        parse_temp_dice("eight", "Situation dice")
    with pytest.raises(Rejected, match="Intensity"):
        SYSTEM.sheet_from_form({"intensity": "-1"}, BeerRunSheet())


def test_there_is_no_turn_order_and_n_ends_the_round():
    history = brawl()
    assert SYSTEM.uses_turn_order is False
    assert history.state.current_id is None  # nobody is "current": all sides act at once
    run(history, NextTurn())
    assert history.state.round == 2 and history.state.current_id is None


def test_categories_come_from_the_sheets_until_the_gm_sets_them():
    history = brawl()
    run(history, SetCategories(()))
    assert categories(history.state) == ("Body", "Mind")
    run(history, SetCategories(("Body", "Mind", "Social")))
    assert categories(history.state) == ("Body", "Mind", "Social")


# --- goals ---------------------------------------------------------------------------------------


def test_a_goal_is_stated_shown_beside_the_combatant_and_may_change():
    history = brawl()
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Dispatch the goblin")))
    assert SYSTEM.sheet_stats(me(history, "c1"))[2] == "Dispatch the goblin"
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Run")))
    assert SYSTEM.sheet_stats(me(history, "c1"))[2] == "Run"
    helping = Goal(kind="helping", ally_id="c1", die=8)
    run(history, SetGoal(combatant_id="c2", goal=helping))
    assert SYSTEM.sheet_stats(me(history, "c2"))[2] == "help (d8)"
    rejects(
        history,
        SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c2", die=8)),
        "cannot help themselves",
    )


# --- the pool builder ----------------------------------------------------------------------------


def test_the_base_pool_is_one_die_from_each_category_for_one_intensity():
    history = brawl()
    plan = plan_pool(history.state, history.state.combatant("c1"), None, ())
    assert [a.name for a in plan.base] == ["Fencing", "Wits"]  # the largest Body die
    assert plan.cost == 1 and plan.missing == []
    run(history, BuildPool(combatant_id="c1", against="c3"))
    assert me(history, "c1").intensity == 9


def test_a_missing_category_rolls_with_less():
    history = brawl()
    plan = plan_pool(history.state, history.state.combatant("c3"), None, ())
    assert [a.name for a in plan.base] == ["Stab"] and plan.missing == ["Mind"]


def test_extra_dice_cost_1_3_6_and_a_pool_that_cannot_pay_is_refused():
    big = "Body: A d6, B d6, C d6, D d6; Mind: E d6"
    history = brawl(("Big", big), ("Goblin", GOBLIN))
    big_one = history.state.combatant("c1")
    costs = [
        plan_pool(history.state, big_one, None, extra).cost
        for extra in ((), ("B",), ("B", "C"), ("B", "C", "D"))
    ]
    assert costs == [1, 2, 4, 7]
    run(history, BuildPool(combatant_id="c1", extra=("B", "C", "D"), against="c2"))
    assert me(history, "c1").intensity == 3
    poor = brawl(("Orla", ORLA), ("Goblin", GOBLIN))
    run(poor, NextTurn())
    poor_sheet = me(poor, "c1")
    run(poor, EditCombatant(combatant_id="c1", sheet=structs.replace(poor_sheet, intensity=1)))
    rejects(
        poor,
        BuildPool(combatant_id="c1", extra=("Health",), against="c2"),
        "costs 2 Intensity and Orla has 1",
    )


def test_a_listed_pool_needs_each_category_and_each_ability_once():
    history = brawl()
    rejects(history, BuildPool(combatant_id="c1", base=("Fencing",), against="c3"), "from Mind")
    rejects(history, BuildPool(combatant_id="c1", extra=("Fencing",), against="c3"), "twice")
    rejects(history, BuildPool(combatant_id="c1", extra=("Sword",), against="c3"), "no ability")
    run(history, BuildPool(combatant_id="c1", base=("Health", "Wits", "Fencing"), against="c3"))
    [pool] = history.state.system_state.pools  # type: ignore[union-attr]
    assert [d.label for d in pool.dice] == ["Health", "Wits", "Fencing"]
    assert pool.extra == 1 and pool.cost == 2


def test_one_pool_per_side_per_round_and_a_new_round_pays_again():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    rejects(history, BuildPool(combatant_id="c1", against="c3"), "already paid")
    run(history, RollRound(), (5, 5))  # the goblin paid for nothing
    rejects(history, BuildPool(combatant_id="c3", against="c1"), "is rolled")
    run(history, NextTurn())
    run(history, BuildPool(combatant_id="c1", against="c3"))
    assert me(history, "c1").intensity == 8


# --- comparing ---------------------------------------------------------------------------------


def test_two_sides_that_chose_each_other_compare_once_upper_hand_lands_first():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    # Orla: Fencing 7, Wits 5. Goblin: Stab 9, Health 4. Sorted: 7 5 vs 9 4.
    events = run(history, RollRound(), (7, 5, 9, 4))
    [contest] = rolled(events).contests
    assert (contest.top_id, contest.bottom_id) == ("c1", "c3")
    waiting = pending_now(history.state)
    assert [(p.dealer_id, p.pips, p.upper) for p in waiting] == [("c3", 1, True), ("c1", 1, False)]
    landing = SYSTEM.landing(history.state)
    assert landing is not None and "Goblin has the upper hand over Orla" in landing.summary


def test_the_pip_tiers_show_the_dice_as_rolled_split_by_upper_hand():
    history = brawl()
    assert [t.effect for t in SYSTEM.tiers(history.state)][1:3] == [
        "1 pip off a die",  # no roll yet: nobody to strike
        "2 pips off a die",
    ]
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    run(history, RollRound(), (7, 5, 9, 4))  # the goblin has the upper hand: Orla is struck
    rows = [(t.label, t.low, t.high, t.effect) for t in SYSTEM.tiers(history.state)]
    assert rows == [
        ("Goblin 2", -2, -2, "Health d6→d4"),  # the goblin's upper hand strikes Orla
        ("Goblin 1", -1, -1, "Health d6→d5"),
        ("ties", 0, 0, "nothing lands"),
        ("Orla 1", 1, 1, "Health d4→d3"),  # Orla's strikes the goblin
        ("Orla 2", 2, 2, "Health d4→d2"),
    ]
    landing = SYSTEM.landing(history.state)
    assert landing is not None and (landing.tier, landing.value) == (1, -1)
    run(history, LandDamage(split=(("Health", 1),)))  # the goblin's pip on Orla
    run(history, LandDamage())  # and Orla's kept one on the goblin
    assert history.state.last_roll_applied
    # Applied, the rows still say what the roll could do as it was rolled.
    assert [(t.label, t.low, t.high, t.effect) for t in SYSTEM.tiers(history.state)] == rows
    assert SYSTEM.landing(history.state) == landing


def test_a_save_from_before_the_dice_as_rolled_were_kept_says_what_it_knows():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    run(history, RollRound(), (7, 5, 9, 4))
    own = structs.replace(br_state(history.state), struck_dice=())
    old = history.state.update(system_state=own)  # as such a save opens
    assert [t.effect for t in SYSTEM.tiers(old)][:2] == ["Health d6→d4", "Health d6→d5"]
    run(history, LandDamage())
    own = structs.replace(br_state(history.state), struck_dice=())
    old = history.state.update(system_state=own)  # its sheets are no longer as rolled
    assert [t.effect for t in SYSTEM.tiers(old)][:2] == ["2 pips off a die", "1 pip off a die"]


def test_several_actors_against_one_target_each_compare_with_its_one_roll():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c2", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1"))
    # Orla 6, 3; Ann Health 2, Charm 8; Goblin Stab 5.
    events = run(history, RollRound(), (6, 3, 2, 8, 5))
    first, second = rolled(events).contests
    assert (first.top_id, second.top_id) == ("c1", "c2")
    assert first.bottom == second.bottom  # the goblin rolled once
    assert [(p.dealer_id, p.target_id, p.pips) for p in pending_now(history.state)] == [
        ("c1", "c3", 2),
        ("c2", "c3", 2),
    ]


def test_a_target_that_paid_for_no_pool_rolls_only_d1s():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    events = run(history, RollRound(), (1, 2))
    [contest] = rolled(events).contests
    assert contest.bottom == ()
    # 2 beats the missing d1; 1 ties it.
    assert [(p.pips, p.upper) for p in pending_now(history.state)] == [(1, True)]


def test_static_opposition_is_a_difficulty_pool():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against=None, difficulty=(10, 10, 4)))
    # Orla 8, 6 (and a missing d1) vs difficulty 9, 3, 2: the difficulty wins the first pair.
    events = run(history, RollRound(), (8, 6, 9, 3, 2))
    assert not any(isinstance(e, GoalGained) for e in events)
    assert [(p.dealer_id, p.pips) for p in pending_now(history.state)] == [(None, 2)]
    run(history, LandDamage(split=(("Health", 2),)))
    assert size(history, "c1", "Health") == 4
    rejects(brawl(), BuildPool(combatant_id="c1", against=None), "needs dice")


def test_wearing_a_difficulty_down_to_zero_gains_the_goal():
    """Issue 30, R3-10: a difficulty is worn down as abilities are, round after round."""
    history = brawl()
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Climb the wall")))
    run(history, BuildPool(combatant_id="c1", against=None, difficulty=(6, 4)))
    # Orla 8, 2 vs 3, 1: both pairs Orla's, the upper hand keeps both: the d4 falls to d2.
    events = run(history, RollRound(), (8, 2, 3, 1))
    assert not any(isinstance(e, GoalGained) for e in events)
    assert not me(history, "c1").goal.gained  # type: ignore[union-attr]
    assert (
        "Orla wears the difficulty d6,d4 down by 2: d6,d2"
        in describe(history.state, events[-1]).plain
    )
    form = {f.key: f.default for f in SYSTEM.action_form(history.state, "pool", "c1")}
    assert form["difficulty"] == "d6,d2"  # the next round faces what is left
    run(history, NextTurn())
    run(history, BuildPool(combatant_id="c1", against=None, difficulty=(6, 2)))
    events = run(history, RollRound(), (8, 2, 5, 1))
    assert GoalGained(combatant_id="c1", reason="wore the difficulty down") in events
    assert me(history, "c1").goal.gained  # type: ignore[union-attr]
    assert SYSTEM.sheet_stats(me(history, "c1"))[2] == "✓ Climb the wall"
    assert br_state(history.state).worn == ()


def test_a_new_goal_faces_a_fresh_difficulty():
    history = brawl()
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Climb the wall")))
    run(history, BuildPool(combatant_id="c1", against=None, difficulty=(6, 4)))
    run(history, RollRound(), (8, 2, 3, 1))
    assert [w.dice for w in br_state(history.state).worn] == [(6, 2)]
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Run away")))
    assert br_state(history.state).worn == ()


def test_the_log_shows_both_sorted_rows_and_each_pairs_result():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    before = history.state
    events = run(history, RollRound(), (5, 6, 9, 4))  # Fencing 5, Wits 6: sorted 6 5
    text = describe(before, rolled(events)).plain
    assert "Orla vs Goblin: Goblin has the upper hand" in text
    assert "  Orla    6  5   d6 d8" in text
    assert "  Goblin  9  4   d10 d4" in text
    assert "▼  ▲" in text
    assert "Orla 1 success, keeps 1 · Goblin 1 success, keeps 1" in text


# --- helping and situational goals ------------------------------------------------------------


def helped_round() -> tuple[History, list[object]]:
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c2"))
    run(history, BuildPool(combatant_id="c3", against="c1"))
    # Helping first: Ann Health 6, Charm 8 vs three d8s 7, 2, 5 -> 2 kept, 1 failure kept.
    # Then Orla Fencing 4, Wits 3 and the help die 8; Goblin Stab 5.
    events = run(history, RollRound(), (6, 8, 7, 2, 5, 4, 3, 8, 5))
    return history, events


def test_helping_pools_roll_first_and_each_success_is_a_roll_of_the_die_for_the_ally():
    history, events = helped_round()
    helping = rolled(events, "helping")
    assert events.index(helping) < events.index(rolled(events))
    [contest] = helping.contests
    assert [d.size for d in contest.bottom] == [8, 8, 8]
    assert DiceGained(combatant_id="c1", kind="situation", size=8, uses=2, source_id="c2") in events
    # The help die is rolled by Orla this round, automatically, and one use is left.
    [main] = rolled(events).contests
    assert [d.label for d in main.top] == ["Fencing", "Wits", "situation"]
    assert me(history, "c1").situation == (TempDie(8, 1),)


def test_each_helping_failure_gives_the_helper_a_penalty_die_for_one_roll():
    history, events = helped_round()
    assert DiceGained(combatant_id="c2", kind="penalty", size=8, uses=1, source_id="c2") in events
    assert me(history, "c2").penalty == (TempDie(8, 1),)
    run(history, NextTurn())
    run(history, SetGoal(combatant_id="c2", goal=Goal(text="Hit it")))
    run(history, BuildPool(combatant_id="c2", against="c3"))
    # Ann 3, 4, then her penalty d8 (6) is rolled on the goblin's side.
    events = run(history, RollRound(), (3, 4, 6))
    [contest] = rolled(events).contests
    assert [(d.label, d.face) for d in contest.bottom] == [("penalty", 6)]
    assert me(history, "c2").penalty == ()


def test_a_situational_goal_rolls_with_the_others_and_its_die_waits_for_later_rolls():
    history = brawl()
    run(history, SetGoal(combatant_id="c1", goal=Goal(kind="situational", die=6)))
    run(history, BuildPool(combatant_id="c1"))
    # Orla 8, 5 vs three d6s 3, 2, 1 (her missing die ties the 1).
    events = run(history, RollRound(), (8, 5, 3, 2, 1))
    assert rolled(events).contests[0].kind == "situational"
    assert DiceGained(combatant_id="c1", kind="situation", size=6, uses=2, source_id="c1") in events
    assert me(history, "c1").situation == (TempDie(6, 2),)
    assert pending_now(history.state) == ()  # a situation roll deals no damage
    run(history, NextTurn())
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Hit it")))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, RollRound(), (1, 1, 6))
    assert me(history, "c1").situation == (TempDie(6, 1),)


# --- effects ------------------------------------------------------------------------------------


def test_a_d8_less_3_pips_is_a_d5():
    history = brawl(("Orla", ORLA), ("Goblin", "Body: Stab d8, Health d4"))
    run(history, BuildPool(combatant_id="c1", extra=("Health",), against="c2"))
    run(history, RollRound(), (8, 6, 6))
    run(history, LandDamage(split=(("Stab", 3),)))
    assert size(history, "c2", "Stab") == 5
    assert SYSTEM.sheet_stats(me(history, "c2"))[1] == "Stab d5/8, Health d4"


def test_successes_can_be_split_and_must_all_land():
    history = orla_wins()
    rejects(history, LandDamage(split=(("Stab", 1),)), "2 pips to land on Goblin, not 1")
    rejects(history, LandDamage(split=(("Stab", 0), ("Health", 2))), "at least 1")
    run(history, LandDamage(split=(("Stab", 1), ("Health", 1))))
    assert (size(history, "c3", "Stab"), size(history, "c3", "Health")) == (9, 3)
    rejects(history, LandDamage(), "have all landed")
    rejects(brawl(), LandDamage(), "roll the round first")


def test_an_ability_at_zero_gains_the_goal_of_the_side_that_took_it_there():
    history = orla_wins()
    assert len(run(history, LandDamage(split=(("Stab", 1), ("Health", 1))))) == 1
    assert not me(history, "c1").goal.gained  # type: ignore[union-attr]
    history = brawl(("Orla", ORLA), ("Goblin", "Body: Stab d2, Health d6"))
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Disarm it")))
    run(history, BuildPool(combatant_id="c1", against="c2"))
    run(history, RollRound(), (8, 6))
    events = run(history, LandDamage(split=(("Stab", 2),)))
    assert GoalGained(combatant_id="c1", reason="Goblin's Stab is at zero", about_id="c2") in events
    assert me(history, "c1").goal.gained  # type: ignore[union-attr]
    assert history.state.combatant("c2").conditions == ()  # only Health kills
    alert = SYSTEM.alerts(history.state, events[1])
    assert alert == [
        "Orla gains its goal: declare a new goal (s: Goal) or let the other side cede."
    ]
    run(history, NextTurn())
    rejects(history, BuildPool(combatant_id="c2", base=("Stab",)), "Stab is at zero")


def test_health_at_zero_is_death():
    history = brawl(("Orla", ORLA), ("Ann", ANN), ("Goblin", "Body: Stab d10, Health d2"))
    run(history, BuildPool(combatant_id="c1", extra=("Health",), against="c3"))
    run(history, RollRound(), (8, 6, 6))
    events = run(history, LandDamage())  # all on Health, the default: 3 pips on a d2
    assert size(history, "c3", "Health") == 0  # the pip past zero is lost
    assert (
        GoalGained(combatant_id="c1", reason="Goblin's Health is at zero", about_id="c3") in events
    )
    assert any(isinstance(e, ConditionAdded) and e.condition.name == "Dead" for e in events)
    assert SYSTEM.alerts(history.state, events[-1]) == ["Goblin's Health is at zero: Goblin dies."]
    run(history, NextTurn())
    rejects(history, BuildPool(combatant_id="c3", against="c1"), "dead")


def test_a_side_cedes_after_the_effects_and_the_other_gains_its_goal():
    history = orla_wins()
    rejects(history, Cede(combatant_id="c3", to_id="c1"), "Land this round's damage first")
    run(history, LandDamage())
    events = run(history, Cede(combatant_id="c3", to_id="c1", ability="Health"))
    assert GoalGained(combatant_id="c1", reason="Goblin ceded", about_id="c3") in events
    assert size(history, "c3", "Health") == 0  # the winner's goal took it to zero
    assert history.state.combatant("c3").condition("Dead") is not None
    assert me(history, "c3").goal is None


def test_outcome_dice_are_gained_as_abilities_or_inflicted_and_rolled_against():
    history = brawl()
    sword = OutcomeDie("Sword", 6, "gained")
    rejects(history, AddOutcomeDie(combatant_id="c1", die=sword), "category")
    run(history, AddOutcomeDie(combatant_id="c1", die=sword, category="Body"))
    assert size(history, "c1", "Sword") == 6
    run(history, AddOutcomeDie(combatant_id="c3", die=OutcomeDie("Limp", 4, "inflicted")))
    run(history, BuildPool(combatant_id="c1", extra=("Sword",), against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1"))
    # Orla: Fencing, Wits, Sword; Goblin: Stab, then its Limp d4 on Orla's side.
    events = run(history, RollRound(), (2, 2, 2, 5, 4))
    [contest] = rolled(events).contests
    assert [d.label for d in contest.top] == ["Fencing", "Wits", "Sword", "Limp"]


# --- replay and saves ---------------------------------------------------------------------------


def test_every_die_is_in_the_events_so_a_replay_rolls_nothing():
    history, _ = helped_round()
    run(history, LandDamage())
    replayed = History.from_records(history.records)
    assert replayed.state == history.state
    assert decode(encode(history)).state == history.state


def test_status_and_alerts_read_well_without_turns():
    history = brawl()
    assert SYSTEM.status(history.state) == "all sides act at once · paid: nobody yet"
    run(history, BuildPool(combatant_id="c1", against="c3"))
    assert SYSTEM.status(history.state).endswith("paid: Orla")
    run(history, RollRound(), (8, 6))
    assert SYSTEM.status(history.state) == ""
    # the header's waiting part
    assert SYSTEM.pending(history.state) == "Orla lands 2 on Goblin's Health"
    landed = fold_onto(history.state, decide(history.state, LandDamage(), ScriptedDice(())))
    # Every seat reads it: a player's n is refused (the GM ends the round), so it says whose.
    assert SYSTEM.status(landed) == "rolled: cede (s), or the GM ends the round (n)"
    before = history.state
    [turn] = run(history, NextTurn())
    assert "Round 2: every side states its goal" in SYSTEM.alerts(before, turn)[0]
    assert "never landed" in SYSTEM.alerts(before, turn)[1]
    assert pending_now(history.state) == ()
