"""What a d20 hit lays once its damage is dealt (rulings.md, "What a hit lays"): the save an
attack asks for on a hit (a ghoul's claws, a giant spider's bite), owed as a concentration
save is and rolled by ``d``, set aside by ``x``, rolled by solo play; the condition an attack
lays with no save (grappled)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from msgspec import structs

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide, fold_onto
from rules.events import ConditionAdded
from rules.passing import news
from rules.permissions import refusal
from rules.registry import get_system
from rules.systems.d20.actions import parse_actions
from rules.systems.d20.events import (
    D20Apply,
    D20Attack,
    D20HitSave,
    D20HitSaveOwed,
    D20Saved,
    D20SaveEffect,
    system_state,
)
from rules.systems.d20.finding import preview_lines
from rules.systems.d20.forms import attack_preview
from rules.systems.d20.sheet import HERO
from rules.systems.d20.solo_actions import attack_value
from rules.systems.d20.turn_edge_events import D20EndingSet
from rules.systems.d20.uses import D20Resist
from rules.visibility import Viewer
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight, history_of, run, sheet
from tests.systems.d20.test_economy_d20 import started
from tests.systems.d20.test_fourth_pass_solo_d20 import solo

SYSTEM = get_system("d20")
CLAWS = "Claws: +4, 2d4+2 slashing, Con 10 none, paralyzed, save ends"
BITE = "Bite: +5, 1d8+3 piercing, Con 11 half 2d8 poison"
GRAB = "Tentacle: +4, 1d6 bludgeoning, grappled"


def ghoul(actions: str) -> Any:
    return card(hp="22/22", ac="12", attack_bonus="4", damage="1d6 slashing", actions=actions)


def versus(actions: str, target: Any = HERO_SHEET) -> Any:
    """A monster with ``actions`` (c1) on its turn against Orla (c2, Con +2, AC 15)."""
    return started(fight(("Ghoul", "foes", ghoul(actions)), ("Orla", "party", target)))


def ghoul_history() -> Any:
    """The same with the Claws, as a history (for the app and a served table)."""
    history = history_of(("Ghoul", "foes", ghoul(CLAWS)), ("Orla", "party", HERO_SHEET))
    while history.state.current_id != "c1":
        history.commit(decide(history.state, NextTurn(), None))
    return history


def hit(state: Any, action: str, *faces: int) -> Any:
    """``action`` made at Orla, a hit (15 + its bonus against AC 15), its damage dealt."""
    state, _ = run(state, D20Attack("c1", "c2", action=action), 15, *faces)
    assert SYSTEM.consequence_command(state) == D20Apply()
    then = {"Claws": ", then a Con save DC 10", "Bite": ", then a Con save DC 11"}
    assert SYSTEM.pending(state).endswith(then.get(action, ", and grappled"))
    return run(state, D20Apply())


def test_a_ghouls_claws_ask_a_save_once_the_hit_is_dealt_and_a_failure_paralyzes() -> None:
    state, events = hit(versus(CLAWS), "Claws", 2, 3)
    assert sheet(state, "c2").hp == 20 - 7
    owed = [e for e in events if isinstance(e, D20HitSaveOwed)]
    assert len(owed) == 1 and (owed[0].owed.ability, owed[0].owed.dc) == ("con", 10)
    assert SYSTEM.pending(state) == "Orla: Con save DC 10 against Ghoul's Claws (65.0%)"
    assert SYSTEM.consequence_command(state) == D20HitSave("c2")
    state, events = run(state, D20HitSave("c2"), 5)  # 5 + 2 = 7: fails
    saved = events[0]
    assert isinstance(saved, D20Saved) and saved.hit and not saved.rolls[0].success
    assert SYSTEM.describe(state, saved).plain.startswith(
        "Ghoul's Claws, on a hit: Constitution save DC 10"
    )
    assert system_state(state).hit_saves == ()
    assert SYSTEM.pending(state) == "Claws on Orla: failed"
    state, events = run(state, SYSTEM.consequence_command(state))
    assert state.combatant("c2").condition("paralyzed") is not None
    assert any(isinstance(e, D20EndingSet) for e in events)  # saved against at its turns' end
    assert SYSTEM.pending(state) == ""


def test_a_save_made_against_the_claws_lays_nothing_and_leaves_nothing_waiting() -> None:
    state, events = hit(versus(CLAWS), "Claws", 2, 3)
    state, events = run(state, D20HitSave("c2"), 12)
    assert state.combatant("c2").condition("paralyzed") is None
    assert SYSTEM.pending(state) == "" and state.last_roll_applied
    assert not any(isinstance(e, ConditionAdded) for e in events)


def test_a_spiders_bite_deals_its_poison_on_a_failed_save_and_half_on_a_success() -> None:
    state, _ = hit(versus(BITE), "Bite", 4)  # 4 + 3 piercing
    assert sheet(state, "c2").hp == 13
    failed, _ = run(state, D20HitSave("c2"), 3, 5, 5)  # 3 + 2 fails DC 11; 2d8: 10 poison
    failed, _ = run(failed, SYSTEM.consequence_command(failed))
    assert sheet(failed, "c2").hp == 3
    made, _ = run(state, D20HitSave("c2"), 15, 5, 5)
    made, _ = run(made, SYSTEM.consequence_command(made))
    assert sheet(made, "c2").hp == 8


def test_the_save_owed_is_set_aside_with_x() -> None:
    state, _ = hit(versus(CLAWS), "Claws", 2, 3)
    state = SYSTEM.discard(state)
    assert SYSTEM.pending(state) == "" and system_state(state).hit_saves == ()


def test_a_hit_that_kills_asks_no_save() -> None:
    goblin = structs.replace(FOE_SHEET, hp=3, hp_max=3, ac=10)
    state = started(fight(("Ghoul", "foes", ghoul(CLAWS)), ("Goblin", "party", goblin)))
    state, _ = run(state, D20Attack("c1", "c2", action="Claws"), 15, 2, 3)
    assert SYSTEM.pending(state) == "Goblin takes 7 slashing"  # and no save after it
    _, events = run(state, D20Apply())
    assert not any(isinstance(e, D20HitSaveOwed) for e in events)


def test_a_condition_an_attack_lays_with_no_save_is_laid_on_the_hit() -> None:
    state, _ = hit(versus(GRAB), "Tentacle", 4)
    assert state.combatant("c2").condition("grappled") is not None
    assert SYSTEM.pending(state) == ""
    state, _ = run(state, D20Attack("c1", "c2", action="Tentacle", usage="extra"), 1)  # a miss
    assert state.combatant("c2").condition("grappled") is not None


def test_solo_play_rolls_the_save_its_own_side_owes_and_waits_on_a_players() -> None:
    state = solo(versus(CLAWS), "foes")
    state, _ = run(state, D20Attack("c1", "c2", action="Claws"), 15, 2, 3)
    state, _ = run(state, D20Apply())
    assert SYSTEM.solo_move(state) is None  # Orla's player rolls it (d)
    state = solo(state, "party")
    move = SYSTEM.solo_move(state)
    assert move is not None and move.command == D20HitSave("c2")
    assert "saves against Ghoul's Claws (DC 10)" in move.reason


def test_the_tracker_own_attack_deals_its_hit_and_the_save_waits() -> None:
    state = versus(CLAWS)
    events = decide(
        state, D20Attack("c1", "c2", action="Claws", apply=True), ScriptedDice((15, 2, 3))
    )
    state = fold_onto(state, events)
    assert sheet(state, "c2").hp == 13
    assert SYSTEM.consequence_command(state) == D20HitSave("c2")


def test_the_attack_dialog_says_what_its_hit_lays_and_the_targets_chance() -> None:
    said = attack_preview(versus(CLAWS), D20Attack("c1", "c2", action="Claws"))
    assert "; on a hit: Con save DC 10, Orla fails 35.0%: paralyzed, save ends;" in said
    said = attack_preview(versus(BITE), D20Attack("c1", "c2", action="Bite"))
    assert "on a hit: Con save DC 11, Orla fails 40.0%: 2d8 poison (half on a save);" in said
    said = attack_preview(versus(GRAB), D20Attack("c1", "c2", action="Tentacle"))
    assert "; on a hit: grappled;" in said


async def test_by_keys_the_claws_hit_then_d_deals_it_d_rolls_the_save_and_d_paralyzes(
    tmp_path: Path,
) -> None:
    # the Claws hit (15 + 4), 2d4: 2 and 3; Orla's Con save: 5 + 2 fails DC 10
    app = make_app(tmp_path, ScriptedDice([15, 2, 3, 5]), ghoul_history())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "on a hit: Con save DC" in screen_text(app), "the note")
        await pilot.press("enter")
        await until(pilot, lambda: "Orla takes 7 slashing" in screen_text(app), "the hit waits")
        await pilot.press("d")
        said = "Orla: Con save DC 10 against Ghoul's Claws (65.0%)"
        await until(pilot, lambda: said in screen_text(app), "the save waits")
        await pilot.press("d")
        await until(pilot, lambda: "Claws, on a hit:" in screen_text(app), "log")
        await pilot.press("d")
        await until(pilot, lambda: app.session.state.combatant("c2").condition("paralyzed"),
                    "paralyzed")  # fmt: skip
        await until(pilot, lambda: "paralyzed" in screen_text(app).casefold(), "shown")


def test_legendary_resistance_turns_the_failed_save_a_hit_asked_for() -> None:
    boss = structs.replace(HERO_SHEET, legendary_resistance=3)
    state, _ = hit(versus(CLAWS, boss), "Claws", 2, 3)
    state, _ = run(state, D20HitSave("c2"), 1)
    state, _ = run(state, D20Resist("c2"))
    state, _ = run(state, SYSTEM.consequence_command(state))
    assert state.combatant("c2").condition("paralyzed") is None


def test_solo_play_weighs_what_a_hit_lays_by_the_chance_its_save_fails() -> None:
    claws, bite = parse_actions(CLAWS)[0], parse_actions(BITE)[0]
    stout = card(HERO, hp="20/20", ac="15", saves="Con +20")

    def worth(action: Any, target: Any) -> tuple[Fraction, Fraction]:
        state = versus(f"{CLAWS}; {BITE}", target)
        me, them = state.combatant("c1"), state.combatant("c2")
        return attack_value(action, me, them, lambda *_: Fraction(10))

    hits = Fraction(10, 20)  # 15 + 4 or better of AC 15, with the 20
    assert worth(claws, HERO_SHEET)[1] == hits * Fraction(7, 20) * 5  # fails on 1-7 of 20
    assert worth(claws, stout)[1] == 0
    spider, sure = worth(bite, HERO_SHEET)[0], worth(bite, stout)[0]
    # 2d8 poison, 9 on average, half on a save: a sure save still takes 4.5 of it
    half = Fraction(9, 2)
    assert spider - sure == Fraction(11, 20) * (
        Fraction(8, 20) * 9 + Fraction(12, 20) * half - half
    )


def test_the_player_of_the_target_rolls_its_save_and_deals_what_it_brings() -> None:
    state, _ = hit(versus(CLAWS), "Claws", 2, 3)
    orla = Viewer(role="player", name="Ann", assigned=frozenset({"c2"}))
    other = Viewer(role="player", name="Bo", assigned=frozenset({"c9"}))
    assert refusal(state, orla, SYSTEM.consequence_command(state)) is None
    assert refusal(state, other, D20HitSave("c2")) == "You do not act for Orla"
    state, _ = run(state, D20HitSave("c2"), 3)
    assert refusal(state, orla, SYSTEM.consequence_command(state)) is None  # the paralysis


def test_the_library_says_the_chance_a_hits_save_fails_and_counts_its_damage() -> None:
    state = versus(BITE)
    bite = parse_actions(BITE)[0]
    plain = structs.replace(bite, save="", save_damage="")
    said = preview_lines(
        structs.replace(sheet(state, "c1"), actions=(bite,)), state.combatant("c2")
    )
    bare = preview_lines(
        structs.replace(sheet(state, "c1"), actions=(plain,)), state.combatant("c2")
    )
    line = next(x for x in said if x.startswith("Bite:"))
    assert "· 55% to hit, then fails 40%, " in line
    mean = float(line.rpartition(", ")[2].removesuffix(" avg"))
    bare_mean = float(next(x for x in bare if x.startswith("Bite:")).rpartition(", ")[2][:-4])
    assert mean > bare_mean + 0.55 * 4  # the poison: at least half of 2d8 on 55% of uses


def test_a_players_seat_is_told_the_save_its_hero_owes_is_its_roll() -> None:
    state, _ = hit(versus(CLAWS), "Claws", 2, 3)  # on the Ghoul's turn
    assert news(state, frozenset({"c2"})) == ("your roll", state.combatant("c2"))
    assert news(state, frozenset({"c1"}))[0] == "your turn"  # type: ignore[index]
    state, _ = run(state, D20HitSave("c2"), 15)
    assert news(state, frozenset({"c2"})) == ("up next", state.combatant("c2"))


def test_a_save_effect_every_target_makes_leaves_nothing_to_deal_unless_half_is() -> None:
    state = versus(CLAWS)
    fear = D20SaveEffect("c1", ("c2",), "Fear", "wis", 10, condition="frightened")
    made, _ = run(state, fear, 15)
    assert made.last_roll_applied and SYSTEM.pending(made) == ""
    failed, _ = run(state, fear, 2)
    assert SYSTEM.pending(failed) == "Fear on Orla: failed"
    fire = D20SaveEffect("c1", ("c2",), "Fire", "dex", 10, "2d6 fire")  # half on a save
    burnt, _ = run(state, fire, 15, 3, 3)
    assert SYSTEM.pending(burnt) == "Fire on Orla: saved"


def test_the_paralysis_is_saved_against_as_orlas_turn_ends_and_her_seat_is_told() -> None:
    state, _ = hit(versus(CLAWS), "Claws", 2, 3)
    state, _ = run(state, D20HitSave("c2"), 3)  # fails
    state, _ = run(state, D20Apply())
    state, _ = run(state, NextTurn())  # Orla's turn, paralyzed
    state, _ = run(state, NextTurn())  # it ends: her save against the paralysis is owed
    assert SYSTEM.pending(state).startswith("Orla: Con save DC 10 ends paralyzed")
    assert news(state, frozenset({"c2"})) == ("your roll", state.combatant("c2"))
    state, _ = run(state, SYSTEM.consequence_command(state), 12)
    assert state.combatant("c2").condition("paralyzed") is None


def test_a_legendary_tail_attack_asks_its_tails_save_on_a_hit() -> None:
    turtle = card(hp="40/40", ac="12", attack_bonus="4", damage="1d6 bludgeoning",
                  actions="Tail: +5, 1d6 bludgeoning, Str 13 none, prone",
                  legendary_actions="Tail Attack: Tail", legendary="3")  # fmt: skip
    state = started(fight(("Turtle", "foes", turtle), ("Orla", "party", HERO_SHEET)), "c2")
    swing = D20Attack("c1", "c2", usage="legendary", action="Tail", of="Tail Attack")
    state, _ = run(state, swing, 15, 4)  # at the end of Orla's turn: a hit, 4 bludgeoning
    state, _ = run(state, D20Apply())
    assert SYSTEM.consequence_command(state) == D20HitSave("c2")
    state, _ = run(state, D20HitSave("c2"), 2)  # 2 + 3 fails DC 13
    state, _ = run(state, D20Apply())
    assert state.combatant("c2").condition("prone") is not None
