"""Resistance "from nonmagical weapons" (rulings.md D5-08): a sheet's ``nonmagical slashing``
halves a weapon attack that is not magical, never a magic weapon's (the attacker's *Magical
attacks*) nor a save effect's damage; typed, checked and written back as a sheet types it."""

from __future__ import annotations

import pytest
from msgspec import structs

from rules.errors import Rejected
from rules.systems.d20.damage_types import counted, parse_types
from rules.systems.d20.encounter_odds import for_attack
from rules.systems.d20.events import D20Apply, D20Attack, D20SaveEffect
from rules.systems.d20.sheet import sheet_fields, sheet_from_values
from tests.systems.d20.support import HERO_SHEET, card, fight, run, sheet
from tests.systems.d20.test_economy_d20 import started

WIGHT = card(hp="45/45", ac="14", attack_bonus="4", damage="1d8+2 slashing",
             resistances="necrotic, nonmagical bludgeoning piercing slashing")  # fmt: skip


def hit(magical: bool) -> int:
    """Orla's Longsword (1d8+3 slashing, a hit of 8) at the Wight: the damage it takes."""
    orla = structs.replace(HERO_SHEET, magical=magical)
    state = started(fight(("Orla", "party", orla), ("Wight", "foes", WIGHT)))
    state, _ = run(state, D20Attack("c1", "c2"), 15, 5)
    state, _ = run(state, D20Apply())
    return 45 - sheet(state, "c2").hp


def test_a_nonmagical_weapon_is_halved_and_a_magic_one_is_not() -> None:
    assert hit(magical=False) == 4
    assert hit(magical=True) == 8


def test_a_save_effects_damage_is_no_weapon_and_is_not_halved() -> None:
    state = started(fight(("Orla", "party", HERO_SHEET), ("Wight", "foes", WIGHT)))
    rockfall = D20SaveEffect("c1", ("c2",), "Rockfall", "dex", 30, "2d6 bludgeoning")
    state, _ = run(state, rockfall, 5, 3, 3)  # fails; 6 bludgeoning
    state, _ = run(state, D20Apply())
    assert sheet(state, "c2").hp == 45 - 6


def test_the_attack_dialogs_odds_count_the_resistance_only_against_a_nonmagical_weapon() -> None:
    for magical, mean in ((False, "3.50"), (True, "7.50")):
        orla = structs.replace(HERO_SHEET, magical=magical, damage="1d8+3", damage_type="slashing")
        state = fight(("Orla", "party", orla), ("Wight", "foes", WIGHT))
        odds = for_attack(state, state.combatant("c1"), state.combatant("c2"), 0)
        assert f"damage mean {mean} on a hit" in str(odds.extra.get("note")), odds.extra


def test_nonmagical_is_typed_before_the_types_it_qualifies_and_written_back_the_same() -> None:
    kinds = parse_types("necrotic, nonmagical bludgeoning piercing, slashing", "Resistances")
    assert kinds == ("necrotic", "nonmagical bludgeoning", "nonmagical piercing", "slashing")
    assert counted(kinds, nonmagical=False) == ("necrotic", "slashing")
    assert counted(kinds, nonmagical=True) == ("necrotic", "bludgeoning", "piercing", "slashing")
    typed = sheet_from_values({"resistances": ", ".join(kinds), "magical": "yes"}, WIGHT)
    assert typed.resistances == kinds and typed.magical
    fields = {f.key: f.default for f in sheet_fields(typed)}
    assert fields["magical"] == "yes" and parse_types(fields["resistances"], "R") == kinds
    with pytest.raises(Rejected, match="nonmagical names the types it qualifies"):
        parse_types("fire, nonmagical", "Resistances")
    with pytest.raises(Rejected, match="did you mean slashing"):
        parse_types("nonmagical slashng", "Resistances")
