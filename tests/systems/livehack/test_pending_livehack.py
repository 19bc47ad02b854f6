"""LiveHack: what waits is a hit's damage roll, then that roll's damage table row; the damage
roll after a hit carries it on; one attack deals damage once; a solo attacker never rolls over
another's hit."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules import solo
from rules.commands import AddCombatant, DiscardConsequence, NextTurn, SetSolo
from rules.dice import ScriptedDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.systems.livehack.system import (
    SYSTEM,
    LiveHackApplyConsequence,
    LiveHackHold,
    LiveHackRoll,
    LiveHackSheet,
)
from tests.helpers import new_history, no_dice, run


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


def test_a_hit_waits_for_its_damage_roll_whose_table_row_then_waits():
    history = hit(12)  # margin 12: +2 rolls over into the damage roll
    state = history.state
    assert SYSTEM.pending(state) == "Orla's damage roll on Goblin (Fortitude, +2 rolled over)"
    with pytest.raises(Rejected, match="A hit does no damage by itself"):
        decide(state, LiveHackApplyConsequence(), no_dice())
    damage = SYSTEM.consequence_command(state)  # d rolls the damage roll
    assert damage == LiveHackRoll(attacker_id="c1", defender_id="c2", defense="fortitude")
    run(history, damage, ScriptedDice([4, 1, 1, 1]))  # Orla +3, Goblin 0 + rolled over
    rolled = history.state.last_roll
    assert [p.label for p in rolled.attacker.parts] == ["attack", "rolled over"]
    assert rolled.margin == 12 + 2 + 3
    assert SYSTEM.pending(history.state) == "Goblin takes 4 Wounds, Dying"
    assert SYSTEM.consequence_command(history.state) == LiveHackApplyConsequence()
    run(history, LiveHackApplyConsequence())
    assert SYSTEM.pending(history.state) == ""
    missed = hit(-3)
    assert missed.state.last_roll.margin < 0  # type: ignore[union-attr]
    assert SYSTEM.pending(missed.state) == ""


def test_one_attack_deals_its_damage_once():
    """The to-hit roll is never read through the damage table: only its damage roll is, and
    once; the header's margin bonus goes with the damage roll that used it."""
    history = hit(7)  # margin 7: +1
    assert "+1 rolled over" in SYSTEM.pending(history.state)
    assert SYSTEM.status(history.state) == ""  # the waiting line says it already
    run(history, roll("fortitude"))  # margin 7 + 1 rolled over = 8: 2 Wounds
    assert history.state.system_state.rollover is None
    run(history, LiveHackApplyConsequence())
    assert history.state.combatant("c2").sheet.wounds == 2
    for again in (LiveHackApplyConsequence(), LiveHackHold()):
        with pytest.raises(Rejected):
            decide(history.state, again, no_dice())
    assert SYSTEM.pending(history.state) == ""


def test_a_hit_held_as_a_position_does_no_damage():
    history = hit(7)
    run(history, LiveHackHold(description="pinned against the wall"))
    state = history.state
    assert SYSTEM.pending(state) == "" and SYSTEM.status(state) == ""
    assert not SYSTEM.follow_up(state, "roll")  # no damage roll follows a held hit
    with pytest.raises(Rejected, match="already"):
        decide(state, SYSTEM.consequence_command(state), no_dice())
    assert state.combatant("c2").sheet.wounds == 0


def test_a_hit_and_its_damage_roll_read_as_the_text_says():
    history = hit(7)
    tiers = SYSTEM.tiers(history.state)
    # The margin bonus each band rolls over into the damage roll.
    assert [t.effect for t in tiers] == [
        "no damage roll",
        "hit, damage",
        "hit, damage +1",
        "hit, damage +2",
        "hit, damage +3+",
    ]
    lines = describe(history.state, history.state.last_roll).plain.split("\n")
    [line] = [line for line in lines if "damage roll next" in line]
    assert "+1 rolled over into it, or held as a position" in line
    run(history, structs.replace(roll("skill"), defender_skill="Spot"))
    assert SYSTEM.status(history.state) == "Orla: margin bonus +1"  # for a related roll
    assert SYSTEM.pending(history.state) == ""  # a skill's success leaves nothing to apply
    assert [t.effect for t in SYSTEM.tiers(history.state)][:3] == [
        "fails",
        "succeeds",
        "succeeds, +1",
    ]
    run(history, roll("fortitude"))
    assert SYSTEM.tiers(history.state)[2].effect == "2 Wounds, Discombobulated"


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
    history = hit(7)
    before = history.state
    [event] = run(history, DiscardConsequence())
    assert (
        describe(before, event).plain
        == "⊘ Discarded, not applied: Orla's damage roll on Goblin (Fortitude, +1 rolled over)"
    )
    assert history.state.combatant("c2").sheet.wounds == 0
    assert history.state.last_roll_discarded and SYSTEM.pending(history.state) == ""
    assert SYSTEM.status(history.state) == ""  # the margin bonus went with the hit
    assert not SYSTEM.follow_up(history.state, "roll")


def test_a_solo_attacker_waits_while_another_s_hit_is_not_applied():
    history = hit(3)
    run(history, SetSolo("foes"))
    run(history, NextTurn())  # the app asks first; the rules alone let the turn pass
    assert history.state.current_id == "c2"
    assert solo.next_move(history.state) is None  # the Goblin would roll over Orla's hit
    run(history, DiscardConsequence())
    move = solo.next_move(history.state)
    assert move is not None and isinstance(move.command, LiveHackRoll)
