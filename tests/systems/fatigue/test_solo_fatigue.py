"""Fatigue & Thresholds played by the tracker: each policy's choices, then whole fights."""

from __future__ import annotations

import pytest

from rules import solo
from rules.commands import AddCombatant, AddCondition, EditCombatant, NextTurn, SetPolicy, SetSolo
from rules.dice import ScriptedDice, SeededDice
from rules.engine import decide, describe, new_encounter
from rules.events import SoloChose
from rules.history import History
from rules.systems.fatigue.arithmetic import Cost
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from rules.systems.fatigue.solo import FLED, fill, next_move, out_of_fight, owes
from rules.systems.fatigue.system import (
    SYSTEM,
    FatigueAid,
    FatigueApply,
    FatigueCallOff,
    FatigueCheck,
    FatigueChecked,
    FatigueTakeSuckage,
)
from tests.helpers import notes_in_effect
from tracker.session import EncounterSession

SWORD = Weapon(name="Sword", kind="melee", n=3, fumble=8, hits=(10, 20, 40))
AXE = Weapon(name="Axe", kind="melee", n=4, fumble=8, hits=(12, 24, 48))


def sheet(skills: str = "", weapon: Weapon | None = None, **pools: int) -> FatigueSheet:
    parsed = tuple(Skill(n, int(v)) for n, v in (p.rsplit(" ", 1) for p in skills.split(", ") if p))
    return FatigueSheet(skills=parsed, weapons=(weapon,) if weapon else (), **pools)


def run(history: History, command: object, *faces: int) -> None:
    history.commit(decide(history.state, command, ScriptedDice(faces)), type(command).__name__)


def skirmish(*foes: tuple[str, FatigueSheet, str], ann: FatigueSheet | None = None) -> History:
    """Ann (c1, the player's) against solo foes (c2, c3...), each with its policy."""
    history = History(new_encounter("Bridge", "fatigue"))
    run(history, AddCombatant(name="Ann", side="party", sheet=ann or sheet("Sword 5", SWORD)))
    for name, card, _ in foes:
        run(history, AddCombatant(name=name, side="foes", sheet=card))
    run(history, SetSolo("foes"))
    for index, (_, _, policy) in enumerate(foes):
        run(history, SetPolicy(f"c{index + 2}", policy))
    return history


def ann_attacks(history: History, defender: str, ann_die: int, foe_die: int, **kw) -> None:
    """Ann's check, her sword against a dodge, with the two d20s given."""
    base = {
        "attacker_id": "c1",
        "defender_id": defender,
        "weapon": "Sword",
        "attacker_skills": ("Sword",),
        "defender_skills": ("Dodge",),
    }
    run(history, FatigueCheck(**{**base, **kw}), ann_die, foe_die)


def to_turn_of(history: History, combatant_id: str) -> None:
    while history.state.current_id != combatant_id:
        run(history, NextTurn())


# --- policies -------------------------------------------------------------------------------------


def test_three_policies_steady_first() -> None:
    assert [p.id for p in SYSTEM.solo_policies] == ["steady", "aggressive", "cautious"]
    history = skirmish(("Brute", sheet("Axe 2", AXE), "cautious"))
    assert solo.policy_of(history.state, history.state.combatant("c2")) == "cautious"


def test_steady_attacks_the_next_foe_with_its_weapon_and_skill_then_ends_its_turn() -> None:
    history = skirmish(("Brute", sheet("Dodge 1, Axe 2", AXE), "steady"))
    run(history, AddCombatant(name="Kell", side="party", sheet=sheet("Dodge 3")))
    to_turn_of(history, "c2")
    move = next_move(history.state)
    assert move is not None and move.actor_id == "c2"
    assert move.reason == "attacks Ann (the next foe in the order) with Axe"
    assert move.command == FatigueCheck(
        attacker_id="c2",
        defender_id="c1",
        weapon="Axe",
        attacker_skills=("Axe",),
        defender_skills=("Sword",),  # Ann has no Dodge: her first skill, as the dialog does
        defender_effort=(Cost("wind", 5),),
    )
    run(history, move.command, 10, 10)
    ended = next_move(history.state)
    assert ended is not None and ended.command == NextTurn()
    assert ended.reason == "its attack is made: ends its turn"


