"""A stat block's uses (issue 41, item 1; rulings.md D5-01): a recharge action spent when
used and rolled for at the start of its creature's turn with its exact odds, per-day uses
counted and refused at 0 until a long rest, and Legendary Resistance turning a failed save
into a success, a use each, undone by undo; with scripted dice, then by keys at 80x24."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec import structs

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.errors import Rejected
from rules.history import History
from rules.registry import get_system
from rules.snapshot import decode, encode
from rules.systems.d20.actions import named
from rules.systems.d20.events import ACTION, D20Apply, D20Attack, D20Rest, D20SaveEffect
from rules.systems.d20.sheet import D20Sheet
from rules.systems.d20.uses import (
    D20ActionRecharged,
    D20Resist,
    D20Resisted,
    chance,
    recharge_odds,
    unavailable,
)
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import HERO_SHEET, card, fight, history_of, run, sheet

SYSTEM = get_system("d20")
DRAGON = card(
    hp="256/256",
    ac="19",
    saves="Dex +6 Con +13 Wis +7",
    actions=(
        "Bite: +14, 2d10+8 piercing plus 2d6 fire; Fire Breath: Dex 21 half, 18d6 fire, "
        "recharge 5-6; Web: +5 ranged, restrained, 2/day"
    ),
    legendary_resistance="3",
)
BREATH = named(DRAGON.actions, "Fire Breath")
WEB = named(DRAGON.actions, "Web")
# Orla's spell on the dragon: a Wisdom save, paralyzed on a failure, 6d6 psychic (half on a save)
HOLD = D20SaveEffect("c1", ("c2",), "Hold Monster", "wis", 18, "6d6 psychic",
                     condition="paralyzed", usage=ACTION)  # fmt: skip


def lair() -> Encounter:
    """Orla (c1) and the dragon (c2): Orla's turn."""
    return fight(("Orla", "party", HERO_SHEET), ("Dragon", "foes", DRAGON))


def passed(state: Encounter, times: int = 1) -> Encounter:
    for _ in range(times):
        state = fold_onto(state, decide(state, NextTurn(), ScriptedDice([])))
    return state


def made_with(state: Encounter, command: Any, action: str, *faces: int) -> Encounter:
    """The command's events, naming the stat block action it is (as the dialogs fill it in),
    folded."""
    dice = ScriptedDice(faces)
    events = decide(state, command, dice)
    assert dice.remaining == 0
    events[0] = structs.replace(events[0], action=action)
    return fold_onto(state, events)


def breathed() -> Encounter:
    """The dragon's turn, its Fire Breath used on Orla (Dex 10 + 1 fails DC 21)."""
    state = passed(lair())
    breath = D20SaveEffect("c2", ("c1",), "Fire Breath", "dex", 21, "18d6 fire", usage=ACTION)
    return made_with(state, breath, "Fire Breath", 10, *([3] * 18))


def test_a_recharge_is_rolled_only_once_spent_and_comes_back_on_5_or_6():
    state = passed(lair(), 2)  # the dragon's turn comes round with its breath unspent
    state = passed(state)
    assert SYSTEM.pending(state) == ""  # nothing to roll
    assert "Fire Breath ready" in SYSTEM.badges(state, state.combatant("c2"))
    state = breathed()
    dragon = state.combatant("c2")
    assert sheet(state, "c2").recharging == ("Fire Breath",)
    assert unavailable(state, dragon, BREATH) == "Fire Breath is recharging (5-6)"
    assert "Fire Breath 5-6" in SYSTEM.badges(state, dragon)
    state, _ = run(state, D20Apply())
    state = passed(state, 2)  # Orla's turn, then the dragon's: its d6 waits
    assert SYSTEM.pending(state) == "Dragon's turn starts: Fire Breath recharge 5-6 (33.3%)"
    state, events = run(state, SYSTEM.consequence_command(state), 4)
    assert isinstance(events[0], D20ActionRecharged) and not events[0].ready
    line = SYSTEM.describe(state, events[0]).lines[0]
    assert "".join(s.text for s in line) == "Dragon's Fire Breath recharge (5-6): 4 - still spent"
    assert sheet(state, "c2").recharging == ("Fire Breath",)
    state = passed(state, 2)
    state, events = run(state, SYSTEM.consequence_command(state), 5)
    line = SYSTEM.describe(state, events[0]).lines[0]
    assert "".join(s.text for s in line) == "Dragon's Fire Breath recharge (5-6): 5 - back"
    assert sheet(state, "c2").recharging == ()
    assert unavailable(state, state.combatant("c2"), BREATH) == ""
    assert "Fire Breath ready" in SYSTEM.badges(state, state.combatant("c2"))
    assert SYSTEM.pending(passed(state, 2)) == ""  # back: nothing to roll


