"""Generic d20's Multiattack, legendary actions other than the attack, lair actions, the
chance a target drops this round, and a dead combatant's row: in the rules, then by keys."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from msgspec import structs

from rules.commands import NextTurn, SetSolo
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.errors import Rejected
from rules.odds import percent
from rules.systems.d20.encounter_odds import dialog_odds, drop_this_round, swings_this_round
from rules.systems.d20.events import (
    LEGENDARY,
    D20Attack,
    D20LegendaryAction,
    D20Saved,
)
from rules.systems.d20.sheet import LAIR
from rules.systems.d20.system import SYSTEM
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import (
    FOE_SHEET,
    HERO_SHEET,
    card,
    fight,
    history_of,
    run,
    sheet,
)
from tests.systems.d20.test_odds_d20 import every_path

TROLL = structs.replace(FOE_SHEET, multiattack=2, hp=40, hp_max=40)


def solo_turn(state: Encounter, dice: SeededDice) -> tuple[Encounter, list[str]]:
    """The solo moves until the turn passes: the state after, and what each move said."""
    said = []
    round_, current = state.round, state.current_id
    while (state.round, state.current_id) == (round_, current):
        move = SYSTEM.solo_move(state)
        assert move is not None, said
        said.append(move.reason)
        state = fold_onto(state, decide(state, move.command, dice))
    return state, said


# --- Multiattack ---------------------------------------------------------------------------------


def test_multiattack_is_read_from_the_sheet_and_bounded():
    assert card(multiattack="3").multiattack == 3
    with pytest.raises(Rejected, match="Multiattack"):
        card(multiattack="0")
    with pytest.raises(Rejected, match="Multiattack"):
        card(multiattack="11")


def test_a_solo_multiattack_makes_every_attack_of_its_action_then_ends_its_turn():
    state = fight(("Troll", "foes", TROLL), ("Orla", "party", HERO_SHEET))
    state = fold_onto(state, decide(state, SetSolo("foes", True), None))
    state, said = solo_turn(state, SeededDice(4))
    assert [w for w in said if w.startswith("attacks")] == [
        "attacks Orla (attack 1 of 2)",
        "attacks Orla (attack 2 of 2)",
    ]
    assert said[-1] == "has acted: ends its turn"


def test_the_attack_dialog_counts_a_multiattacks_attacks_on_its_own_turn():
    state = fight(("Troll", "foes", TROLL), ("Orla", "party", HERO_SHEET))
    attack = D20Attack("c1", "c2")
    assert "Multiattack: attack 1 of 2" in SYSTEM.preview(state, "roll", {})
    state, _ = run(state, structs.replace(attack, apply=True), 2)  # a miss
    assert "Multiattack: attack 2 of 2" in SYSTEM.preview(state, "roll", {})
    state, _ = run(state, attack, 2)
    assert "its Multiattack's 2 attacks are made" in SYSTEM.preview(state, "roll", {})
    state, _ = run(state, NextTurn())
    state, _ = run(state, NextTurn())  # its next turn: a whole action again
    assert "attack 1 of 2" in SYSTEM.preview(state, "roll", {})


# --- legendary actions other than the attack -----------------------------------------------------


def test_a_legendary_action_spends_its_cost_at_the_end_of_anothers_turn():
    drake = structs.replace(FOE_SHEET, legendary=3)
    state = fight(("Drake", "foes", drake), ("Orla", "party", HERO_SHEET))
    with pytest.raises(Rejected, match="another's turn"):
        decide(state, D20LegendaryAction("c1", "Wing beat", 2), None)
    state, _ = run(state, NextTurn())
    state, events = run(state, D20LegendaryAction("c1", "Wing beat", 2))
    assert SYSTEM.describe(state, events[0]).plain == (
        "Drake takes a legendary action: Wing beat (costs 2)"
    )
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 1/3"
    with pytest.raises(Rejected, match=r"1 legendary action\(s\) left this round, not 2"):
        decide(state, D20LegendaryAction("c1", "Wing beat", 2), None)
    state, _ = run(state, D20Attack("c1", "c2", usage=LEGENDARY), 1)
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 0/3"
    state, _ = run(state, NextTurn())  # the drake's own turn: all three back
    assert SYSTEM.badges(state, state.combatant("c1"))[0] == "legendary 3/3"


# --- lair actions --------------------------------------------------------------------------------


def test_a_lair_save_is_read_as_an_ability_and_a_dc():
    assert card(LAIR, lair_save="dexterity 15").lair_dc == ("dex", 15)
    assert card(LAIR).lair_dc is None  # no save: the lair attacks
    with pytest.raises(Rejected, match="like Dex 15"):
        card(LAIR, lair_save="Dex fifteen")


def test_a_solo_lair_makes_every_foe_save_at_initiative_20_then_ends_its_turn():
    lair = card(LAIR, attack="Falling rocks", damage="2d6 bludgeoning", lair_save="Dex 15")
    state = fight(("Lair", "foes", lair), ("Orla", "party", HERO_SHEET),
                  ("Sefi", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))  # fmt: skip
    state = fold_onto(state, decide(state, SetSolo("foes", True), None))
    assert state.current_id == "c1"
    state, said = solo_turn(state, SeededDice(7))
    assert said[0] == "lair action: Falling rocks, DC 15 for every foe"
    saved = state.last_roll
    assert isinstance(saved, D20Saved) and saved.ability == "dex" and saved.dc == 15
    assert {r.target_id for r in saved.rolls} == {"c2", "c3"}  # not the goblin, its ally
    assert state.last_roll_applied and said[-1] == "has acted: ends its turn"


# --- the chance a target drops this round --------------------------------------------------------

SMALL = card(hp="5/5", ac="12", attack_bonus="3", damage="1d4 slashing")


def test_the_round_counts_the_action_left_and_the_foes_still_to_act():
    state = fight(("Troll", "foes", structs.replace(TROLL, multiattack=3)),
                  ("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET),
                  ("Wolf", "foes", structs.replace(FOE_SHEET, multiattack=2)))  # fmt: skip
    state, _ = run(state, D20Attack("c1", "c2", apply=True), 2)  # the troll's first: a miss
    swings = swings_this_round(state, state.combatant("c1"), state.combatant("c2"),
                               D20Attack("c1", "c2"))  # fmt: skip
    assert len(swings) == 2 + 1 + 2  # two of the troll's three left, the goblin, the wolf's two


def test_a_stat_block_multiattack_counts_its_parts_left() -> None:
    """Its parts are counted as they are made (stat_actions.part_made), not as the sheet's
    own Multiattack's attacks: every part once said "if all 5 attacks left aim at it"."""
    troll = card(hp="84/84", ac="15", actions="Multiattack: Bite, Claw x2; Bite: +7, 1d6+4 "
                 "piercing; Claw: +7, 2d6+4 slashing")  # fmt: skip
    state = fight(("Troll", "foes", troll), ("Orla", "party", HERO_SHEET),
                  ("Goblin", "foes", FOE_SHEET))  # fmt: skip
    counts = []
    for part, faces in (("Bite", (2,)), ("Claw", (2,)), ("Claw", ())):
        command = D20Attack("c1", "c2", action=part, of="Multiattack", apply=True)
        counts.append(len(swings_this_round(state, state.combatant("c1"),
                                            state.combatant("c2"), command)))  # fmt: skip
        if faces:  # a miss each: Orla stands
            state, _ = run(state, command, *faces)
    assert counts == [3 + 1, 2 + 1, 1 + 1]  # the troll's parts left, then the goblin's