def test_a_solo_side_waits_while_the_player_owes_a_consequence() -> None:
    history = skirmish(("Brute", sheet("Axe 2", AXE), "steady"), ("Raider", sheet(), "steady"))
    to_turn_of(history, "c2")
    run(history, next_move(history.state).command, 20, 1)  # Ann loses: hers to pay
    run(history, next_move(history.state).command)  # the Brute ends its turn
    assert history.state.current_id == "c3"
    assert owes(history.state, history.state.last_roll).id == "c1"
    assert next_move(history.state) is None  # the Raider waits for Ann to pay
    run(history, FatigueApply())
    assert next_move(history.state).reason.startswith("attacks Ann")


def test_aggressive_goes_intense_at_the_most_wounded_foe_while_its_wind_lasts() -> None:
    history = skirmish(("Brute", sheet("Axe 2", AXE), "aggressive"))
    run(history, AddCombatant(name="Kell", side="party", sheet=sheet("Dodge 3", health=12)))
    to_turn_of(history, "c2")
    move = next_move(history.state)
    assert (
        move.reason == "attacks Kell (the most wounded foe) with Axe, intense: +5 for 12 Wind more"
    )
    assert move.command.attacker_attitude == "intense"
    tired = EditCombatant(combatant_id="c2", sheet=sheet("Axe 2", AXE, wind=20))
    run(history, tired)  # 4N + a dodge is 21 Wind: too little to go intense
    assert next_move(history.state).command.attacker_attitude == "ordinary"


def test_cautious_picks_the_most_tired_foe_and_flees_at_half_health() -> None:
    history = skirmish(("Brute", sheet("Axe 2", AXE), "cautious"))
    run(history, AddCombatant(name="Kell", side="party", sheet=sheet("Dodge 3", wind=10)))
    to_turn_of(history, "c2")
    assert next_move(history.state).reason.startswith("attacks Kell (the most tired foe)")
    run(history, EditCombatant(combatant_id="c2", sheet=sheet("Axe 2", AXE, health=15)))
    move = next_move(history.state)
    assert move.command == AddCondition("c2", FLED)
    assert move.reason == "flees: Health down to 15/30"
    run(history, move.command)
    passing = next_move(history.state)
    assert passing.command == NextTurn() and passing.reason == "has fled: passes its turn"


def test_down_spent_or_fled_is_out_of_the_fight() -> None:
    history = skirmish(("Brute", sheet(health=0), "steady"), ("Raider", sheet(), "steady"))
    state = history.state
    assert out_of_fight(state.combatant("c2")) == "is down (Health 0)"
    assert out_of_fight(state.combatant("c3")) == ""
    spent = state.combatant("c3").sheet.spent((Cost("wind", 40), Cost("stamina", 41)))
    run(history, EditCombatant(combatant_id="c3", sheet=spent))
    assert out_of_fight(history.state.combatant("c3")) == "is spent (no Wind or Stamina left)"


def test_nothing_to_do_once_every_foe_is_out() -> None:
    history = skirmish(("Brute", sheet("Axe 2", AXE), "steady"), ann=sheet(health=-3))
    to_turn_of(history, "c2")
    assert next_move(history.state) is None


def test_an_npc_who_is_down_passes_its_turn() -> None:
    history = skirmish(("Brute", sheet(health=-5), "aggressive"), ("Raider", sheet(), "steady"))
    to_turn_of(history, "c2")
    move = next_move(history.state)
    assert move.command == NextTurn() and move.reason == "is down (Health -5): passes its turn"


# --- settling a lost defense ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "dice", "expected"),
    [
        # Ann 5 + d20 against the Brute's d20 + Dodge 1, thresholds 10 apart.
        ("steady", (17, 10), FatigueTakeSuckage(2, "falls to one knee")),  # 11: 2 lift it
        ("steady", (19, 10), FatigueApply()),  # 13: 4 is too many
        ("aggressive", (17, 10), FatigueApply()),  # never
        ("cautious", (20, 1), FatigueTakeSuckage(4, "falls to one knee")),  # 23: spares Health
        # 13: 4 spare no Health; an attack with a sword is combat, not called off
        ("cautious", (19, 10), FatigueApply()),
    ],
)
def test_suckage_and_calling_off_by_policy(policy: str, dice: tuple[int, int], expected) -> None:
    history = skirmish(("Brute", sheet("Dodge 1"), policy))
    ann_attacks(history, "c2", *dice)
    move = next_move(history.state)
    assert move.actor_id == "c2" and move.command == expected


