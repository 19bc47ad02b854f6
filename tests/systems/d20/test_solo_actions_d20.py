"""Solo play picks a stat block's actions by their expected effect (#41, srd-solo): the breath
when it is back and several foes are in reach, the Multiattack part by part otherwise, a
legendary action by its effect per cost and the cheap one with one left; D5-03."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.commands import SetInitiative
from rules.dice import SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.forecast import all_solo
from rules.registry import get_system
from rules.system import Move
from rules.systems.d20 import uses
from rules.systems.d20.actions import named
from rules.systems.d20.events import ACTION, LEGENDARY, D20Attack, D20SaveEffect
from rules.systems.d20.solo import threat
from rules.systems.d20.solo_actions import AREA, save_value
from tests.systems.d20.support import DRAGON_SHEET, HERO, card, fight

SYSTEM = get_system("d20")
STURDY = card(HERO, hp="200/200", ac="15", attack_bonus="5", damage="1d8+3 slashing",
              saves="Str +3 Dex +1 Con +2")  # fmt: skip


def lair(heroes: int, hero: Any = STURDY) -> Encounter:
    """The Adult Red Dragon (c1) on its turn against ``heroes`` heroes (c2...), every side
    played by the tracker."""
    people = [("Adult Red Dragon", "foes", DRAGON_SHEET)]
    people += [(f"Hero {n}", "party", hero) for n in range(heroes)]
    state = fight(*people)
    for number, fighter in enumerate(state.combatants):  # the dragon first, then c2, c3...
        state = fold_onto(state, decide(state, SetInitiative(fighter.id, str(20 - number)),
                                        SeededDice(0)))  # fmt: skip
    return all_solo(state)  # round 1, the dragon's turn


def moves(state: Encounter, seed: int, until: Any) -> tuple[Encounter, list[Move]]:
    """The tracker's moves from ``state`` until ``until(state)``, with seeded dice."""
    dice, made = SeededDice(seed), []
    for _ in range(200):
        if until(state):
            return state, made
        move = SYSTEM.solo_move(state)
        assert move is not None
        made.append(move)
        state = fold_onto(state, decide(state, move.command, dice))
    raise AssertionError("the fight did not get there")


def named_moves(made: list[Move], who: str) -> list[tuple[str, str, str]]:
    """(action, of, usage) of ``who``'s commands that play a stat block action."""
    out = []
    for move in made:
        command = move.command
        if isinstance(command, (D20Attack, D20SaveEffect)) and move.actor_id == who:
            out.append((command.action, command.of, command.usage))
    return out


def test_the_dragon_breathes_when_its_breath_is_back_and_several_foes_are_in_reach() -> None:
    state = lair(3)
    move = SYSTEM.solo_move(state)
    assert move is not None and isinstance(move.command, D20SaveEffect)
    assert (move.command.action, move.command.usage) == ("Fire Breath", ACTION)
    assert move.command.target_ids == ("c2", "c3", "c4")
    assert (move.command.ability, move.command.dc, move.command.damage) == ("dex", 21, "18d6 fire")


def test_a_breath_reaches_at_most_three_foes_the_policys_target_first() -> None:
    state = lair(5)
    move = SYSTEM.solo_move(state)
    assert move is not None and isinstance(move.command, D20SaveEffect)
    assert len(move.command.target_ids) == AREA == 3


def test_the_dragon_makes_its_multiattack_part_by_part_while_its_breath_recharges() -> None:
    state = uses.spend(lair(1), "c1", "Fire Breath")
    _, made = moves(state, 3, lambda s: s.current_id != "c1")
    assert named_moves(made, "c1") == [
        ("Frightful Presence", "Multiattack", ACTION),
        ("Bite", "Multiattack", ACTION),
        ("Claw", "Multiattack", ACTION),
        ("Claw", "Multiattack", ACTION),
    ]


def test_the_dragon_makes_its_multiattack_while_its_breath_recharges() -> None:
    state = uses.spend(lair(3), "c1", "Fire Breath")
    move = SYSTEM.solo_move(state)
    assert move is not None and isinstance(move.command, D20SaveEffect)
    assert (move.command.action, move.command.of) == ("Frightful Presence", "Multiattack")
    assert move.command.target_ids == ("c2", "c3", "c4")  # no damage: every foe of its choice


def test_legendary_actions_go_by_effect_per_cost_then_the_cheap_one_with_one_left() -> None:
    state = lair(3)  # three ends of a turn before the dragon's own: 3 legendary actions
    _, made = moves(state, 5, lambda s: s.round == 2 and s.current_id == "c1")
    legendary = [m for m in named_moves(made, "c1") if m[2] == LEGENDARY]
    # Wing Attack (2 actions) over three foes is worth more per action than one Tail Attack;
    # the one left buys the Tail Attack, its Tail made as the legendary action
    assert legendary == [("Wing Attack", "", LEGENDARY), ("Tail", "Tail Attack", LEGENDARY)]


def test_a_save_effects_worth_is_the_exact_mean_capped_at_each_targets_hit_points() -> None:
    state = lair(2, card(HERO, hp="10/10", ac="15", saves="Dex +1"))
    dragon, foes = state.combatant("c1"), [state.combatant("c2"), state.combatant("c3")]
    breath = named(DRAGON_SHEET.actions, "Fire Breath")
    assert breath is not None
    # 18d6 averages 63: far past 10 hit points either way, so each is worth its 10
    assert save_value(breath, dragon, foes, threat) == 20
    wing = named(DRAGON_SHEET.legendary_actions, "Wing Attack")
    assert wing is not None
    one = save_value(wing, dragon, foes[:1], threat)
    # Dex +1 against DC 22 always fails; 2d6+8 averages 15, capped at 10; prone is worth half
    # the hero's average damage against the dragon (its default attack, +0 against AC 19)
    assert one == 10 + Fraction(1, 2) * threat(foes[0], dragon)
