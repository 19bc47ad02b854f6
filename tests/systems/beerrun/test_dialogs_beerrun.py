"""Beer Run's dialogs (parsing, previews and refusals) and the GM's helping difficulty, a
helper attacked, when to cede (issue 18)."""

from __future__ import annotations

import pytest

from rules.commands import NextTurn, RemoveCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.systems.beerrun.decide import br_state, pending_now, plan_pool
from rules.systems.beerrun.events import (
    BuildPool,
    Cede,
    LandDamage,
    RollRound,
    SetGoal,
)
from rules.systems.beerrun.sheet import (
    Goal,
)
from rules.systems.beerrun.system import SYSTEM
from tests.systems.beerrun.brawl import (
    GOBLIN,
    ORLA,
    brawl,
    orla_wins,
    rejects,
    rolled,
    run,
)

# --- dialogs: parsing, previews and refusals ------------------------------------------------


def test_the_pool_preview_shows_cost_opposition_and_refusals():
    history = brawl()
    state = history.state
    preview = SYSTEM.preview(state, "pool", {"who": "c1", "dice": "+Health", "against": "c3"})
    assert preview == (
        "Fencing d8 Wits d6 + Health d6: 2 Intensity (1 + 1 for 1 extra); "
        "Orla has 10, leaves 8. Against Goblin"
    )
    missing = SYSTEM.preview(state, "pool", {"who": "c3", "dice": "", "against": "c1"})
    assert "No Mind die: rolls with less" in missing
    typo = SYSTEM.preview(state, "pool", {"who": "c1", "dice": "+Helth", "against": "c3"})
    assert typo == "Orla has no ability 'Helth' (has: Fencing, Health, Wits)"
    alone = SYSTEM.preview(state, "pool", {"who": "c1", "dice": "", "against": "difficulty"})
    assert alone.endswith("A difficulty pool needs dice, like d10,d10,d4")
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    helping = SYSTEM.preview(history.state, "pool", {"who": "c2", "against": "c3"})
    assert helping.endswith("Helping Orla: against d8,d8,d8, rolled first")


def test_dialog_values_are_checked_with_a_sentence():
    state = brawl().state
    goal = {"who": "c2", "kind": "helping", "text": "", "ally": "", "die": "d8"}
    with pytest.raises(Rejected, match="needs the ally"):
        SYSTEM.action_command(state, "goal", goal)
    with pytest.raises(Rejected, match="like d8"):
        SYSTEM.action_command(state, "goal", {**goal, "ally": "c1", "die": "eight"})
    with pytest.raises(Rejected, match="like d12,d8,2d6"):
        SYSTEM.action_command(state, "pool", {"who": "c1", "difficulty": "hard"})
    with pytest.raises(Rejected, match="needs a name"):
        SYSTEM.action_command(state, "outcome", {"who": "c1", "name": " ", "die": "d6"})
    history = orla_wins()
    with pytest.raises(Rejected, match="Health 2, Fencing 1"):
        SYSTEM.action_command(history.state, "damage", {"split": "Health two"})
    assert SYSTEM.preview(history.state, "damage", {"split": "Stab 2"}) == (
        "Orla (upper hand) lands 2 on Goblin: Stab d10 → d8"
    )


def test_discarded_successes_are_hollow_in_the_log():
    history = brawl(("Orla", ORLA), ("Goblin", "Body: Stab d10, Health d4, Claws d6"))
    run(history, BuildPool(combatant_id="c1", extra=("Health",), against="c2"))
    run(history, BuildPool(combatant_id="c2", extra=("Health", "Claws"), against="c1"))
    # Orla 8 1 1 vs the goblin 5 3 2: Orla takes the upper hand; the goblin keeps its 1st
    # success and discards its 2nd.
    before = history.state
    events = run(history, RollRound(), (8, 1, 1, 5, 3, 2))
    text = describe(before, rolled(events)).plain
    assert "  Goblin  5  3  2   d10 d4 d6" in text
    assert "          ▲  ▼  ▽" in text
    assert "Orla 1 success, keeps 1 · Goblin 2 successes, keeps 1" in text


def test_a_listed_die_outside_the_gms_categories_is_an_extra_and_twice_is_refused():
    history = brawl(("Orla", ORLA + "; Luck: Fortune d4"), ("Goblin", GOBLIN))
    listed = plan_pool(
        history.state, history.state.combatant("c1"), ("Fortune", "Fencing", "Wits"), ()
    )
    assert [a.name for a in listed.base] == ["Fencing", "Wits"]
    assert [a.name for a in listed.extra] == ["Fortune"] and listed.cost == 2
    rejects(history, BuildPool(combatant_id="c1", base=("Wits", "Fencing", "wits")), "twice")