def test_the_recharge_odds_are_exactly_one_in_three_then_five_in_nine():
    assert chance(BREATH) == Fraction(1, 3)
    assert 1 - (1 - chance(BREATH)) ** 2 == Fraction(5, 9)
    assert recharge_odds(BREATH, 2) == "Fire Breath: 33.3% back this turn, 55.6% within two"
    six = structs.replace(BREATH, recharge=6)  # 1/6, then 1 - (5/6)^2 = 11/36
    assert recharge_odds(six, 2) == "Fire Breath: 16.7% back this turn, 30.6% within two"
    assert recharge_odds(WEB, 2) == ""  # no recharge


def test_the_dialogs_preview_says_a_spent_action_is_recharging_with_its_odds():
    from rules.systems.d20.action_forms import unavailable_note

    breath = D20SaveEffect(
        "c2", ("c1",), "Fire Breath", "dex", 21, "18d6 fire", action="Fire Breath"
    )
    assert unavailable_note(passed(lair()), breath) == ""  # ready: nothing to say
    assert unavailable_note(breathed(), breath) == (
        "; Fire Breath is recharging (5-6): refused (33.3% back this turn, 55.6% within two)"
    )


def test_per_day_uses_are_counted_refused_at_0_and_a_long_rest_gives_them_back():
    state = passed(lair())
    web = D20Attack("c2", "c1", usage=ACTION)
    assert "Web 2/2" in SYSTEM.badges(state, state.combatant("c2"))
    state = made_with(state, web, "Web", 1)  # a miss
    assert "Web 1/2" in SYSTEM.badges(state, state.combatant("c2"))
    state = passed(state, 2)
    state = made_with(state, web, "Web", 1)
    dragon = state.combatant("c2")
    assert "Web 0/2" in SYSTEM.badges(state, dragon)
    assert unavailable(state, dragon, WEB) == "Web: no uses left today (0/2)"
    rested, events = run(state, D20Rest(("c2",)))
    assert "uses a day back" in "".join(
        s.text for line in SYSTEM.describe(state, events[0]).lines for s in line
    )
    state = rested
    assert "Web 2/2" in SYSTEM.badges(state, state.combatant("c2"))
    assert unavailable(state, state.combatant("c2"), WEB) == ""


def failed_hold() -> History:
    """Orla's Hold Monster on the dragon: Wis 2 + 7 fails DC 18; 6d6 of 3s, 18 psychic."""
    history = history_of(("Orla", "party", HERO_SHEET), ("Dragon", "foes", DRAGON))
    history.commit(decide(history.state, HOLD, ScriptedDice([2, *([3] * 6)])))
    return history


def test_legendary_resistance_turns_a_failed_save_into_a_success_a_use_each():
    state = failed_hold().state
    state, events = run(state, D20Resist("c2"))
    assert isinstance(events[0], D20Resisted) and events[0].left == 2
    line = "".join(s.text for s in SYSTEM.describe(state, events[0]).lines[0])
    assert line == (
        "Dragon uses Legendary Resistance (2/3 left): the failed Wis save succeeds (Hold Monster)"
    )
    assert "Legendary Resistance 2/3" in SYSTEM.badges(state, state.combatant("c2"))
    state, _ = run(state, D20Apply())  # dealt as a success: half damage, no condition
    assert state.combatant("c2").condition("paralyzed") is None
    assert sheet(state, "c2").hp == 256 - 9
    with pytest.raises(Rejected, match="no failed save waiting"):  # once a failure
        decide(state, D20Resist("c2"), ScriptedDice([]))


