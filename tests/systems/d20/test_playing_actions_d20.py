"""A d20 creature's stat block actions played by name (#41 item 1): an attack with its own
bonus, reach and damage, a save effect with its DC, a Multiattack's parts made one by one for
one action, legendary actions with their costs, reactions, an action with no roll logged; every
refusal one line."""

from __future__ import annotations

import pytest

from rules.encounter import Encounter
from rules.errors import Rejected
from rules.registry import get_system
from rules.systems.d20.economy import spent
from rules.systems.d20.events import (
    ACTION,
    EXTRA,
    LEGENDARY,
    REACTION,
    D20ActionUsed,
    D20Attack,
    D20Attacked,
    D20LegendaryAction,
    D20Saved,
    D20SaveEffect,
    D20UseAction,
)
from rules.systems.d20.standing import legendary_left
from rules.systems.d20.stat_actions import parts_left
from tests.systems.d20.support import DRAGON_SHEET, HERO_SHEET, card, fight, run, sheet
from tests.systems.d20.test_economy_d20 import started
from tests.systems.d20.test_srd_bundle_d20 import srd_entries

SYSTEM = get_system("d20")
FEAR = D20SaveEffect("c1", ("c2", "c3"), "Frightful Presence", "wis", 19, "", False,
                     "frightened", usage=ACTION, action="Frightful Presence",
                     of="Multiattack")  # fmt: skip


def lair() -> Encounter:
    """The Adult Red Dragon (c1) against Orla (c2) and Bram (c3)."""
    return fight(("Adult Red Dragon", "foes", DRAGON_SHEET), ("Orla", "party", HERO_SHEET),
                 ("Bram", "party", HERO_SHEET))  # fmt: skip


def text(state: Encounter, event: object) -> str:
    return SYSTEM.describe(state, event).plain


def test_a_bite_rolls_with_the_actions_bonus_and_damage_not_the_sheets_main_attack() -> None:
    state = started(lair())
    # 10 + 14 = 24 hits AC 15; 2d10 (3, 4) + 8 piercing and 2d6 (5, 6) fire
    _, events = run(state, D20Attack("c1", "c2", action="Bite"), 10, 3, 4, 5, 6)
    bite = events[0]
    assert isinstance(bite, D20Attacked)
    assert (bite.attack, bite.action, bite.bonus, bite.total) == ("Bite", "Bite", 14, 24)
    assert bite.damage_total == 3 + 4 + 8 + 5 + 6
    assert [p.damage_type for p in bite.damage_parts] == ["piercing", "fire"]
    # the tail: its own damage, 2d8+8 bludgeoning
    _, events = run(state, D20Attack("c1", "c2", action="tail"), 10, 1, 2)
    assert events[0].attack == "Tail" and events[0].damage_total == 11
    assert events[0].damage_type == "bludgeoning"


def test_an_action_named_alone_spends_the_whole_action() -> None:
    state = started(lair())
    state, _ = run(state, D20Attack("c1", "c2", action="Claw"), 1)
    assert spent(state, state.combatant("c1"), ACTION)
    with pytest.raises(Rejected, match="has used the action this turn"):
        run(state, D20Attack("c1", "c2", action="Bite"), 1)


def test_the_multiattacks_parts_are_made_one_by_one_for_one_action() -> None:
    state = started(lair())
    dragon = state.combatant("c1")
    assert [a.name for a in parts_left(state, dragon)] == [
        "Frightful Presence", "Bite", "Claw", "Claw"]  # fmt: skip
    state, events = run(state, FEAR, 2, 20)  # Orla fails, Bram saves
    saved = events[0]
    assert isinstance(saved, D20Saved)
    assert (saved.action, saved.of, saved.dc, saved.condition) == (
        "Frightful Presence", "Multiattack", 19, "frightened")  # fmt: skip
    assert not spent(state, state.combatant("c1"), ACTION)
    for part in ("Bite", "Claw"):
        state, _ = run(state, D20Attack("c1", "c2", action=part, of="Multiattack"), 1)
        assert not spent(state, state.combatant("c1"), ACTION)
    # a Claw named alone while the Multiattack is under way is its last part
    state, events = run(state, D20Attack("c1", "c3", action="Claw"), 1)
    assert events[0].of == "Multiattack"
    assert spent(state, state.combatant("c1"), ACTION)
    assert parts_left(state, state.combatant("c1")) == ()
    with pytest.raises(Rejected, match="has used the action this turn"):
        run(state, D20Attack("c1", "c2", action="Bite"), 1)


def test_a_second_action_while_the_multiattack_is_under_way_is_refused_in_one_line() -> None:
    state = started(lair())
    state, _ = run(state, D20Attack("c1", "c2", action="Bite", of="Multiattack"), 1)
    breath = D20SaveEffect("c1", ("c2",), "Fire Breath", "dex", 21, "18d6 fire",
                           action="Fire Breath", usage=ACTION)  # fmt: skip
    with pytest.raises(Rejected) as refused:
        run(state, breath)
    assert str(refused.value.message) == (
        "Adult Red Dragon's Multiattack has no Fire Breath left to make (Frightful Presence, "
        "Claw x2 left): another action would be a second one (As: Extra action, or "
        ":attack ... extra)"
    )
    with pytest.raises(Rejected, match="no Bite left to make"):
        run(state, D20Attack("c1", "c2", action="Bite", of="Multiattack"), 1)


def test_a_wrong_action_name_is_refused_with_the_nearest() -> None:
    state = started(lair())
    with pytest.raises(Rejected, match="no action 'Bight': did you mean 'Bite'"):
        run(state, D20Attack("c1", "c2", action="Bight"), 1)
    with pytest.raises(Rejected, match="rolls no attack"):
        run(state, D20Attack("c1", "c2", action="Fire Breath"), 1)


