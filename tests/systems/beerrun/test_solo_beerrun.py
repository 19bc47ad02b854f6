"""Beer Run solo play: goals, pools, where the pips land, ceding, and a fight to its end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.commands import AddCombatant, AddCondition, NextTurn, SetPolicy, SetSolo
from rules.dice import ScriptedDice, SeededDice
from rules.engine import apply, describe, fold, new_encounter
from rules.events import NoteAdded, SoloChose
from rules.history import History
from rules.systems.beerrun.decide import pending_now, round_pools
from rules.systems.beerrun.events import BuildPool, LandDamage, RollRound, SetGoal
from rules.systems.beerrun.sheet import BeerRunSheet, Goal, parse_abilities
from rules.systems.beerrun.solo import POLICIES, in_the_fight, target_for
from tracker.session import EncounterSession


def sheet(abilities: str, intensity: int) -> BeerRunSheet:
    return BeerRunSheet(abilities=parse_abilities(abilities), intensity=intensity)


def brawl(dice, policy: str = "base", thug_intensity: int = 6) -> EncounterSession:
    session = EncounterSession(History(new_encounter("Alley", "beerrun")), dice)
    orla = sheet("Body: Fencing d8, Health d6; Mind: Wits d6", 8)
    thug = sheet("Body: Brawl d8, Health d6; Mind: Cunning d4", thug_intensity)
    session.execute(AddCombatant(name="Orla", side="heroes", sheet=orla))
    session.execute(AddCombatant(name="Thug", side="foes", sheet=thug))
    session.execute(SetGoal(combatant_id="c1", goal=Goal(text="Get past")))
    session.execute(SetPolicy("c2", policy))
    session.execute(SetSolo("foes"))
    return session


def why(session: EncounterSession) -> list[str]:
    """The "why" lines of the last record, as the log shows them."""
    records = session.history.applied_in_effect()
    state = fold(e for r in records[:-1] for e in r.events)
    lines = []
    for event in records[-1].events:
        if isinstance(event, SoloChose):
            lines.append("".join(s.text for s in describe(state, event).lines[0]))
        state = apply(state, event)
    return lines


def test_turning_solo_on_picks_a_goal_and_pays_for_the_pool():
    session = brawl(ScriptedDice([]))
    thug = session.state.combatant("c2")
    assert thug.sheet.goal == Goal(kind="conflict", text="Defeat Orla")
    assert thug.sheet.intensity == 5
    (pool,) = [p for p in round_pools(session.state) if p.combatant_id == "c2"]
    assert pool.against == "c1" and [d.label for d in pool.dice] == ["Brawl", "Cunning"]
    assert why(session) == [
        "⚙ Thug (base): picks a conflict goal: defeat Orla",
        "⚙ Thug (base): takes on Orla: pays 1 Intensity for Brawl d8 Cunning d4",
    ]


def test_an_aggressive_side_buys_an_extra_die_while_intensity_lasts():
    session = brawl(ScriptedDice([]), "aggressive")
    (pool,) = [p for p in round_pools(session.state) if p.combatant_id == "c2"]
    assert pool.cost == 2 and [d.label for d in pool.dice] == ["Brawl", "Cunning", "Health"]
    low = brawl(ScriptedDice([]), "aggressive", thug_intensity=3)
    (pool,) = [p for p in round_pools(low.state) if p.combatant_id == "c2"]
    assert pool.cost == 1


def test_the_aggressive_target_is_the_weakest_foe():
    session = brawl(ScriptedDice([]))
    session.execute(
        AddCombatant(name="Ann", side="heroes", sheet=sheet("Body: Health d4; Mind: Charm d8", 3))
    )
    state = session.state
    target, reason = target_for(state, state.combatant("c2"), "aggressive")
    assert target.name == "Ann" and reason == "goes for Ann, the weakest (Health d4)"


def play_round(session: EncounterSession, faces: list[int], extra: tuple[str, ...] = ()) -> None:
    """Orla pays and the round rolls: the Thug's dice first (it paid first), then Orla's."""
    session.dice = ScriptedDice(faces)
    session.execute(BuildPool(combatant_id="c1", against="c2", extra=extra))
    session.execute(RollRound())


def test_the_tracker_lands_its_pips_on_health_or_the_best_die():
    # The Thug d8 d4 rolls 8 4; Orla d8 d6 rolls 1 1: two successes, upper hand, on Orla.
    session = brawl(ScriptedDice([]))
    play_round(session, [8, 4, 1, 1])
    assert session.state.combatant("c1").sheet.ability("Health").size == 4
    assert why(session) == ["⚙ Thug (base): lands 2 on Orla's Health: d6 → d4"]
    cautious = brawl(ScriptedDice([]), "cautious")
    play_round(cautious, [8, 4, 1, 1])
    assert cautious.state.combatant("c1").sheet.ability("Fencing").size == 6
    assert why(cautious) == ["⚙ Thug (cautious): lands 2 on Orla's Fencing d8, its best die"]


def test_a_cautious_side_cedes_at_half_health_after_the_effects():
    session = brawl(ScriptedDice([]), "cautious")
    play_round(session, [1, 1, 8, 6, 6], extra=("Health",))  # Orla keeps 3 against d8 d4 d1
    session.execute(LandDamage())  # Health d6 → d3; after the effects the Thug gives up
    thug = session.state.combatant("c2")
    assert thug.condition("Ceded") and thug.sheet.goal is None
    assert session.state.combatant("c1").sheet.goal.gained  # type: ignore[union-attr]
    assert why(session) == [
        "⚙ Thug (cautious): Health d3 of d6: it gives up the fight, and cedes to Orla",
    ]
    session.execute(NextTurn())  # a ceded side plays no more
    assert not [p for p in round_pools(session.state) if p.combatant_id == "c2"]


def test_a_side_with_no_intensity_left_cedes():
    session = brawl(ScriptedDice([]), "base", thug_intensity=1)
    play_round(session, [2, 2, 2, 2])  # every pair ties: nothing lands
    assert session.state.combatant("c2").condition("Ceded")
    assert "no Intensity left for another pool: it gives up" in why(session)[0]


def test_undo_takes_back_the_round_and_the_trackers_landing():
    session = brawl(ScriptedDice([]))
    session.execute(BuildPool(combatant_id="c1", against="c2"))
    before = session.state
    session.dice = ScriptedDice([8, 4, 1, 1])
    session.execute(RollRound())
    session.undo()
    assert session.state == before


@pytest.mark.parametrize("policy", ["base", "aggressive", "cautious"])
def test_a_seeded_solo_brawl_runs_to_its_end_with_only_the_players_commands(policy):
    session = brawl(SeededDice(11), policy)
    over = False
    for _ in range(20):
        if session.state.combatant("c1").sheet.intensity >= 1:
            session.execute(BuildPool(combatant_id="c1", against="c2"))
        session.execute(RollRound())
        while pending_now(session.state):
            session.execute(LandDamage())
        over = not all(in_the_fight(c) for c in session.state.combatants)
        if over:
            break
        session.execute(NextTurn())
    assert over


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    policies=st.lists(st.sampled_from([p.id for p in POLICIES]), min_size=2, max_size=2),
)
def test_two_against_two_every_policy_plays_to_the_end_without_a_refusal(seed, policies):
    session = EncounterSession(History(new_encounter("Yard", "beerrun")), SeededDice(seed))
    for name, side, abilities in (
        ("Orla", "heroes", "Body: Fencing d8, Health d6; Mind: Wits d6"),
        ("Ann", "heroes", "Body: Health d6; Mind: Charm d8"),
        ("Thug", "foes", "Body: Brawl d8, Health d6; Mind: Cunning d4"),
        ("Goon", "foes", "Body: Club d6, Health d8"),
    ):
        session.execute(AddCombatant(name=name, side=side, sheet=sheet(abilities, 7)))
    session.execute(SetPolicy("c3", policies[0]))
    session.execute(SetPolicy("c4", policies[1]))
    session.execute(SetSolo("foes"))

    def standing(side: str) -> list[str]:
        return [c.id for c in session.state.combatants if c.side == side and in_the_fight(c)]

    for _ in range(30):
        if not standing("foes") or not standing("heroes"):
            break
        for hero in standing("heroes"):
            if session.state.combatant(hero).sheet.intensity >= 1:
                session.execute(BuildPool(combatant_id=hero, against=standing("foes")[0]))
        if round_pools(session.state):
            session.execute(RollRound())
        while pending_now(session.state):
            session.execute(LandDamage())
        session.execute(NextTurn())
    assert (
        not standing("foes")
        or not standing("heroes")
        or all(session.state.combatant(c).sheet.intensity == 0 for c in standing("heroes"))
    )
    notes = [e.text for e in session.history.effective_events() if isinstance(e, NoteAdded)]
    assert notes == []


def test_a_goal_naming_a_foe_out_of_the_fight_is_picked_anew():
    session = brawl(ScriptedDice([]))
    ann = sheet("Body: Health d4; Mind: Charm d8", 3)
    session.execute(AddCombatant(name="Ann", side="heroes", sheet=ann))
    session.execute(AddCondition("c1", "Dead"))  # the tracker answers at once
    assert why(session) == [
        "⚙ Thug (base): Orla is out of the fight; picks a conflict goal: defeat Ann"
    ]
    session.execute(NextTurn())
    assert why(session) == ["⚙ Thug (base): takes on Ann: pays 1 Intensity for Brawl d8 Cunning d4"]
    (pool,) = [p for p in round_pools(session.state) if p.combatant_id == "c2"]
    assert pool.against == "c3"