def test_a_cautious_npc_calls_off_a_task_outside_combat() -> None:
    history = skirmish(("Brute", sheet("Dodge 1"), "cautious"))
    ann_attacks(history, "c2", 19, 10, weapon="")  # 24 vs 11, no weapon: lost by 13
    move = next_move(history.state)
    assert move.command == FatigueCallOff(2)
    assert move.reason == "calls off the effort: nothing to pay instead of Flailing defense"


def test_suckage_names_what_it_lifts_to() -> None:
    history = skirmish(("Brute", sheet("Dodge 1"), "steady"))
    ann_attacks(history, "c2", 17, 10)
    reason = next_move(history.state).reason
    lifted = "lost by 9, Ordinary defense instead of Flailing defense"
    assert reason == f"takes 2 suckage (falls to one knee): {lifted}"


def test_an_intense_defense_cannot_be_called_off_so_it_pays() -> None:
    history = skirmish(("Brute", sheet("Dodge 1"), "cautious"))
    # Outside combat (no weapon), so only the intense attitude stops the calling off. The
    # Brute pays N + 3N = 20 Wind first: 25 vs 2 + 1 + 5 - 2, lost by 19 at spacing 8.
    ann_attacks(history, "c2", 20, 1, weapon="", defender_attitude="intense")
    move = next_move(history.state)
    assert move.command == FatigueApply() and move.reason == "pays for Bad defense"


def test_a_cautious_npc_pays_its_own_fumble_with_a_weapon() -> None:
    history = skirmish(("Brute", sheet("Axe 0", AXE), "cautious"))
    to_turn_of(history, "c2")
    run(history, next_move(history.state).command, 2, 10)  # 2 does not beat the line 8
    assert next_move(history.state).command == NextTurn()
    run(history, NextTurn())
    move = next_move(history.state)
    assert move.command == FatigueApply()  # combat: an axe's fumble is not called off
    assert move.reason == "pays for Flailing fumble"


def test_a_cautious_teammate_aids_a_defense_an_aid_could_save() -> None:
    history = skirmish(
        ("Brute", sheet("Dodge 1"), "steady"), ("Raider", sheet("Knife 2, Dodge 2"), "cautious")
    )
    ann_attacks(history, "c2", 10, 10)  # 15 vs 11: lost by 4
    move = next_move(history.state)
    assert move.actor_id == "c3"
    assert move.command == FatigueAid(
        helper_id="c3", side="defender", dice="1d20", skills=("Knife",), effort=(Cost("wind", 5),)
    )
    assert move.reason == "aids Brute, who lost by 4: an aid gives up to +8"
    run(history, move.command, 20)  # 22 of 30: +5, and the Brute holds
    assert owes(history.state, history.state.last_roll) is None
    assert next_move(history.state) is None


# --- a user's dialog ------------------------------------------------------------------------------


def test_the_check_dialog_gets_the_solo_defenders_dodge() -> None:
    history = skirmish(("Brute", sheet("Dodge 1, Axe 2", AXE), "cautious"))
    values = {"attacker": "c1", "defender": "c2", "defender_skills": "Axe"}
    filled, moves = fill(history.state, "roll", values)
    assert filled["defender_skills"] == "Dodge" and filled["defender_attitude"] == "intense"
    assert [m.reason for m in moves] == ["dodges with Dodge, intense: +5"]
    assert SYSTEM.action_command(history.state, "roll", filled).defender_attitude == "intense"


def test_the_players_own_fields_are_left_alone() -> None:
    history = skirmish(("Brute", sheet("Axe 2", AXE), "steady"))
    values = {"attacker": "c2", "defender": "c1", "defender_skills": "Sword"}
    filled, moves = fill(history.state, "roll", values)
    assert filled["defender_skills"] == "Sword" and filled["weapon"] == "Axe"
    assert [m.actor_id for m in moves] == ["c2"]
    assert fill(history.state, "suckage", {}) == ({}, [])
    nature = {"attacker": "nature", "defender": "c2", "defender_skills": "Climb"}
    assert fill(history.state, "roll", nature) == (nature, [])  # the GM's task
    assert fill(history.state, "roll", {"attacker": "dragon"}) == ({"attacker": "dragon"}, [])


