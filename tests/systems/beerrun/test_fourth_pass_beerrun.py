"""Beer Run, read a fourth time (issue 39): which helping dice are replaced, said; and a side
killed by the upper hand lands nothing afterwards."""

from __future__ import annotations

from pathlib import Path

from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.systems.beerrun.decide import DEAD, pending_now
from rules.systems.beerrun.dice import replaced_text
from rules.systems.beerrun.events import (
    BuildPool,
    DamageLanded,
    LandDamage,
    PoolBuilt,
    RollRound,
    SetGoal,
    SuccessesLost,
)
from rules.systems.beerrun.sheet import Goal
from rules.systems.beerrun.system import SYSTEM
from tests.app.support import until
from tests.app.test_app_odds import pane_text
from tests.screen import screen_text
from tests.systems.beerrun.brawl import ANN, ORLA, brawl, run, size
from tests.systems.beerrun.test_app_beerrun import POOL, make_app, menu, select, tavern
from tracker.screens.summary import SummaryScreen


def log_text(app) -> str:
    return pane_text(screen_text(app), "Roll log")


# --- F4-10: "replace up to three dice": what was (not) replaced, and why -------------------

NONE_OF_THREE = (
    "the d8 replaces none of the 3 asked: d10,d10,d10 are no smaller, and replacing them "
    "would make it easier"
)


def test_what_the_target_die_replaces_is_said_with_the_reason() -> None:
    assert replaced_text((10, 10, 10), 8, 3) == NONE_OF_THREE
    assert replaced_text((10, 4), 8, 3) == (
        "the d8 replaces 1 of the 3 asked: d10 is no smaller, and replacing it would make it easier"
    )
    assert (
        replaced_text((4,), 8, 3) == "the d8 replaces 1 of the 3 asked: the pool has no more dice"
    )
    assert replaced_text((10, 2, 2), 8, 2) == "the d8 replaces 2 of the 2 asked"
    assert replaced_text((10, 2), 8, 0) == replaced_text((), 8, 3) == ""  # nothing to explain


def test_a_d8_help_against_three_d10s_says_none_is_replaced_in_the_dialog_and_the_log() -> None:
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    values = {"who": "c2", "against": "difficulty", "difficulty": "d10,d10,d10", "replace": "3"}
    preview = SYSTEM.preview(history.state, "pool", values)
    assert f"against d10,d10,d10, rolled first; {NONE_OF_THREE}" in preview
    before = history.state
    [built] = run(history, SYSTEM.action_command(history.state, "pool", values))
    assert isinstance(built, PoolBuilt) and built.pool.difficulty == (10, 10, 10)
    assert NONE_OF_THREE in describe(before, built).plain


async def test_the_dice_not_replaced_are_named_by_keys(tmp_path: Path) -> None:
    history = tavern()
    goal = SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8))
    history.commit(decide(history.state, goal, ScriptedDice([])), "goal")
    app = make_app(tmp_path, history, [])
    async with app.run_test(size=(80, 24)) as pilot:
        await select(pilot, 1)
        await menu(pilot, POOL)  # focus on Dice; then Against, Difficulty
        await pilot.press("tab", "tab", *"d10,d10,d10")
        await until(pilot, lambda: "replaces none of" in screen_text(app), "the preview")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.system_state.pools, "the pool paid")
        await until(pilot, lambda: "replaces none of the" in log_text(app), "the log")
        assert f"vs difficulty d10,d10,d10; {NONE_OF_THREE}" in log_text(app)


# --- F4-11: a side killed by the upper hand lands nothing afterwards -------------------------

GOBLIN_D2 = "Body: Stab d10, Health d2; Mind: Cunning d8"
GOBLIN_CUNNING_D2 = "Body: Stab d10, Health d6; Mind: Cunning d2"


def duel(goblin: str):
    history = brawl(("Orla", ORLA), ("Ann", ANN), ("Goblin", goblin))
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Dispatch the goblin")))
    run(history, BuildPool(combatant_id="c1", against="c3", extra=("Health",)))
    run(history, BuildPool(combatant_id="c3", against="c1", extra=("Health",)))
    # Orla: Fencing 8, Wits 5, Health 4; the Goblin: Stab 7, Cunning 6 or 2, Health 1 or 6.
    # Sorted 8 5 4 against 7 6 1 (or 7 6 2): Orla has the upper hand and keeps 2, the
    # Goblin keeps its one success.
    faces = (8, 5, 4, 7, 6, 1) if goblin == GOBLIN_D2 else (8, 5, 4, 7, 2, 6)
    run(history, RollRound(), faces)
    waiting = [(p.dealer_id, p.pips, p.upper) for p in pending_now(history.state)]
    assert waiting == [("c1", 2, True), ("c3", 1, False)]
    return history


def test_a_side_killed_by_the_upper_hand_lands_nothing_afterwards() -> None:
    history = duel(GOBLIN_D2)
    before = history.state
    events = run(history, LandDamage())  # Orla's 2 pips on the Goblin's Health d2: dead
    lost = next(e for e in events if isinstance(e, SuccessesLost))
    assert lost == SuccessesLost(combatant_id="c3", targets=("c1",), pips=1)
    assert history.state.combatant("c3").condition(DEAD) is not None
    assert pending_now(history.state) == () and history.state.last_roll_applied
    assert size(history, "c1", "Health") == 6  # the Goblin's blow never landed
    text = describe(before, lost).plain
    assert "Goblin dies before its 1 kept pip land on Orla: lost" in text


def test_a_side_whose_other_ability_reaches_zero_still_lands() -> None:
    # Only death stops a blow: an ability at zero is a goal gained, and the loser strikes.
    history = duel(GOBLIN_CUNNING_D2)
    events = run(history, LandDamage(split=(("Cunning", 2),)))
    assert not any(isinstance(e, SuccessesLost) for e in events)
    [(dealer, pips, _)] = [(p.dealer_id, p.pips, p.upper) for p in pending_now(history.state)]
    assert (dealer, pips) == ("c3", 1)
    landed = run(history, LandDamage())[0]
    assert isinstance(landed, DamageLanded) and size(history, "c1", "Health") == 5


async def test_a_dead_sides_lost_successes_are_in_the_log_by_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path, duel(GOBLIN_D2), [])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen), "the fight's end")
        await pilot.press("escape")  # the Goblin was the last foe: close the summary
        await until(pilot, lambda: "dies before its" in log_text(app), "the log")
        assert "Goblin dies before its 1 kept pip land on Orla: lost" in log_text(app)
        assert "waiting (d)" not in screen_text(app)  # nothing left to land
