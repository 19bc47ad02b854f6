"""LiveHack solo play: each policy's choices, an NPC's whole turn, and a fight to its end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import solo
from rules.commands import (
    AddCombatant,
    AddCondition,
    EditCombatant,
    NextTurn,
    SetPolicy,
    SetSolo,
)
from rules.dice import ScriptedDice, SeededDice
from rules.engine import apply, describe, fold, new_encounter
from rules.events import NoteAdded, SoloChose
from rules.history import History
from rules.systems.livehack.forms import roll_form
from rules.systems.livehack.solo import POLICIES, is_out, take_for, target_for
from rules.systems.livehack.system import (
    LiveHackApplyConsequence,
    LiveHackRolled,
    LiveHackSheet,
)
from tracker.session import EncounterSession

ORLA = LiveHackSheet(attack=4, reflex=3, fortitude=2, con=1, dexterity=1)
BRAK = LiveHackSheet(attack=3, reflex=1, fortitude=3, con=2)
GOBLIN = LiveHackSheet(attack=3, reflex=2, fortitude=2, con=1)


def fight(dice, policy: str = "roll", *, solo_on: bool = True) -> EncounterSession:
    """Orla and Brak (heroes) against a Goblin; the Goblin acts second."""
    session = EncounterSession(History(new_encounter("Cellar", "livehack")), dice)
    session.execute(AddCombatant(name="Orla", side="heroes", sheet=ORLA))
    session.execute(AddCombatant(name="Goblin", side="foes", sheet=GOBLIN))
    session.execute(AddCombatant(name="Brak", side="heroes", sheet=BRAK))
    session.execute(SetPolicy("c2", policy))
    if solo_on:
        session.execute(SetSolo("foes"))
    return session


def chosen(session: EncounterSession) -> list[str]:
    """The "why" lines of the last record, as the log shows them."""
    records = session.history.applied_in_effect()
    state = fold(e for r in records[:-1] for e in r.events)
    lines = []
    for event in records[-1].events:
        if isinstance(event, SoloChose):
            lines.append("".join(span.text for span in describe(state, event).lines[0]))
        state = apply(state, event)
    return lines


def roll_values(session: EncounterSession, **changes: str) -> dict[str, str]:
    values = {f.key: f.default for f in roll_form(session.state)}
    return {**values, **changes}


def user_roll(session: EncounterSession, **changes: str) -> None:
    """The user's roll dialog, submitted as the screen does: solo fields filled first."""
    values, moves = solo.fill(session.state, "roll", roll_values(session, **changes))
    command = session.system.action_command(session.state, "roll", values)
    session.execute(command, "roll", choices=moves)


# --- pure choices ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "own", "other", "defending", "take"),
    [
        ("roll", 9, 0, True, "roll"),
        ("take-zero", -3, 5, True, "zero"),
        ("aggressive", 9, 0, False, "roll"),
        ("cautious", 5, 3, True, "zero"),
        ("cautious", 3, 3, True, "roll"),  # a tie goes to the attacker: the defender is not ahead
        ("cautious", 3, 3, False, "zero"),
        ("cautious", 1, 4, False, "roll"),
    ],
)
def test_each_policy_rolls_or_takes_zero(policy, own, other, defending, take):
    assert take_for(policy, own, other, defending=defending)[0] == take


def test_the_reason_is_in_the_games_words():
    assert take_for("cautious", 5, 3, defending=True)[1] == (
        "takes zero: +5 already beats +3, no dice to go wrong"
    )


def test_each_policy_picks_its_target():
    session = fight(ScriptedDice([]), solo_on=False)
    session.execute(AddCombatant(name="Hurt", side="heroes", sheet=LiveHackSheet(wounds=3)))
    state = session.state
    goblin = state.combatant("c2")
    assert target_for(state, goblin, "aggressive")[1] == "goes for Hurt: the most hurt (Wounds 3)"
    assert target_for(state, goblin, "cautious")[1] == "faces Orla: the biggest threat (attack +4)"
    assert target_for(state, goblin, "roll")[1] == "attacks Orla"
    session.execute(AddCondition("c3", "Discombobulated"))
    assert target_for(session.state, goblin, "aggressive")[1] == "goes for Brak: dazed, Dex -10"


# --- the NPC's turn -----------------------------------------------------------------------------