def test_the_aid_dialog_gets_a_solo_helpers_skill_and_effort() -> None:
    history = skirmish(
        ("Brute", sheet("Dodge 1"), "steady"), ("Raider", sheet("Knife 2"), "steady")
    )
    filled, moves = fill(history.state, "aid", {"helper": "c3"})
    assert filled == {"helper": "c3", "skills": "Knife", "dice": "1d20", "effort": "5 Wind"}
    assert moves[0].reason == "aids with Knife"


# --- whole fights -------------------------------------------------------------------------------


def play(policy: str, seed: int, rounds: int = 60) -> EncounterSession:
    """A seeded fight where only the player's commands are sent: Ann attacks the first foe
    still standing, pays what she owes, and ends her turn; the tracker plays the rest."""
    history = skirmish(
        ("Brute", sheet("Axe 2, Dodge 1", AXE, health=20, health_max=20), policy),
        ("Raider", sheet("Sword 1, Dodge 2", SWORD, health=15, health_max=15), policy),
        ann=sheet("Sword 6, Dodge 4", SWORD, wind=60, wind_max=60),
    )
    session = EncounterSession(history, SeededDice(seed))
    for _ in range(rounds):
        state = session.state
        foes = [c for c in state.combatants if c.side == "foes" and not out_of_fight(c)]
        if not foes or out_of_fight(state.combatant("c1")):
            break
        pay(session)
        attack = FatigueCheck(
            attacker_id="c1",
            defender_id=foes[0].id,
            weapon="Sword",
            attacker_skills=("Sword",),
            defender_skills=("Dodge",),
        )
        session.execute(attack)
        pay(session)
        session.execute(NextTurn())
    return session


def pay(session: EncounterSession) -> None:
    state = session.state
    roll = state.last_roll
    if isinstance(roll, FatigueChecked) and not state.last_roll_applied:
        who = owes(state, roll)
        if who is not None and who.id == "c1":
            session.execute(FatigueApply())


def reasons(session: EncounterSession) -> list[str]:
    out = []
    for record in session.history.applied_in_effect():
        for event in record.events:
            if isinstance(event, SoloChose):
                out.append(event.reason)
    return out


@pytest.mark.parametrize("policy", ["steady", "aggressive", "cautious"])
def test_a_seeded_solo_fight_runs_to_its_end(policy: str) -> None:
    session = play(policy, seed=11)
    state = session.state
    outs = [out_of_fight(c) for c in state.combatants]
    assert all(outs[1:]) or outs[0], f"the fight did not end: {outs}"
    why = reasons(session)
    assert any(r.startswith("attacks Ann") for r in why)
    assert "its attack is made: ends its turn" in why
    assert any(r.startswith(("pays for", "takes", "calls off", "aids")) for r in why)
    line = describe(state, SoloChose("c2", policy, why[0])).lines[0]
    assert "".join(s.text for s in line).startswith(f"⚙ Brute ({policy}): ")


@pytest.mark.parametrize("policy", ["steady", "aggressive", "cautious"])
def test_no_policy_ever_asks_for_what_the_rules_refuse(policy: str) -> None:
    for seed in range(1, 16):
        session = play(policy, seed)
        notes = notes_in_effect(session.history)
        assert notes == [], f"seed {seed}: {notes}"


def test_no_prompt_for_a_choice_the_tracker_makes_for_a_solo_fighter() -> None:
    from rules.registry import get_system

    history = skirmish(("Brute", sheet("Dodge 1"), "steady"))
    before = history.state
    ann_attacks(history, "c2", 17, 10)  # the brute lost: suckage is its own choice
    roll = history.state.last_roll
    assert not any("suckage" in a for a in get_system("fatigue").alerts(before, roll))
    run(history, SetSolo("foes", on=False))
    assert any("suckage" in a for a in get_system("fatigue").alerts(history.state, roll))