def test_an_action_with_no_roll_is_logged_as_used_and_spends_the_action() -> None:
    state = started(lair())
    after, events = run(state, D20UseAction("c1", "detect"))
    assert events == [D20ActionUsed("c1", "Detect", ACTION, events[0].stamp)]
    assert text(state, events[0]).startswith("Adult Red Dragon uses Detect")
    assert spent(after, after.combatant("c1"), ACTION)


def test_a_legendary_wing_attack_costs_two_and_a_third_cost_two_is_refused() -> None:
    state = started(lair(), "c2")  # Orla's turn: the dragon's legendary actions at its end
    wing = D20SaveEffect("c1", ("c2", "c3"), "Wing Attack", "dex", 22, "2d6+8 bludgeoning",
                         condition="prone", usage=LEGENDARY, action="Wing Attack")  # fmt: skip
    state, events = run(state, wing, 5, 5, 3, 4)
    assert events[0].cost == 2 and events[0].action == "Wing Attack"
    assert legendary_left(state, state.combatant("c1")) == 1
    assert "Wing Attack (legendary, costs 2)" in text(state, events[0])
    with pytest.raises(Rejected) as refused:
        run(state, wing)
    assert refused.value.message == (
        "Wing Attack costs 2; Adult Red Dragon has 1 legendary action left"
    )
    # the Tail Attack makes the Tail attack, for the one left
    state, events = run(state, D20Attack("c1", "c2", usage=LEGENDARY, action="Tail",
                                         of="Tail Attack"), 1)  # fmt: skip
    assert (events[0].attack, events[0].of, events[0].cost) == ("Tail", "Tail Attack", 1)
    assert legendary_left(state, state.combatant("c1")) == 0


def test_a_legendary_action_with_no_roll_spends_its_own_cost() -> None:
    state = started(lair(), "c2")
    state, events = run(state, D20LegendaryAction("c1", "detect", cost=3))
    assert (events[0].what, events[0].cost) == ("Detect", 1)  # the stat block's cost
    assert legendary_left(state, state.combatant("c1")) == 2


def test_a_reaction_from_the_list_is_played_as_an_attack_and_spends_the_reaction() -> None:
    knight = card(hp="52/52", ac="18", actions="Longsword: +5, 1d8+3 slashing",
                  reactions="Riposte: +5, 1d8+3 slashing")  # fmt: skip
    state = started(fight(("Knight", "party", knight), ("Orla", "foes", HERO_SHEET)), "c2")
    state, events = run(state, D20Attack("c1", "c2", usage=REACTION, action="Riposte"), 1)
    assert events[0].attack == "Riposte"
    assert sheet(state, "c1").reaction_round == state.round
    with pytest.raises(Rejected, match="used its reaction"):
        run(state, D20Attack("c1", "c2", usage=REACTION, action="Riposte"), 1)


def test_an_action_recharging_is_refused_in_one_line_before_it_rolls() -> None:
    state = started(lair())
    breath = D20SaveEffect("c1", ("c2",), "Fire Breath", "dex", 21, "18d6 fire",
                           action="Fire Breath", usage=ACTION)  # fmt: skip
    state, _ = run(state, breath, 10, *[1] * 18)
    again = D20SaveEffect("c1", ("c2",), "Fire Breath", "dex", 21, "18d6 fire",
                          action="Fire Breath", usage=EXTRA)  # fmt: skip
    with pytest.raises(Rejected) as refused:
        run(state, again)
    assert refused.value.message == "Fire Breath is recharging (5-6)"
    fields = SYSTEM.action_form(state, "roll", None)
    values = {f.key: f.default for f in fields} | {"action": "Fire Breath", "usage": EXTRA}
    assert SYSTEM.preview(state, "roll", values).endswith(
        "; Fire Breath is recharging (5-6): refused (33.3% back this turn, 55.6% within two)"
    )


def test_every_bundled_srd_monsters_actions_each_make_a_command_or_one_line() -> None:
    """Each action the attack and Use dialogs offer a bundled SRD monster, on its turn, makes
    a command and a preview, or is refused in one line: never a traceback."""
    for entry in srd_entries():
        if not entry.sheet().actions:  # a shrieker: its one attack, no Action asked
            continue
        state = started(fight((entry.name, "foes", entry.sheet()), ("Orla", "party", HERO_SHEET)))
        for dialog in ("roll", "use"):
            fields = SYSTEM.action_form(state, dialog, None)
            values = {f.key: f.default for f in fields}
            offered = next(f for f in fields if f.key == "action").choices
            for value, _ in offered:
                try:
                    SYSTEM.action_command(state, dialog, values | {"action": value})
                except Rejected as refused:
                    assert "\n" not in refused.message
                assert SYSTEM.preview(state, dialog, values | {"action": value})


def test_another_creatures_action_chosen_for_an_attacker_says_whose_it_is() -> None:
    state = started(lair(), "c2")  # Orla's turn; the Action list offers the dragon's Bite too
    fields = SYSTEM.action_form(state, "roll", "c2")
    values = {f.key: f.default for f in fields} | {"attacker": "c2", "action": "Bite"}
    assert ("Bite", "Bite (Adult Red Dragon)") in next(
        f.choices for f in fields if f.key == "action"
    )
    with pytest.raises(Rejected) as refused:
        SYSTEM.action_command(state, "roll", values)
    assert refused.value.message == (
        "Adult Red Dragon's Bite is not Orla's: choose Adult Red Dragon as the Attacker, or one "
        "of Orla's own actions"
    )
