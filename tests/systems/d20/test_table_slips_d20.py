"""Slips a GM met playing Generic d20 at 80x24 (session 28's testing), each mended:
a heal of -5 was logged as 0 and spent the action; a saving throw effect typed without a
damage dealt 2d6 fire (the dialog's default was a value, not a hint); a turn's start said
"regains 10 HP (off)" for a troll burnt, and "regains 10 HP" at full hit points; the waiting
line said a damage of two types twice; a Multiattack's dialog after its last part said
"part 3 of 3" until Enter refused it; the actions' menu said exhaustion is set 1 to 6."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules.commands import NextTurn
from rules.dice import SeededDice
from rules.engine import decide, describe
from rules.errors import Rejected
from rules.systems.d20.action_forms import part_note
from rules.systems.d20.events import D20Apply, D20Attack, D20Heal, D20SaveEffect
from rules.systems.d20.forms import action_command
from rules.systems.d20.sheet import sheet_from_values
from rules.systems.d20.system import SYSTEM
from rules.systems.d20.turn_edge_events import D20TurnPassed
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight, run

TROLL = card(hp="84/84", ac="15", actions="Multiattack: Bite, Claw x2; Bite: +7, 1d6+4 "
             "piercing; Claw: +7, 2d6+4 slashing", traits="Regeneration 10 acid fire")  # fmt: skip


@pytest.mark.parametrize("amount", ["-5", "0", "1d4-5"])
def test_a_heal_of_nothing_is_refused(amount: str) -> None:
    state = fight(("Orla", "party", HERO_SHEET), ("Bram", "party", HERO_SHEET))
    with pytest.raises(Rejected, match="Healing must be more than 0"):
        decide(state, D20Heal("c1", "c2", amount), SeededDice(1))


def test_a_saving_throw_effect_typed_without_damage_deals_none() -> None:
    state = fight(("Orla", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))
    command = action_command(state, "save", {"targets": "c2"}, state.combatant("c1"))
    assert isinstance(command, D20SaveEffect) and command.damage == ""


def test_a_turns_start_says_what_its_regeneration_does() -> None:
    orla = sheet_from_values({"damage": "1d8+3 fire"}, HERO_SHEET)
    state = fight(("Orla", "party", orla), ("Troll", "foes", TROLL))
    passed = lambda s: next(e for e in decide(s, NextTurn(), None) if isinstance(e, D20TurnPassed))  # noqa: E731
    said = lambda s: describe(s, passed(s)).plain  # noqa: E731
    assert said(state) == "Troll's turn starts: nothing to regenerate (at its maximum)"
    state, _ = run(state, D20Attack("c1", "c2"), 15, 7)
    state, _ = run(state, D20Apply())
    assert said(state) == "Troll's turn starts: no regeneration (switched off)"
    plain = structs.replace(TROLL, hp=50, traits=("Regeneration 10",))
    state = fight(("Orla", "party", orla), ("Troll", "foes", plain))
    assert said(state) == "Troll's turn starts: regains 10 HP"


def test_a_damage_of_two_types_is_said_once_while_it_waits() -> None:
    flame = sheet_from_values({"damage": "1d8+3 slashing + 2d6 fire"}, HERO_SHEET)
    state = fight(("Orla", "party", flame), ("Goblin", "foes", FOE_SHEET))
    state, _ = run(state, D20Attack("c1", "c2"), 15, 5, 2, 3)
    assert SYSTEM.pending(state) == "Goblin takes 13 (8 slashing + 5 fire)"


def test_a_multiattack_done_says_its_action_is_used_before_enter() -> None:
    state = fight(("Troll", "foes", TROLL), ("Orla", "party", HERO_SHEET))
    for part in ("Bite", "Claw", "Claw"):
        state, _ = run(state, D20Attack("c1", "c2", action=part, of="Multiattack"), 2)
    said = part_note(state, D20Attack("c1", "c2", action="Claw", of="Multiattack"))
    assert said.startswith("Multiattack: the action is used: refused")


def test_the_exhaustion_action_says_0_to_6() -> None:
    found = next(a for a in SYSTEM.actions(fight()) if a.id == "exhaustion")
    assert "0 to 6" in found.description


def test_an_effects_name_too_long_is_refused_not_cut() -> None:
    """It was cut at 40 characters without a word ("... Beneath t")."""
    state = fight(("Orla", "party", HERO_SHEET), ("Imp", "foes", FOE_SHEET))
    howl = "Dreadful Howl of the Deep Ones Beneath the Sunken Floor"
    with pytest.raises(Rejected, match="Effect: at most 40 characters"):
        decide(state, D20SaveEffect("c1", ("c2",), howl, "wis", 13), SeededDice(1))
    fine = D20SaveEffect("c1", ("c2",), "  Dreadful   Howl ", "wis", 13)
    assert decide(state, fine, SeededDice(1))[0].effect == "Dreadful Howl"