def test_legendary_resistance_is_undone_by_undo_and_refused_with_none_left():
    history = failed_hold()
    history.commit(decide(history.state, D20Resist("c2"), ScriptedDice([])))
    assert sheet(history.state, "c2").resisted == 1
    history.undo()
    assert sheet(history.state, "c2").resisted == 0
    roll = history.state.last_roll
    assert not roll.rolls[0].success  # the failure is back
    spent = structs.replace(DRAGON, resisted=3)
    state = fight(("Orla", "party", HERO_SHEET), ("Dragon", "foes", spent))
    state = made_with(state, HOLD, "", 2, *([3] * 6))
    with pytest.raises(Rejected) as refused:
        decide(state, D20Resist("c2"), ScriptedDice([]))
    assert refused.value.message == "Dragon has no Legendary Resistance left today (0/3)"
    assert "Legendary Resistance 0/3" in SYSTEM.badges(state, state.combatant("c2"))
    with pytest.raises(Rejected, match="Orla has no Legendary Resistance"):
        decide(state, D20Resist("c1"), ScriptedDice([]))


def test_legendary_resistance_keeps_a_concentration_a_failed_save_ended_and_its_hold():
    mage = structs.replace(DRAGON, saves=(0, 6, 0, 0, 7, 0))  # Con +0
    people = ("Orla", "party", HERO_SHEET), ("Dragon", "foes", mage), ("Bram", "party", HERO_SHEET)
    history = history_of(*people)
    hold = D20SaveEffect("c2", ("c1",), "Hold Person", "wis", 30, "", condition="paralyzed",
                         concentration=True, usage=ACTION)  # fmt: skip
    for command, faces in (
        (NextTurn(), []),
        (hold, [2]),  # Orla fails
        (D20Apply(), []),
        (NextTurn(), []),  # Bram's turn
        (D20Attack("c3", "c2", apply=True), [15, 5]),  # 20 vs AC 19: 8 damage
    ):
        history.commit(decide(history.state, command, ScriptedDice(faces)))
    history.commit(
        decide(history.state, SYSTEM.consequence_command(history.state), ScriptedDice([2]))
    )
    state = history.state  # 2 + 0 against DC 10: concentration lost, Orla free
    assert (
        sheet(state, "c2").concentrating == ""
        and state.combatant("c1").condition("paralyzed") is None
    )
    history.commit(decide(state, D20Resist("c2"), ScriptedDice([])))
    state = history.state
    assert sheet(state, "c2").concentrating == "Hold Person" and sheet(state, "c2").resisted == 1
    assert state.combatant("c1").condition("paralyzed") is not None
    assert state.system_state.held and state.last_roll.success
    with pytest.raises(Rejected, match="no failed save"):  # turned once
        decide(state, D20Resist("c2"), ScriptedDice([]))
    history.undo()
    assert sheet(history.state, "c2").concentrating == ""
    assert history.state.combatant("c1").condition("paralyzed") is None


def test_legendary_resistance_is_the_gms_alone():
    from rules.visibility import GM, Viewer
    from tracker.screens.encounter_keys.roles import may_use

    player = Viewer(role="player", name="Alice", assigned=frozenset({"c2"}))
    assert D20Resist in SYSTEM.gm_commands and D20Resist not in SYSTEM.command_actors
    assert may_use(GM, "d20", "overrule") and may_use(GM, "d20", "system", "resist")
    assert not may_use(player, "d20", "overrule")  # the L key
    assert not may_use(player, "d20", "system", "resist")  # the s menu, the : line


def test_a_solo_dragon_spends_legendary_resistance_on_a_failure_that_lays_a_condition():
    state = failed_hold().state.update(solo_sides=("foes",))
    move = SYSTEM.solo_move(state)
    assert move is not None and move.command == D20Resist("c2")
    assert "Legendary Resistance" in move.reason


