"""Pain Pool: what waits is the open roll's outcome (tokens, a bonus die, or a hero's damage
to place); the solo challenge strikes back only once it is settled, and its answer waits in
turn."""

from __future__ import annotations

from rules.commands import DiscardConsequence, SetSolo
from rules.dice import SeededDice
from rules.engine import describe
from rules.systems.painpool import demo
from rules.systems.painpool.events import ApplyOutcome
from rules.systems.painpool.roll import PainPoolRolled
from rules.systems.painpool.system import SYSTEM
from tracker.session import EncounterSession


def bridge(seed: int = 16) -> EncounterSession:
    """The demo with the challenge played by the tracker; seed 16: Bullet (c1) wins his
    attack, then loses the Juggernaut's answer."""
    session = EncounterSession(demo.build(), SeededDice(seed))
    session.execute(SetSolo("challenge"))
    return session


def roll_for(session: EncounterSession, hero: str) -> None:
    state = session.state
    values = {f.key: f.default for f in SYSTEM.action_form(state, "roll", hero)}
    session.execute(SYSTEM.action_command(state, "roll", {**values, "hero": hero}))


def test_the_demo_s_last_roll_is_settled():
    assert SYSTEM.pending(demo.build().state) == ""


def test_tokens_wait_then_the_answer_s_damage_waits_for_its_boons():
    session = bridge()
    roll_for(session, "c1")
    assert SYSTEM.pending(session.state) == "Juggernaut loses 1 health token"
    assert SYSTEM.pending_action(session.state) == ""  # d applies it alone
    session.execute(ApplyOutcome())  # settled: the Juggernaut strikes back at Bullet
    answer = session.state.last_roll
    assert isinstance(answer, PainPoolRolled) and answer.initiator == "challenge"
    assert SYSTEM.pending(session.state) == "Bullet takes 3 damage"
    assert SYSTEM.pending_action(session.state) == "damage"  # the player picks the boons


def test_a_discarded_answer_is_logged_and_the_challenge_does_not_strike_again():
    session = bridge()
    roll_for(session, "c1")
    session.execute(ApplyOutcome())
    before = session.state
    record = session.execute(DiscardConsequence())
    assert record is not None and len(record.events) == 1  # no new answer to an answer
    assert describe(before, record.events[0]).plain.endswith("Bullet takes 3 damage")
    assert session.state.combatant("c1").sheet == before.combatant("c1").sheet
    assert SYSTEM.pending(session.state) == ""
