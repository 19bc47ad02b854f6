"""LiveHack: what waits is a hit whose damage table is not applied; a damage roll after a hit
carries it on; a solo attacker never rolls over another's hit."""

from __future__ import annotations

from rules import solo
from rules.commands import AddCombatant, DiscardConsequence, NextTurn, SetSolo
from rules.engine import describe
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackRoll,
    LiveHackSheet,
)
from tests.helpers import new_history, run


def hit(attack: int = 12):
    """Orla (c1) hits the Goblin (c2) against Reflex, both taking zero: margin = attack."""
    history = new_history()
    run(history, AddCombatant(name="Orla", side="heroes", sheet=LiveHackSheet(attack=attack)))
    run(history, AddCombatant(name="Goblin", side="foes", sheet=LiveHackSheet()))
    run(history, roll())
    return history


def roll(defense: str = "reflex", attacker: str = "c1", defender: str = "c2") -> LiveHackRoll:
    return LiveHackRoll(
        attacker_id=attacker,
        defender_id=defender,
        defense=defense,  # type: ignore[arg-type]
        attacker_take="zero",
        defender_take="zero",
    )


def test_a_hit_waits_with_its_damage_table_row_and_a_miss_leaves_nothing():
    history = hit(12)
    assert SYSTEM.pending(history.state) == "Goblin takes 3 Wounds, Incapacitated"
    run(history, LiveHackApplyConsequence())
    assert SYSTEM.pending(history.state) == ""
    missed = hit(-3)
    assert missed.state.last_roll.margin < 0  # type: ignore[union-attr]
    assert SYSTEM.pending(missed.state) == ""


def test_the_damage_roll_after_a_hit_carries_it_on():
    history = hit(3)
    state = history.state
    assert SYSTEM.follow_up(state, "roll")  # the roll dialog opens without a question
    assert not SYSTEM.follow_up(state, "grim")  # a grim test is never the damage roll
    assert SYSTEM.follow_up(state, "roll", roll("fortitude"))
    assert not SYSTEM.follow_up(state, "roll", roll("reflex"))  # another to-hit roll leaves it
    assert not SYSTEM.follow_up(state, "roll", roll("fortitude", "c2", "c1"))  # someone else's
    run(history, roll("fortitude"))
    assert not SYSTEM.follow_up(history.state, "roll")  # damage rolled: its table waits


def test_a_discarded_hit_is_logged_and_never_applied():
    history = hit(3)
    before = history.state
    [event] = run(history, DiscardConsequence())
    assert describe(before, event).plain == "⊘ Discarded, not applied: Goblin takes 1 Wounds"
    assert history.state.combatant("c2").sheet.wounds == 0
    assert history.state.last_roll_discarded and SYSTEM.pending(history.state) == ""


def test_a_solo_attacker_waits_while_another_s_hit_is_not_applied():
    history = hit(3)
    run(history, SetSolo("foes"))
    run(history, NextTurn())  # the app asks first; the rules alone let the turn pass
    assert history.state.current_id == "c2"
    assert solo.next_move(history.state) is None  # the Goblin would roll over Orla's hit
    run(history, DiscardConsequence())
    move = solo.next_move(history.state)
    assert move is not None and isinstance(move.command, LiveHackRoll)