def test_a_solo_dragon_keeps_legendary_resistance_for_what_hurts():
    from rules import solo

    def hit_by(damage: str, condition: str, hp: int) -> Encounter:
        dragon = structs.replace(DRAGON, hp=hp)
        state = fight(("Orla", "party", HERO_SHEET), ("Dragon", "foes", dragon))
        spell = D20SaveEffect("c1", ("c2",), "Spell", "wis", 18, damage, condition=condition)
        state = fold_onto(state, decide(state, spell, ScriptedDice([2, *([3] * 6)])))
        return state.update(solo_sides=("foes",))

    # 6d6 of 3s: 18, against 72 hit points (a quarter: 18) it keeps its use, against 71 not
    assert solo.respond(hit_by("6d6 fire", "", 72), ScriptedDice([])) == []
    events = solo.respond(hit_by("6d6 fire", "", 71), ScriptedDice([]))
    assert [type(e) for e in events][1:] == [D20Resisted]  # after its choice's line
    events = solo.respond(hit_by("", "frightened", 256), ScriptedDice([]))
    assert any(isinstance(e, D20Resisted) for e in events)


def test_spent_uses_are_saved_and_read_back_and_a_save_holding_too_many_is_refused():
    history = failed_hold()
    history.commit(decide(history.state, D20Resist("c2"), ScriptedDice([])))
    assert decode(encode(history)).state == history.state
    bad = structs.replace(DRAGON, recharging=tuple(f"A{n}" for n in range(40)))
    with pytest.raises(msgspec.ValidationError, match=r"at `\$.recharging`"):
        msgspec.convert(msgspec.to_builtins(bad), D20Sheet)
    older = msgspec.to_builtins(DRAGON)
    for key in ("recharging", "used_today", "resisted"):
        older.pop(key, None)
    assert msgspec.convert(older, D20Sheet) == DRAGON  # a save from before: nothing spent


async def test_by_keys_the_dragons_breath_recharges_on_its_turn_in_the_row_and_log(
    tmp_path: Path,
) -> None:
    spent = structs.replace(DRAGON, recharging=("Fire Breath",))
    history = history_of(("Orla", "party", HERO_SHEET), ("Dragon", "foes", spent))
    app = make_app(tmp_path, ScriptedDice([5]), history)
    async with app.run_test(size=(160, 48)) as pilot:  # wide: the row's marks whole
        await until(pilot, lambda: "Fire Breath 5-6" in screen_text(app), "the row")
        await pilot.press("n")
        await until(pilot, lambda: "Fire Breath recharge 5-6 (33.3%)" in screen_text(app), "asked")
        await pilot.press("d")
        await until(
            pilot, lambda: "Fire Breath recharge (5-6): 5 - back" in screen_text(app), "log"
        )
        await until(pilot, lambda: "Fire Breath ready" in screen_text(app), "the row again")


async def test_by_keys_the_gm_turns_the_dragons_failed_save_with_legendary_resistance(
    tmp_path: Path,
) -> None:
    history = failed_hold()
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(160, 48)) as pilot:  # wide: the log's line whole
        await pilot.press("L")
        await until(pilot, lambda: "Dragon (3/3)" in screen_text(app), "the dialog: who")
        await pilot.press("enter")
        await until(pilot, lambda: sheet(app.session.state, "c2").resisted == 1, "spent")
        await until(pilot, lambda: "Legendary Resistance (2/3 left)" in screen_text(app), "log")
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "dealt")
        assert app.session.state.combatant("c2").condition("paralyzed") is None
        await pilot.press("u", "u")
        await until(pilot, lambda: sheet(app.session.state, "c2").resisted == 0, "undone")
        assert not app.session.state.last_roll.rolls[0].success  # the failure is back
        await pilot.press("colon", *"resist dragon", "enter")  # the line does it too
        await until(pilot, lambda: sheet(app.session.state, "c2").resisted == 1, "again")


async def test_the_l_key_says_so_when_no_failed_save_waits(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Dragon", "foes", DRAGON))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.press("L")
        await until(pilot, lambda: "No failed save waits" in screen_text(app), "one line")
        assert sheet(app.session.state, "c2").resisted == 0