@pytest.mark.parametrize("hp", [3, 6])
def test_the_chance_to_drop_the_target_this_round_is_every_path_of_the_rounds_attacks(hp):
    """The imp's turn, then the jackal's two attacks: every die each can roll, played by the
    real rules, the paths that leave the same state merged before the next attack."""
    state = fight(("Orla", "party", structs.replace(HERO_SHEET, hp=hp, hp_max=hp, ac=14)),
                  ("Imp", "foes", SMALL),
                  ("Jackal", "foes", structs.replace(SMALL, multiattack=2)))  # fmt: skip
    state, _ = run(state, NextTurn())  # the imp's turn
    found = drop_this_round(state, D20Attack("c2", "c1"))

    def attack(now: Encounter, attacker: str, dice) -> Encounter:
        now = fold_onto(now, decide(now, D20Attack(attacker, "c1", apply=True), dice))
        return fold_onto(now, decide(now, NextTurn(), dice)) if attacker == "c2" else now

    dropped, standing = Fraction(0), {sheet(state, "c1").hp: (state, Fraction(1))}
    for attacker in ("c2", "c3", "c3"):
        after: dict[int, tuple[Encounter, Fraction]] = {}
        for now, chance in standing.values():
            for next_state, p in every_path(
                lambda dice, now=now, who=attacker: attack(now, who, dice)
            ):
                hp = sheet(next_state, "c1").hp
                if hp <= 0:
                    dropped += chance * p
                    continue
                kept = after.get(hp, (next_state, Fraction(0)))
                after[hp] = (kept[0], kept[1] + chance * p)
        standing = after
    assert found == (dropped, 3)
    shown = f"drops Orla this round: {percent(dropped)} if all 3 attacks left aim at it"
    assert shown in SYSTEM.preview(state, "roll", {"attacker": "c2", "target": "c1"})
    odds = dialog_odds(state, D20Attack("c2", "c1"))  # this hit alone, as before the roll
    assert odds is not None and odds.extra["drop"] < dropped


