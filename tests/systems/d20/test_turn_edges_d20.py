"""Generic d20's start and end of a turn (issue 40, D4-02): a save repeated at the end of each
of the target's turns, ongoing damage and regeneration at the start of one, a recharge, and
conditions that end at the start or end of someone's next turn; each with scripted dice as
rulings.md reads the SRD 5.1, the save's odds against an independent count, the dialogs and
the header by keys at 80x24, and solo play and the forecast rolling what waits."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec import structs

from rules.commands import NextTurn
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto
from rules.errors import Rejected
from rules.forecast import all_solo
from rules.registry import get_system
from rules.snapshot import decode, encode
from rules.systems.d20.events import ACTION, D20Apply, D20SaveEffect, D20State
from rules.systems.d20.turn_edge_events import (
    END,
    START,
    D20EndOfTurnSave,
    D20EndOfTurnSaved,
    D20RegenerationOff,
    D20SetEnding,
    D20SetTurnStart,
    D20StartOfTurn,
    D20TurnStarted,
)
from rules.systems.d20.turn_edge_forms import parse_recharge
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, duel, history_of, run, sheet

SYSTEM = get_system("d20")
# Cast as Orla's action, as the dialog proposes (spent: her turn then ends in solo play).
HOLD = D20SaveEffect("c1", ("c2",), "Hold Person", "wis", 13, "", condition="paralyzed",
                     repeat=True, usage=ACTION)  # fmt: skip


def passed(state: Encounter, times: int = 1) -> Encounter:
    for _ in range(times):
        state = fold_onto(state, decide(state, NextTurn(), ScriptedDice([])))
    return state


def held() -> Encounter:
    """Orla's Hold Person on the Goblin, failed (5 + 0 against DC 13) and laid, on her turn."""
    state, _ = run(duel(), HOLD, 5)
    state, _ = run(state, D20Apply())
    assert state.combatant("c2").condition("paralyzed") is not None
    return state


# --- a save at the end of each of the target's turns ---------------------------------------------


def test_a_held_targets_save_is_owed_at_the_end_of_its_own_turn_not_before():
    state = passed(held())  # Orla's turn ends: the Goblin's begins, paralyzed
    assert SYSTEM.pending(state) == ""
    state = passed(state)  # the Goblin's turn ends
    # Wisdom +0 against DC 13: 13 to 20, 8 in 20
    assert SYSTEM.pending(state) == "Goblin: Wis save DC 13 ends paralyzed (40.0%)"
    assert SYSTEM.consequence_command(state) == D20EndOfTurnSave("c2", "paralyzed")


def test_a_held_targets_end_of_turn_save_ends_the_paralysis_on_a_success():
    state = passed(held(), 2)
    state, events = run(state, SYSTEM.consequence_command(state), 13)
    assert isinstance(events[0], D20EndOfTurnSaved) and events[0].success
    assert state.combatant("c2").condition("paralyzed") is None
    assert SYSTEM.pending(state) == ""
    odds = SYSTEM.last_odds(state)
    assert odds is not None and [t.p for t in odds.tiers] == [Fraction(3, 5), Fraction(2, 5)]
    assert "paralyzed ends" in SYSTEM.describe(passed(held(), 2), events[0]).plain


def test_a_failed_end_of_turn_save_keeps_the_paralysis_until_the_next_turns_end():
    state = passed(held(), 2)
    state, _ = run(state, SYSTEM.consequence_command(state), 12)
    assert state.combatant("c2").condition("paralyzed") is not None
    assert SYSTEM.pending(state) == ""  # not owed again on Orla's turn
    state = passed(state)  # Orla's turn ends: still nothing
    assert SYSTEM.pending(state) == ""
    state = passed(state)  # the Goblin's next turn ends: owed again
    assert SYSTEM.pending(state).startswith("Goblin: Wis save DC 13")


def test_two_saves_owed_at_one_turns_end_are_each_asked_for_in_turn():
    state, _ = run(held(), D20SetEnding("c2", "frightened", "save", ability="wis", dc=15))
    state = passed(state, 2)
    assert SYSTEM.consequence_command(state) == D20EndOfTurnSave("c2", "paralyzed")
    state, _ = run(state, SYSTEM.consequence_command(state), 2)  # fails: the next still waits
    assert SYSTEM.pending(state) == "Goblin: Wis save DC 15 ends frightened (30.0%)"
    state, _ = run(state, SYSTEM.consequence_command(state), 18)
    assert state.combatant("c2").condition("frightened") is None
    assert state.combatant("c2").condition("paralyzed") is not None


