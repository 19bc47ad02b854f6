"""Condition immunities (rulings.md D5-12): a sheet's *Condition immunities* are never laid by
a rule (a failed save, a hit, a hit's save), the log saying so; laid by hand, it is the GM's
call, noted; exhaustion is refused; the dialog and solo play count it; the SRD's 92 monsters
with such immunities have them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.conditions import Condition
from rules.errors import Rejected
from rules.events import ConditionAdded
from rules.registry import get_system
from rules.systems.d20.events import (
    D20Apply,
    D20Attack,
    D20HitSaveOwed,
    D20Immune,
    D20SaveEffect,
    D20SetExhaustion,
)
from rules.systems.d20.finding import preview_lines
from rules.systems.d20.forms import attack_preview
from rules.systems.d20.sheet import sheet_fields, sheet_from_values
from rules.systems.d20.solo_actions import attack_value
from tests.systems.d20.support import HERO_SHEET, card, fight, refused_by_library_add, run
from tests.systems.d20.test_economy_d20 import started

SYSTEM = get_system("d20")
GOLEM = card(hp="60/60", ac="17", saves="Wis +0 Con +5",
             condition_immunities="Paralysed, poisoned, exhaustion")  # fmt: skip


def against(golem: Any = GOLEM, hero: Any = HERO_SHEET) -> Any:
    """Orla (c1) on her turn against the Golem (c2)."""
    return started(fight(("Orla", "party", hero), ("Golem", "foes", golem)))


def test_the_field_reads_srd_names_and_refuses_others() -> None:
    assert GOLEM.condition_immunities == ("paralyzed", "poisoned", "exhaustion")
    fields = {f.key: f.default for f in sheet_fields(GOLEM)}
    assert fields["condition_immunities"] == "paralyzed, poisoned, exhaustion"
    with pytest.raises(Rejected, match="did you mean frightened"):
        sheet_from_values({"condition_immunities": "frightend"}, GOLEM)
    with pytest.raises(Rejected, match="no SRD condition 'sleepy'"):
        sheet_from_values({"condition_immunities": "sleepy"}, GOLEM)
    with pytest.raises(Rejected, match="at most 400 characters"):
        sheet_from_values({"condition_immunities": "poisoned, " * 10_000}, GOLEM)


def test_a_failed_save_lays_no_condition_it_is_immune_to_and_the_log_says_so() -> None:
    hold = D20SaveEffect("c1", ("c2",), "Hold Monster", "wis", 30, condition="paralyzed",
                         repeat=True)  # fmt: skip
    state, _ = run(against(), hold, 5)  # fails
    before = state
    state, events = run(state, D20Apply())
    assert state.combatant("c2").condition("paralyzed") is None
    immune = [e for e in events if isinstance(e, D20Immune)]
    assert immune == [D20Immune("c2", "paralyzed")]
    assert SYSTEM.describe(before, immune[0]).plain == "Golem is immune to paralyzed"
    assert not SYSTEM.pending(state)  # no save owed at the end of its turns


def test_a_hits_condition_and_a_hits_save_with_nothing_else_are_not_laid() -> None:
    grab = "Sting: +5, 1d6 piercing, poisoned; Claws: +5, 1d4 slashing, Con 12 none, paralyzed"
    spider = card("hero", hp="20/20", ac="14", actions=grab)
    state = against(hero=spider)
    for action in ("Sting", "Claws"):
        after, _ = run(state, D20Attack("c1", "c2", action=action), 15, 2)
        after, events = run(after, D20Apply())
        assert D20Immune("c2", "poisoned" if action == "Sting" else "paralyzed") in events
        assert not any(isinstance(e, D20HitSaveOwed | ConditionAdded) for e in events), action
    said = attack_preview(state, D20Attack("c1", "c2", action="Claws"))
    assert "paralyzed (Golem is immune)" in said


def test_a_hits_save_with_damage_is_still_asked_and_lays_only_the_damage() -> None:
    bite = card(
        "hero",
        hp="20/20",
        ac="14",
        actions="Bite: +5, 1d4 piercing, Con 30 half 2d6 poison, poisoned",
    )
    golem = sheet_from_values({"condition_immunities": "poisoned"}, GOLEM)
    state, _ = run(against(golem, bite), D20Attack("c1", "c2", action="Bite"), 15, 2)
    state, events = run(state, D20Apply())
    assert any(isinstance(e, D20HitSaveOwed) for e in events)
    state, _ = run(state, SYSTEM.consequence_command(state), 3, 4, 4)  # fails; 8 poison
    state, events = run(state, D20Apply())
    assert D20Immune("c2", "poisoned") in events
    assert state.combatant("c2").condition("poisoned") is None


def test_laid_by_hand_it_is_the_gms_call_and_is_noted() -> None:
    state = against()
    added = ConditionAdded("c2", Condition("paralyzed"))
    assert "Golem is immune to paralyzed: laid as asked" in SYSTEM.notices(state, added)


def test_exhaustion_is_refused_for_a_creature_immune_to_it() -> None:
    with pytest.raises(Rejected, match="Golem is immune to exhaustion"):
        run(against(), D20SetExhaustion("c2", 2))


def test_solo_play_sees_nothing_to_gain_from_a_condition_it_cannot_lay() -> None:
    (sting,) = sheet_from_values(
        {"actions": "Sting: +5, 1d6 piercing, poisoned"}, HERO_SHEET
    ).actions
    state = against()
    me, golem = state.combatant("c1"), state.combatant("c2")
    assert attack_value(sting, me, golem, lambda *_: 10)[1] == 0


def test_a_stat_block_naming_a_condition_not_the_srds_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    said = refused_by_library_add(
        tmp_path, "golem.toml",
        'name = "Golem"\nsystem = "d20"\n[sheet]\nhp = "60"\ncondition_immunities = "stoned"\n',
    )  # fmt: skip
    assert "stoned" in said


def test_the_library_shows_a_stat_blocks_immunities_and_traits() -> None:
    zombie = sheet_from_values({"traits": "Undead Fortitude"}, GOLEM)
    lines = preview_lines(zombie, None)
    assert "Traits: Undead Fortitude" in lines
    assert "Condition immunities: paralyzed, poisoned, exhaustion" in lines