def test_two_attacks_left_are_both():
    """The dialog said "if all 2 attacks left aim at it", as no one says it."""
    state = fight(("Orla", "party", structs.replace(HERO_SHEET, hp=6, hp_max=6, ac=14)),
                  ("Imp", "foes", SMALL), ("Jackal", "foes", SMALL))  # fmt: skip
    state, _ = run(state, NextTurn())  # the imp's turn, the jackal's to come
    said = SYSTEM.preview(state, "roll", {"attacker": "c2", "target": "c1"})
    assert "if both attacks left aim at it" in said, said


# --- by keys -------------------------------------------------------------------------------------


async def test_a_dead_combatants_row_says_dead_once(tmp_path: Path) -> None:
    goblin = structs.replace(FOE_SHEET, hp=9, hp_max=9)
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", goblin))
    app = make_app(tmp_path, ScriptedDice([15, 8]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r", "enter")  # Orla's longsword: 15 + 5 hits, 8 + 3 = 11 damage
        await until(pilot, lambda: app.session.state.last_roll is not None, "the attack")
        await pilot.press("d")
        await until(pilot, lambda: sheet(app.session.state, "c2").dead, "the goblin dead")
        row = next(line for line in screen_text(app).splitlines() if "Goblin" in line)
        assert row.count("dead") == 1, row


async def test_a_legendary_action_by_keys_spends_it_and_says_so(tmp_path: Path) -> None:
    drake = structs.replace(FOE_SHEET, legendary=3)
    history = history_of(("Drake", "foes", drake), ("Orla", "party", HERO_SHEET))
    history.commit(decide(history.state, NextTurn(), None))  # Orla's turn
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        place = [a.id for a in SYSTEM.actions(history.state)].index("legendary")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "Costs" in screen_text(app), "the dialog")
        await pilot.press("tab", "right", "enter")  # from the name (Move) to its cost: 2
        await until(pilot, lambda: "legendary 1/3" in screen_text(app), "the badge")
        assert "Drake takes a legendary action: Move" in screen_text(app)


def test_the_last_attacks_drop_chance_is_the_one_it_had_not_after_its_damage():
    state = fight(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    before = dialog_odds(state, D20Attack("c1", "c2"))
    state, _ = run(state, D20Attack("c1", "c2", apply=True), 15, 8)  # 11 of its 12 hit points
    after = SYSTEM.last_odds(state)
    assert before is not None and after is not None
    # only a critical can drop it: 5% times 36 of the 64 ways 2d8 reach 9
    assert after.extra["drop"] == before.extra["drop"] == Fraction(9, 320)