def test_the_end_of_turn_saves_odds_are_every_d20_the_rules_roll():
    state = passed(held(), 2)
    odds = SYSTEM.last_odds(run(state, SYSTEM.consequence_command(state), 1)[0])
    assert odds is not None
    made = Fraction(sum(1 for face in range(1, 21) if face + 0 >= 13), 20)
    assert odds.tiers[1].p == made


def test_a_discarded_end_of_turn_save_leaves_the_paralysis_on():
    state = passed(held(), 2)
    state = SYSTEM.discard(state)
    assert SYSTEM.pending(state) == ""
    assert state.combatant("c2").condition("paralyzed") is not None


async def test_the_save_dialog_by_keys_lays_save_ends_and_the_header_asks_for_the_save(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([5, 14]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s", "down", "enter")  # the actions' second: a saving throw effect
        await until(pilot, lambda: "On a save" in screen_text(app), "the save effect dialog")
        await pilot.press("tab", "right", "right", "right")  # Save: Wisdom
        await pilot.press(*["tab"] * 4, *"paralyzed")  # Condition on a failure
        await pilot.press(*["tab"] * 5, "right")  # Save ends: yes
        await until(pilot, lambda: "Save ends" in screen_text(app), "the field")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.state.last_roll is not None, "the save")
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.last_roll_applied, "the condition laid")
        assert app.session.state.combatant("c2").condition("paralyzed") is not None
        await pilot.press("n")
        await until(pilot, lambda: app.session.state.current_id == "c2", "the Goblin's turn")
        await pilot.press("n")
        await until(pilot, lambda: app.session.state.current_id == "c1", "Orla's turn")
        await until(pilot, lambda: "ends paralyzed (40.0%)" in screen_text(app), "it is asked")
        await pilot.press("d")
        gone = lambda: app.session.state.combatant("c2").condition("paralyzed") is None  # noqa: E731
        await until(pilot, gone, "the paralysis ended by the save")
        await until(pilot, lambda: "paralyzed ends" in screen_text(app), "the landing")
        assert "40.0%" in screen_text(app)  # the save's chance, in the Consequences pane


# --- damage and healing at the start of a turn ------------------------------------------------


def test_ongoing_fire_damage_is_dealt_at_the_start_of_the_burning_ones_turn():
    state, _ = run(duel(), D20SetTurnStart("c2", "1d10 fire"))
    assert SYSTEM.pending(state) == ""  # Orla's turn: the Goblin does not burn yet
    state = passed(state)
    assert SYSTEM.pending(state) == "Goblin's turn starts: takes 1d10 fire"
    state, events = run(state, SYSTEM.consequence_command(state), 7)
    assert sheet(state, "c2").hp == 12 - 7
    assert isinstance(events[-1], D20TurnStarted) and SYSTEM.pending(state) == ""
    state = passed(state, 2)  # its next turn: again
    assert SYSTEM.consequence_command(state) == D20StartOfTurn("c2")


def test_ongoing_damage_meets_the_burning_ones_resistance():
    resistant = structs.replace(FOE_SHEET, resistances=("fire",))
    state, _ = run(duel(foe=resistant), D20SetTurnStart("c2", "1d10 fire"))
    state, _ = run(passed(state), D20StartOfTurn("c2"), 7)
    assert sheet(state, "c2").hp == 12 - 3


def trolled() -> Encounter:
    troll = structs.replace(FOE_SHEET, hp=5, hp_max=84)
    state, _ = run(duel(foe=troll), D20SetTurnStart("c2", regeneration=10))
    return state


def test_regeneration_heals_at_the_start_of_the_trolls_turn():
    state = passed(trolled())
    assert SYSTEM.pending(state) == "Goblin's turn starts: regains 10 HP"
    state, _ = run(state, SYSTEM.consequence_command(state))
    assert sheet(state, "c2").hp == 15


def test_regeneration_switched_off_skips_one_turn_start_only():
    state, _ = run(trolled(), D20RegenerationOff("c2"))  # fire on Orla's turn
    state = passed(state)
    assert SYSTEM.pending(state) == ""  # nothing regenerates this turn
    assert sheet(state, "c2").hp == 5
    state = passed(state, 2)  # its next turn: it regenerates again
    state, _ = run(state, SYSTEM.consequence_command(state))
    assert sheet(state, "c2").hp == 15


