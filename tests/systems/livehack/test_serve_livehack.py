"""A served LiveHack table: what its hidden rolls, margins and rollovers leave a player to see
(issue 17's cases, with LiveHack's dice and wording), and who may discard a hidden result."""

from __future__ import annotations

from msgspec import structs

from rules.commands import AddCondition, DiscardConsequence, EditCombatant, NextTurn
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.events import ConsequenceDiscarded
from rules.mentions import mentions
from rules.permissions import refusal
from rules.systems.livehack.events import (
    LiveHackApplyConsequence,
    LiveHackCancel,
    LiveHackHold,
    LiveHackJointRoll,
    LiveHackRoll,
    Rollover,
)
from rules.visibility import Viewer, follow, hidden_ids, sight
from tests.serve.serve_helpers import SECRET, encounter
from tests.serve.test_hidden import PLAYER, LiveLog, lines
from tracker.screens.encounter_keys.roles import may_use
from tracker.serve.seats import Table
from tracker.session import EncounterSession
from tracker.store import export

ALICE = Viewer(role="player", name="Alice")


def player_view(session: EncounterSession) -> tuple[list[str], list[str], Encounter]:
    """A player's log lines and notifications from the whole history, and the state seen."""
    history = session.history
    hidden = frozenset(hidden_ids(history.effective_events(), history.state))
    pairs, seen = follow(history.in_effect(), history.state, hidden)
    found = [line for event, before in pairs for line in lines(before, event)]
    alerts = [a for event, before in pairs for a in session.system.alerts(before, event)]
    return found, alerts, seen


def test_a_hidden_attackers_wounds_show_on_orla_without_margin_dice_or_attacker() -> None:
    session, ids = encounter(system="livehack")
    session.dice = ScriptedDice([12, 11, 1, 1, 1])  # the boon explodes: a sure hit on Orla
    # A damage roll (against Fortitude): the table answers it, not a to-hit roll.
    session.execute(
        LiveHackRoll(attacker_id=ids[SECRET], defender_id=ids["Orla"], defense="fortitude")
    )
    session.execute(LiveHackApplyConsequence())
    gm = [line for e, b in session.history.in_effect() for line in lines(b, e)]
    [wounded] = [line for line in gm if line.startswith("Orla takes ")]
    assert "(margin +" in wounded
    seen, _, _ = player_view(session)
    assert wounded.split(" (margin")[0] in seen
    assert not any("margin" in line or SECRET in line for line in seen)
    assert not any(line.strip().startswith("Orla:") for line in seen), "the defence's dice"


def test_the_players_consequences_pane_keeps_the_last_roll_they_saw() -> None:
    session, ids = encounter(system="livehack")
    table = Table(session)
    session.dice = ScriptedDice([12, 11, 1, 1, 1])  # Orla's boon explodes: a sure hit
    session.execute(
        LiveHackRoll(attacker_id=ids["Orla"], defender_id=ids["Goblin"], defense="fortitude")
    )
    orla_rolled = session.state.last_roll
    shown = session.system.landing(table.sight(PLAYER).state)
    assert session.system.pending(table.sight(PLAYER).state).startswith("Goblin takes")
    session.dice = SeededDice(3)
    session.execute(LiveHackRoll(attacker_id=ids[SECRET], defender_id=ids["Brak"]))
    for seen in (table.sight(PLAYER).state, player_view(session)[2]):
        assert seen.last_roll == orla_rolled  # not "No roll yet"
        assert session.system.landing(seen) == shown
        assert session.system.pending(seen) == ""  # a newer roll left it behind
        assert seen.last_roll_applied and seen.last_roll_discarded
    table.close()


