"""Undead Fortitude (rulings.md D5-09): a zombie dropped to 0 by damage neither radiant nor
from a critical hit makes a Constitution save of DC 5 + the damage taken as the damage is
dealt, and stays up at 1 hit point on a success; the odds and the waiting line count it;
the sheet's *Traits* name it, and the SRD's zombies have it."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from msgspec import json, structs

from rules.commands import NextTurn
from rules.dice import ScriptedDice
from rules.engine import decide
from rules.errors import Rejected
from rules.logline import LogEntry
from rules.registry import get_system
from rules.systems.d20.encounter_odds import dialog_odds, drop_this_round
from rules.systems.d20.events import D20Apply, D20Attack, D20Damaged, D20SaveEffect
from rules.systems.d20.sheet import sheet_fields, sheet_from_values
from tests.app.support import make_app, until
from tests.screen import screen_text
from tests.systems.d20.support import (
    HERO_SHEET,
    card,
    fight,
    history_of,
    refused_by_library_add,
    run,
    sheet,
)
from tests.systems.d20.test_economy_d20 import started

SYSTEM = get_system("d20")
ZOMBIE = card(hp="8/8", ac="8", saves="Con +3", damage="1d6+1 bludgeoning",
              traits="undead fortitude")  # fmt: skip


def versus(zombie: Any = ZOMBIE, hero: Any = HERO_SHEET) -> Any:
    """Orla (c1: +5, 1d8+3 slashing) on her turn against the Zombie (c2: 8 HP, Con +3)."""
    return started(fight(("Orla", "party", hero), ("Zombie", "foes", zombie)))


def text(entry: LogEntry) -> str:
    return "\n".join("".join(span.text for span in line) for line in entry.lines)


def dealt(state: Any, *faces: int) -> tuple[Any, D20Damaged, str]:
    """``d`` on the hit waiting, with ``faces`` for what it rolls: the state, the damage
    event and its log entry as the log shows it (described before it is folded)."""
    events = decide(state, D20Apply(), ScriptedDice(faces))
    damage = next(e for e in events if isinstance(e, D20Damaged))
    said = text(SYSTEM.describe(state, damage))
    after, _ = run(state, D20Apply(), *faces)
    return after, damage, said


def test_a_zombie_dropped_saves_and_stays_up_at_1_hit_point() -> None:
    state, _ = run(versus(), D20Attack("c1", "c2"), 15, 7)  # a hit: 7 + 3 = 10 slashing
    state, damage, said = dealt(state, 12)  # 12 + 3 = 15 against DC 5 + 10
    assert damage.fortitude is not None and damage.fortitude.success
    assert damage.fortitude_dc == 15
    zombie = sheet(state, "c2")
    assert (zombie.hp, zombie.dead) == (1, False)
    assert "Zombie takes 10 slashing: 8 → 1 HP" in said
    assert "Undead Fortitude: Con save 12 +3 = 15 vs DC 15: stays at 1 hit point" in said
    assert "dies" not in said
    before = versus()
    before, _ = run(before, D20Attack("c1", "c2"), 15, 7)
    assert SYSTEM.alerts(before, damage) == ["Zombie stays up at 1 hit point: Undead Fortitude"]


def test_a_failed_save_kills_and_the_dc_counts_all_the_damage_taken() -> None:
    low = structs.replace(ZOMBIE, hp=2)
    state, _ = run(versus(low), D20Attack("c1", "c2"), 15, 7)  # 10 at a zombie with 2 left
    state, damage, said = dealt(state, 11)  # 11 + 3 = 14: short of 5 + 10, not 5 + 2
    assert damage.fortitude_dc == 15 and damage.fortitude is not None
    assert not damage.fortitude.success
    assert sheet(state, "c2").dead
    assert "vs DC 15: fails" in said and "dies" in said


@pytest.mark.parametrize(
    ("hero", "faces", "why"),
    [
        (HERO_SHEET, (20, 3, 4), "a critical hit"),
        (structs.replace(HERO_SHEET, damage_type="radiant"), (15, 7), "radiant"),
        (
            sheet_from_values({"damage": "1d8+3 slashing plus 1d8 radiant"}, HERO_SHEET),
            (15, 7, 1),
            "a radiant part",
        ),
    ],
)
def test_a_critical_or_radiant_damage_kills_without_a_save(
    hero: Any, faces: tuple[int, ...], why: str
) -> None:
    state, _ = run(versus(hero=hero), D20Attack("c1", "c2"), *faces)
    assert "Undead Fortitude" not in SYSTEM.pending(state), why
    state, events = run(state, D20Apply())  # no die left for a save: none is rolled
    assert sheet(state, "c2").dead, why
    assert all(e.fortitude is None for e in events if isinstance(e, D20Damaged))


def test_damage_that_leaves_it_standing_asks_nothing() -> None:
    state, _ = run(versus(structs.replace(ZOMBIE, hp=30, hp_max=30)), D20Attack("c1", "c2"), 15, 7)
    state, events = run(state, D20Apply())
    assert sheet(state, "c2").hp == 20
    assert all(e.fortitude is None for e in events if isinstance(e, D20Damaged))


def test_a_save_effects_damage_that_drops_it_asks_the_save_as_d_deals_it() -> None:
    fire = D20SaveEffect("c1", ("c2",), "Fire Bolt Trap", "dex", 30, "2d6 fire")
    state, _ = run(versus(), fire, 5, 4, 5)  # fails; 9 fire
    state, damage, _ = dealt(state, 19)  # 19 + 3 against DC 14
    assert damage.fortitude_dc == 14 and sheet(state, "c2").hp == 1


def test_an_exhausted_zombie_saves_at_disadvantage() -> None:
    tired = structs.replace(ZOMBIE, exhaustion=3)
    state, _ = run(versus(tired), D20Attack("c1", "c2"), 15, 7)
    state, damage, said = dealt(state, 18, 4)  # the lower of two: 4 + 3 fails DC 15
    assert damage.fortitude is not None and damage.fortitude.faces == (18, 4)
    assert sheet(state, "c2").dead and "Con save, disadvantage 4 (18)" in said


def test_the_dialogs_chance_to_drop_it_counts_the_save_exactly() -> None:
    state = versus()
    note = str(dialog_odds(state, D20Attack("c1", "c2")).extra.get("note"))
    # a hit on 3-19 of 20 dealing 1d8+3; 8 to 11 drop it, each saved against DC 13-16 by
    # Con +3 (fails 9, 10, 11, 12 of 20); a critical (2d8+3) drops it unless 2d8 is under 5
    hit = Fraction(17, 20) * Fraction(1, 8) * Fraction(9 + 10 + 11 + 12, 20)
    crit = Fraction(1, 20) * Fraction(64 - 6, 64)
    assert f"drops Zombie: {float(hit + crit):.1%} (Undead Fortitude)" in note
    plain = versus(structs.replace(ZOMBIE, traits=()))
    assert "drops Zombie: 47.0%" in str(dialog_odds(plain, D20Attack("c1", "c2")).extra)
    # a radiant blow asks no save: its chance is the plain one, and names no trait
    radiant = versus(hero=structs.replace(HERO_SHEET, damage_type="radiant"))
    said = str(dialog_odds(radiant, D20Attack("c1", "c2")).extra.get("note"))
    assert "drops Zombie: 47.0%" in said and "Undead Fortitude" not in said
    # several attacks this round: each drop asks a save the sum does not work out
    two = structs.replace(HERO_SHEET, multiattack=2)
    assert drop_this_round(versus(hero=two), D20Attack("c1", "c2")) is None
    assert drop_this_round(versus(structs.replace(ZOMBIE, traits=()), two),
                           D20Attack("c1", "c2")) is not None  # fmt: skip


def test_the_waiting_line_says_the_save_a_hit_will_ask_and_its_chance() -> None:
    state, _ = run(versus(), D20Attack("c1", "c2"), 15, 7)
    assert SYSTEM.pending(state) == (
        "Zombie takes 10 slashing, then Undead Fortitude: Con save DC 15 (45.0% to stay up)"
    )


def test_a_damage_from_before_the_save_reads_as_it_did() -> None:
    old = b'{"type":"d20.damaged","target_id":"c2","dealer_id":"c1","rolled":10,"amount":10,'
    old += b'"damage_type":"slashing","modifier":""}'
    event = json.decode(old, type=D20Damaged)
    assert event.fortitude is None
    state, _ = run(versus(), D20Attack("c1", "c2"), 15, 7)
    assert "Undead Fortitude" not in text(SYSTEM.describe(state, event))


def test_the_traits_field_names_what_the_tracker_plays_and_refuses_the_rest() -> None:
    typed = sheet_from_values({"traits": " undead   FORTITUDE , Undead Fortitude"}, ZOMBIE)
    assert typed.traits == ("Undead Fortitude",)
    assert {f.key: f.default for f in sheet_fields(typed)}["traits"] == "Undead Fortitude"
    assert sheet_from_values({"traits": ""}, typed).traits == ()
    with pytest.raises(Rejected, match="did you mean Undead Fortitude"):
        sheet_from_values({"traits": "Undead Fortitud"}, ZOMBIE)
    with pytest.raises(Rejected, match=r"does not play 'Pack Tactics'.*the GM plays the others"):
        sheet_from_values({"traits": "Pack Tactics"}, ZOMBIE)
    with pytest.raises(Rejected) as refused:
        sheet_from_values({"traits": "\x1b[31m" + "x" * 5000}, ZOMBIE)
    assert "\x1b" not in refused.value.message and "x" * 41 not in refused.value.message


def test_a_stat_block_naming_a_trait_the_tracker_does_not_play_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    said = refused_by_library_add(
        tmp_path, "wolf.toml",
        'name = "Wolf"\nsystem = "d20"\n[sheet]\nhp = "11"\ntraits = "Pack Tactics"\n',
    )  # fmt: skip
    assert "Pack Tactics" in said


async def test_by_keys_a_zombie_dropped_by_d_rolls_its_save_and_stays_up(tmp_path: Path) -> None:
    history = history_of(("Orla", "party", HERO_SHEET), ("Zombie", "foes", ZOMBIE))
    while history.state.current_id != "c1":
        history.commit(decide(history.state, NextTurn(), None))
    # the hit (15 + 5), 1d8: 7, so 10 slashing; the save: 12 + 3 against DC 15
    app = make_app(tmp_path, ScriptedDice([15, 7, 12]), history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await until(pilot, lambda: "drops Zombie: 26.8%" in screen_text(app), "the odds")
        await pilot.press("enter")
        await until(pilot, lambda: "Zombie takes 10 slashing" in screen_text(app), "waits")
        await pilot.press("d")
        await until(pilot, lambda: sheet(app.session.state, "c2").hp == 1, "stays up")
        await until(pilot, lambda: "Undead Fortitude: Con save" in screen_text(app), "log")