def test_a_pool_of_someone_who_left_is_not_rolled():
    history = brawl()
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, BuildPool(combatant_id="c3", against="c1"))
    run(history, RemoveCombatant("c3"))
    run(history, RemoveCombatant("c2"))
    events = run(history, RollRound(), (4, 4))  # Orla still rolls what she paid for
    assert rolled(events).contests == ()
    assert pending_now(history.state) == ()


def test_successes_against_a_side_with_every_die_at_zero_are_lost():
    history = brawl(("Orla", ORLA), ("Goblin", "Body: Health d1"))
    run(history, BuildPool(combatant_id="c1", against="c2"))
    run(history, RollRound(), (8, 6))
    run(history, LandDamage(split=(("Health", 2),)))  # one pip past zero is lost
    run(history, NextTurn())
    run(history, BuildPool(combatant_id="c1", against="c2"))
    before = history.state
    events = run(history, RollRound(), (8, 6))
    [landed] = run(history, LandDamage())
    assert landed.hits == ()  # type: ignore[attr-defined]
    assert (
        describe(before, landed).plain
        == "Orla's successes find every die of Goblin at zero already"
    )
    assert events and pending_now(history.state) == ()
    rejects(history, LandDamage(), "have all landed: cede")


# --- the GM's helping difficulty, a helper attacked, when to cede (issue 18) -------------------


@pytest.mark.parametrize(
    ("difficulty", "replace", "expected"),
    [
        ((), 3, [8, 8, 8]),  # "Often in practice ... roll against three of those dice"
        ((), 2, [8, 8]),
        ((10, 2, 2, 2), 1, [10, 8, 2, 2]),  # the GM replaces only one
        ((10, 2, 2, 2), 0, [10, 2, 2, 2]),  # or none
        ((10, 2, 2, 2), 3, [10, 8, 8, 8]),
    ],
)
def test_the_gm_chooses_how_many_difficulty_dice_become_the_target_die(
    difficulty: tuple[int, ...], replace: int, expected: list[int]
):
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    run(history, BuildPool(combatant_id="c2", difficulty=difficulty, replace=replace))
    [pool] = br_state(history.state).pools
    assert list(pool.difficulty) == expected


def test_dice_replaced_is_0_to_3_and_a_blank_difficulty_needs_one():
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    rejects(history, BuildPool(combatant_id="c2", replace=4), "up to 3 difficulty dice, not 4")
    rejects(history, BuildPool(combatant_id="c2", replace=0), "replace 1 to 3")
    fields = {f.key: f for f in SYSTEM.action_form(history.state, "pool", "c2")}
    assert fields["replace"].default == "3"
    values = {key: f.default for key, f in fields.items()} | {"who": "c2", "replace": "1"}
    values["difficulty"] = "d10,d2,d2"
    command = SYSTEM.action_command(history.state, "pool", values)
    assert isinstance(command, BuildPool) and command.replace == 1
    assert command.difficulty == (10, 2, 2)


def test_a_helper_attacked_in_the_same_round_resists_with_its_helping_pool():
    # "Every pool is now rolled by its owner, and they are compared to each other": Ann helps
    # Orla, and the Goblin attacks Ann. Ann's helping roll (Health 6, Charm 8) meets the Goblin.
    history = brawl()
    run(history, SetGoal(combatant_id="c2", goal=Goal(kind="helping", ally_id="c1", die=8)))
    run(history, BuildPool(combatant_id="c2"))
    run(history, BuildPool(combatant_id="c3", against="c2"))
    # Helping: Ann 6, 8 vs three d8s 7, 2, 5. Then the Goblin's Stab 5.
    events = run(history, RollRound(), (6, 8, 7, 2, 5, 5))
    [contest] = rolled(events).contests
    assert (contest.top_id, contest.bottom_id) == ("c3", "c2")
    assert [(d.label, d.face) for d in contest.bottom] == [("Health", 6), ("Charm", 8)]
    # Ann's 8 beats the 5 (upper hand), her 6 meets the Goblin's missing die: 2 successes.
    assert [(p.dealer_id, p.pips) for p in pending_now(history.state)] == [("c2", 2)]


def test_a_side_cedes_only_after_a_rounds_effects():
    # "Dice pools are assembled, rolled, and compared, and abilities adjusted appropriately.
    # Either side may then decide to cede victory."
    history = brawl()
    cede = Cede(combatant_id="c3", to_id="c1")
    rejects(history, cede, "after a round's effects: roll the first round")
    run(history, BuildPool(combatant_id="c1", against="c3"))
    rejects(history, cede, "Round 1's pools are paid: roll it")
    run(history, RollRound(), (8, 6))  # Orla 8, 6 against the Goblin's missing dice
    rejects(history, cede, "Land this round's damage first")
    run(history, LandDamage())
    decide(history.state, cede, ScriptedDice([]))  # after the effects: accepted
    run(history, NextTurn())  # round 2, nobody has paid yet: still the moment to cede
    decide(history.state, cede, ScriptedDice([]))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    rejects(history, cede, "Round 2's pools are paid")