def test_a_new_round_orla_s_turn_and_her_dying_alert_follow_a_hidden_actor() -> None:
    # Orla, Brak, Goblin, then the hidden one: the last to act.
    session, ids = encounter(system="livehack")
    orla = session.state.combatant(ids["Orla"])
    session.execute(
        EditCombatant(combatant_id=orla.id, sheet=structs.replace(orla.sheet, wounds=9))
    )
    session.execute(AddCondition(orla.id, "Dying"))
    table = Table(session)
    live = LiveLog(table)
    for _ in range(4):
        session.execute(NextTurn())
    gm = [line for e, b in session.history.in_effect() for line in lines(b, e)]
    assert f"▶ {SECRET}'s turn" in gm and "— Round 2 —" in gm
    seen, alerts, _ = player_view(session)
    for shown, told in ((seen, alerts), (live.lines, live.alerts)):
        assert shown[-2:] == ["— Round 2 —", "▶ Orla's turn"]
        assert any(a.startswith("End of round 1: Orla is dying") for a in told)
        assert not any(SECRET in line for line in [*shown, *told])
    assert "## Round 2" in export.to_markdown(session.history).splitlines()
    table.close()


def test_a_hidden_holders_margin_bonus_is_not_hinted_at_in_the_header() -> None:
    session, ids = encounter(system="livehack")
    state = session.state
    held = Rollover(holder_id=ids[SECRET], target_id=ids["Orla"], bonus=3)
    state = state.update(system_state=structs.replace(state.system_state, rollover=held))
    assert session.system.status(state) == f"{SECRET}: margin bonus +3"
    seen = sight(state, ALICE, hidden_ids(session.history.effective_events(), state)).state
    assert session.system.status(seen) == ""


def test_a_discarded_result_of_a_hidden_roll_is_hidden_and_discarding_is_the_gm_s() -> None:
    session, ids = encounter(system="livehack")
    session.dice = ScriptedDice([12, 11, 1, 1, 1])  # the boon explodes: a sure hit on Orla
    session.execute(
        LiveHackRoll(attacker_id=ids[SECRET], defender_id=ids["Orla"], defense="fortitude")
    )
    state = session.state
    assert session.system.pending(state).startswith("Orla takes ")
    seen = sight(state, ALICE, hidden_ids(session.history.effective_events(), state))
    assert session.system.pending(seen.state) == ""  # no waiting line hints at the roll
    alice = Viewer(role="player", name="Alice", assigned=frozenset({ids["Orla"]}))
    assert "GM" in str(refusal(state, alice, DiscardConsequence()))
    assert not may_use(alice, "livehack", "discard_consequence")
    session.execute(DiscardConsequence())
    [discarded] = [
        e for e in session.history.effective_events() if isinstance(e, ConsequenceDiscarded)
    ]
    assert ids[SECRET] in discarded.combatant_ids
    pairs = seen.pairs(session.history.in_effect(), session.state)
    assert not any(isinstance(event, ConsequenceDiscarded) for event, _ in pairs)


def test_ids_in_tuples_are_mentioned() -> None:
    """msgspec keeps a tuple a tuple: a joint action's participants are mentioned too."""
    joint = LiveHackJointRoll(kind="cooperation", participant_ids=("c1", "c2"), defender_id="c3")
    assert mentions(joint) == {"c1", "c2", "c3"}


def test_holding_a_hits_margin_is_its_attackers_players_choice_not_its_defenders() -> None:
    """Hold and cancel act for whoever made the last roll (``LAST_ROLLER``): Dave, playing
    Orla, held the Goblin's margin over her and so spared her its damage roll."""
    session, ids = encounter(system="livehack")
    session.dice = ScriptedDice([12, 11, 1, 1, 1])  # the boon explodes: a sure hit on Orla
    session.execute(LiveHackRoll(attacker_id=ids["Goblin"], defender_id=ids["Orla"]))
    state = session.state
    defender = Viewer(role="player", name="Dave", assigned=frozenset({ids["Orla"]}))
    attacker = Viewer(role="player", name="Gil", assigned=frozenset({ids["Goblin"]}))
    said = "Only the GM, or the player whose combatant made the last roll, can do that"
    for command in (LiveHackHold(description="behind crates"), LiveHackCancel()):
        assert refusal(state, defender, command) == said
        assert refusal(state, attacker, command) is None