def test_an_npc_attacks_rolls_damage_applies_it_and_ends_its_turn():
    # Goblin +3 vs Orla Reflex +4: boon 12→5 bane 1 = 16 → 19 vs Orla 2-3 = -1 → 3: margin 16.
    # Damage: +3 +3 rolled over vs Fortitude 2 + Con 1: 6-1 → 11 vs 3 + (4-4) = 3: margin 8.
    dice = ScriptedDice([12, 5, 1, 2, 3, 6, 1, 4, 4])
    session = fight(dice)
    session.execute(NextTurn())  # the Goblin's turn: the tracker plays it to its end
    assert session.state.current_id == "c3"
    orla = session.state.combatant("c1")
    assert orla.sheet.wounds == 2 and orla.condition("Discombobulated")
    assert chosen(session) == [
        "⚙ Goblin (roll): attacks Orla; rolls",
        "⚙ Goblin (roll): hit Orla by 16: rolls damage vs Fortitude; rolls",
        "⚙ Goblin (roll): the blow lands on Orla: 2 Wounds, Discombobulated",
        "⚙ Goblin (roll): ends its turn",
    ]
    assert dice.remaining == 0


def test_a_miss_ends_the_turn():
    dice = ScriptedDice([1, 12, 1, 12, 1, 1])  # Goblin 3-11 = -8 vs Orla 4+0: a miss
    session = fight(dice, "aggressive")
    session.execute(NextTurn())
    assert chosen(session)[-1] == "⚙ Goblin (aggressive): missed by 22: ends its turn"


def test_take_zero_never_rolls():
    dice = ScriptedDice([1, 1])  # Goblin +3 takes zero vs Orla Reflex+Dex 4 (rolling 1-1)
    session = fight(dice, "take-zero")
    session.execute(NextTurn())
    last = session.state.last_roll
    assert isinstance(last, LiveHackRolled)
    assert last.attacker.take == "zero" and last.attacker.dice is None
    assert dice.remaining == 0


def test_a_cautious_npc_holds_its_margin_bonus_then_cashes_it_in():
    # Cautious Goblin +3 vs Orla's +4 rolls; 12→3 - 1 = 14: 17 vs 4 + (1-1) = 4: margin 13.
    dice = ScriptedDice([12, 3, 1, 1, 1])
    session = fight(dice, "cautious")
    session.execute(NextTurn())
    goblin = session.state.combatant("c2")
    assert goblin.sheet.held_over("c1") == 2
    assert "holds +2 over Orla instead of a damage roll, to cash in" in chosen(session)[1]


def test_a_cautious_npc_cashes_in_on_its_next_attack():
    dice = ScriptedDice([12, 3, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2])
    session = fight(dice, "cautious")
    session.execute(NextTurn())  # holds +2 over Orla (see above)
    session.execute(NextTurn())
    session.execute(NextTurn())  # round 2: Orla passes, the Goblin attacks again
    lines = chosen(session)
    assert lines[0].startswith("⚙ Goblin (cautious): faces Orla: the biggest threat (attack +4), ")
    assert "with its +2 position" in lines[0]
    assert any("rolls damage" in line for line in lines)  # its damage roll cashes it in
    assert session.state.combatant("c2").sheet.held_over("c1") == 0


def test_a_solo_defender_defends_by_its_policy_and_the_log_says_why_first():
    session = fight(ScriptedDice([5, 5]), "take-zero")
    user_roll(session)  # Orla attacks the Goblin; only Orla's dice roll
    record = session.history.applied_in_effect()[-1]
    assert isinstance(record.events[0], SoloChose)
    assert chosen(session) == [
        "⚙ Goblin (take-zero): defends (Reflex): takes zero: +2 stands without dice"
    ]
    last = session.state.last_roll
    assert isinstance(last, LiveHackRolled) and last.defender.take == "zero"


def test_a_cautious_defender_pushes_effort_against_damage():
    session = fight(ScriptedDice([5, 5, 5, 5]), "cautious")
    user_roll(session, defense="fortitude")
    last = session.state.last_roll
    assert isinstance(last, LiveHackRolled)
    assert last.defender_effort == 2 and session.state.combatant("c2").sheet.fatigue == 2
    assert "pushes +2 effort to shrug off the blow" in chosen(session)[0]


def test_a_dying_npc_the_gm_marks_saves_at_once_then_passes_its_turn():
    session = fight(ScriptedDice([6, 1]), "roll")
    session.execute(AddCombatant(name="Grik", side="foes", sheet=GOBLIN))  # the fight goes on
    session.execute(AddCondition("c2", "Dying"))
    # No fall of its own to mark when the round began: it saves now (R3-09), once a round.
    assert chosen(session) == ["⚙ Goblin (roll): dying save, Fortitude vs Wounds 0: rolls"]
    session.execute(NextTurn())
    assert chosen(session) == ["⚙ Goblin (roll): cannot act (Dying): passes the turn"]
    assert session.state.current_id == "c3"