async def test_the_start_of_turn_dialog_by_keys_regenerates_and_the_line_switches_it_off(
    tmp_path: Path,
) -> None:
    troll = structs.replace(FOE_SHEET, hp=5, hp_max=84)
    history = history_of(("Orla", "party", HERO_SHEET), ("Troll", "foes", troll))
    app = make_app(tmp_path, ScriptedDice([]), history)
    hp = lambda: sheet(app.session.state, "c2").hp  # noqa: E731
    async with app.run_test(size=(80, 24)) as pilot:
        place = [a.id for a in SYSTEM.actions(history.state)].index("turnstart")
        await pilot.press("s", *(["down"] * place), "enter")
        await until(pilot, lambda: "Regeneration" in screen_text(app), "the dialog")
        await pilot.press("shift+tab", "right")  # Who: the Troll
        await pilot.press("tab", "tab", "backspace", "1", "0", "enter")  # Regeneration: 10
        await until(pilot, lambda: "regenerates 10" in screen_text(app), "its badge")
        await pilot.press("n")
        await until(pilot, lambda: "regains 10 HP" in screen_text(app), "asked at its start")
        await pilot.press("d")
        await until(pilot, lambda: hp() == 15, "regenerated")
        await pilot.press("colon", *"regenoff troll", "enter")  # fire struck it
        await until(pilot, lambda: "regenerates 10 (off)" in screen_text(app), "switched off")
        await pilot.press("n", "n")
        await until(pilot, lambda: app.session.state.current_id == "c2", "its next turn")
        assert SYSTEM.pending(app.session.state) == "" and hp() == 15
        await pilot.press("n", "n")
        await until(pilot, lambda: "regains 10 HP" in screen_text(app), "on again a turn on")


def test_a_turn_start_or_ending_typed_wrong_is_refused_in_one_line():
    state = duel()
    for command, said in (
        (D20SetTurnStart("c2", "banana"), "Ongoing damage: "),
        (D20SetTurnStart("c2", regeneration=-1), "Regeneration: "),
        (D20SetEnding("c2", "", END, "c1"), "a condition needs a name"),
        (D20SetEnding("c2", "prone", "later", "c1"), "Ends: "),
        (D20SetEnding("c2", "prone", "save", dc=99), "DC must be"),
        (D20RegenerationOff("c2"), "Goblin does not regenerate"),
    ):
        with pytest.raises(Rejected) as refused:
            decide(state, command, ScriptedDice([]))
        assert refused.value.message.startswith(said) and "\n" not in refused.value.message
    with pytest.raises(Rejected, match="Recharge: "):
        parse_recharge("7-8")


def test_a_spent_recharge_is_rolled_at_the_start_of_the_creatures_turn():
    state, _ = run(duel(), D20SetTurnStart("c2", recharge=5, ready=False))
    state = passed(state)
    assert SYSTEM.pending(state) == "Goblin's turn starts: recharge 5-6 (33.3%)"
    state, _ = run(state, SYSTEM.consequence_command(state), 4)
    assert not state.system_state.starts[0].ready
    state = passed(state, 2)
    state, _ = run(state, SYSTEM.consequence_command(state), 5)
    assert state.system_state.starts[0].ready
    assert SYSTEM.pending(passed(state, 2)) == ""  # ready: nothing to roll


# --- conditions that end at the start or end of someone's turn ---------------------------------


def test_a_condition_until_the_end_of_orlas_next_turn_ends_then():
    # Laid on Orla's turn: this turn is not her next one
    state, _ = run(duel(), D20SetEnding("c2", "frightened", END, "c1"))
    assert state.combatant("c2").condition("frightened") is not None
    state = passed(state)  # Orla's turn ends
    assert state.combatant("c2").condition("frightened") is not None
    state = passed(state)  # the Goblin's
    assert state.combatant("c2").condition("frightened") is not None
    state = passed(state)  # Orla's next turn ends
    assert state.combatant("c2").condition("frightened") is None


def test_a_condition_until_the_start_of_its_next_turn_ends_as_it_starts():
    state, _ = run(duel(), D20SetEnding("c2", "prone", START, "c2"))
    state = passed(state)
    assert state.current_id == "c2"
    assert state.combatant("c2").condition("prone") is None