def test_a_failed_wis_check_costs_the_turn():
    session = fight(ScriptedDice([1, 9]), "roll")
    damaged = LiveHackSheet(attack=3, reflex=2, wis_damage=5)
    session.execute(EditCombatant(combatant_id="c2", sheet=damaged))
    session.execute(NextTurn())
    assert chosen(session) == [
        "⚙ Goblin (roll): Wis -5, a check vs DR 0 before acting: rolls",
        "⚙ Goblin (roll): failed its Wis check: does nothing this turn",
    ]


def test_undo_takes_back_the_users_command_with_the_trackers_answer():
    session = fight(SeededDice(3))
    before = session.state
    session.execute(NextTurn())
    assert session.state.current_id == "c3"
    session.undo()
    assert session.state == before


# --- a whole fight ------------------------------------------------------------------------------


def side_down(session: EncounterSession, side: str) -> bool:
    return all(is_out(c) for c in session.state.combatants if c.side == side)


def hero_turn(session: EncounterSession) -> None:
    """What the player does: attack, roll damage on a hit, apply it, pass."""
    me = session.state.current
    assert me is not None and me.side == "heroes"
    if not is_out(me) and not session.system.cannot_act(session.state, me):
        user_roll(session, defender="c2")
        last = session.state.last_roll
        assert isinstance(last, LiveHackRolled)
        if last.success:
            user_roll(session, defender="c2", defense="fortitude")
            if session.state.last_roll.success:  # type: ignore[union-attr]
                session.execute(LiveHackApplyConsequence())
    session.execute(NextTurn())


@pytest.mark.parametrize("policy", ["roll", "take-zero", "aggressive", "cautious"])
def test_a_seeded_solo_fight_runs_to_its_end_with_only_the_heroes_commands(policy):
    session = fight(SeededDice(7), policy)
    for _ in range(200):
        if side_down(session, "foes") or side_down(session, "heroes"):
            break
        hero_turn(session)
    assert side_down(session, "foes") or side_down(session, "heroes")
    assert any(isinstance(e, SoloChose) for e in session.history.effective_events())


def test_only_a_solo_combatants_fields_are_filled():
    session = fight(ScriptedDice([]), "take-zero", solo_on=False)
    values = roll_values(session)
    assert solo.fill(session.state, "roll", values) == (values, [])
    session.execute(SetSolo("foes"))
    goblin_attacks = roll_values(session, attacker="c2", defender="c1")
    filled, moves = solo.fill(session.state, "roll", goblin_attacks)
    assert filled == goblin_attacks and moves == []  # Orla is the user's: her dice stay hers


def test_a_solo_defender_against_a_joint_action_and_a_solo_roller_in_a_save():
    session = fight(ScriptedDice([]), "cautious")
    values = {
        "kind": "cooperation",
        "who0": "c1",
        "who1": "c3",
        "defender": "c2",
        "defense": "reflex",
        "defender_take": "roll",
    }
    filled, moves = solo.fill(session.state, "joint", values)
    # Reflex +2 is not ahead of Orla's +4: the underdog needs the dice.
    assert filled["defender_take"] == "roll"
    assert moves[0].reason == "defends: rolls: +2 against +4 needs the dice"
    session.execute(SetPolicy("c2", "take-zero"))
    filled, moves = solo.fill(session.state, "check", {"who": "c2", "take": "roll"})
    assert filled["take"] == "zero" and moves[0].actor_id == "c2"


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), policy=st.sampled_from([p.id for p in POLICIES]))
def test_a_policy_never_asks_for_what_the_rules_refuse(seed, policy):
    """Whatever the dice, every solo fight ends, and no move was refused or cut short."""
    session = fight(SeededDice(seed), policy)
    for _ in range(200):
        if side_down(session, "foes") or side_down(session, "heroes"):
            break
        hero_turn(session)
    assert side_down(session, "foes") or side_down(session, "heroes")
    notes = [e.text for e in session.history.effective_events() if isinstance(e, NoteAdded)]
    assert notes == []


def test_no_prompt_for_a_turn_the_tracker_plays():
    from rules.events import TurnAdvanced

    session = fight(ScriptedDice([]), "roll")
    session.execute(AddCondition("c2", "Incapacitated"))
    state = session.state
    to_goblin = TurnAdvanced(round=1, actor_id="c2", previous_id="c1")
    assert session.system.alerts(state, to_goblin) == []
    session.execute(SetSolo("foes", on=False))
    alerts = session.system.alerts(session.state, to_goblin)
    assert alerts == ["Goblin cannot act (Incapacitated): pass the turn with n."]