async def test_the_line_lays_a_condition_until_the_end_of_orlas_next_turn(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"ending goblin frightened ends=end whose=orla", "enter")
        on = lambda: app.session.state.combatant("c2").condition("frightened")  # noqa: E731
        await until(pilot, lambda: on() is not None, "the condition laid")
        await until(pilot, lambda: "to the end of Orla's turn" in screen_text(app), "its badge")
        for _ in range(3):
            await pilot.press("n")
        await until(pilot, lambda: on() is None, "gone at the end of Orla's next turn")


async def test_the_condition_dialog_by_keys_lays_a_condition_that_a_save_ends(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await until(pilot, lambda: "Lasts" in screen_text(app), "the condition dialog")
        await pilot.press("shift+tab", "right", "tab", *"paralyzed")  # the Goblin, paralyzed
        await pilot.press("tab", *["right"] * 4)  # Lasts: save ends
        await until(pilot, lambda: "Save ends" in screen_text(app), "the ending chosen")
        await pilot.press("enter")  # Wisdom, DC 13: the dialog's own
        on = lambda: app.session.state.combatant("c2").condition("paralyzed")  # noqa: E731
        await until(pilot, lambda: on() is not None, "laid")
        await until(pilot, lambda: "paralyzed: Wis 13 ends" in screen_text(app), "its badge")
        await pilot.press("n", "n")
        await until(pilot, lambda: "ends paralyzed (40.0%)" in screen_text(app), "asked")


async def test_cond_on_the_line_lays_a_condition_until_the_start_of_its_next_turn(
    tmp_path: Path,
) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    app = make_app(tmp_path, ScriptedDice([]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("colon", *"cond goblin prone start goblin", "enter")
        on = lambda: app.session.state.combatant("c2").condition("prone")  # noqa: E731
        await until(pilot, lambda: on() is not None, "laid")
        await pilot.press("n")
        await until(pilot, lambda: on() is None, "gone as the Goblin's turn starts")
        await pilot.press("colon", *"cond goblin blinded save con 12", "enter")
        await until(pilot, lambda: "Blinded: Con 12 ends" in screen_text(app), "save ends")


# --- solo play and the forecast ----------------------------------------------------------------


def test_solo_play_rolls_the_held_targets_save_and_the_start_of_its_turn():
    state = all_solo(passed(held(), 2))
    move = SYSTEM.solo_move(state)
    assert move is not None and move.command == D20EndOfTurnSave("c2", "paralyzed")
    state, _ = run(all_solo(trolled()), NextTurn())
    move = SYSTEM.solo_move(state)
    assert move is not None and move.command == D20StartOfTurn("c2")


def test_the_forecast_plays_the_saves_and_the_turn_starts_out():
    state, _ = run(held(), D20SetTurnStart("c2", "1d4 fire"))
    state = all_solo(state)
    dice = SeededDice(3)
    seen: set[type[Any]] = set()
    for _ in range(40):  # the forecast's loop: the solo moves, or the turn passed
        move = SYSTEM.solo_move(state)
        command = move.command if move is not None else NextTurn()
        events = decide(state, command, dice)
        seen |= {type(e) for e in events}
        state = fold_onto(state, events)
    assert {D20EndOfTurnSaved, D20TurnStarted} <= seen


def test_turn_edges_are_saved_and_read_back_and_an_older_save_opens_without_them():
    history = history_of(("Orla", "party", HERO_SHEET), ("Goblin", "foes", FOE_SHEET))
    for command, faces in (
        (HOLD, [5]),
        (D20Apply(), []),
        (D20SetTurnStart("c2", "1d4 fire", 10, 5, False), []),
        (D20SetEnding("c1", "prone", START, "c1"), []),
        (NextTurn(), []),
        (D20StartOfTurn("c2"), [3, 6]),
        (NextTurn(), []),
    ):
        history.commit(decide(history.state, command, ScriptedDice(faces)))
    read = decode(encode(history))
    assert read.state == history.state
    assert read.state.system_state.edges and read.state.system_state.starts
    assert SYSTEM.pending(read.state) == SYSTEM.pending(history.state) != ""
    older = structs.replace(history.state.system_state, edges=(), starts=(), turn=None)
    assert decode_state_without(older) == D20State()  # the fields an older save lacks


def decode_state_without(found: D20State) -> D20State:
    """An older save's system state: the new fields left out, read with their defaults."""
    raw = msgspec.to_builtins(found)
    for key in ("edges", "starts", "starting_id", "regenerating", "regeneration_off_ids"):
        raw.pop(key, None)
    return msgspec.convert(raw, D20State)
