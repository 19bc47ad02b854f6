"""A Generic d20 stat block's actions as the SRD writes them: typed, read back the same,
refused in one line, and the sheet's main attack taken from them."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import Rejected
from rules.systems.d20.actions import (
    D20Action,
    action_text,
    actions_text,
    made,
    named,
    parse_actions,
)
from rules.systems.d20.sheet import D20Sheet
from tests.systems.d20.support import card

DRAGON = (
    "Multiattack: Frightful Presence, Bite, Claw x2; "
    "Bite: +14, 2d10+8 piercing plus 2d6 fire; Claw: +14, 2d6+8 slashing; "
    "Tail: +14, 2d8+8 bludgeoning; Fire Breath: Dex 21 half, 18d6 fire, recharge 5-6; "
    "Frightful Presence: Wis 19 none, frightened"
)
LEGENDARY = "Detect; Tail Attack: Tail; Wing Attack: DC 22 Dex, 2d6+8 bludgeoning, costs 2"


def test_an_adult_red_dragons_actions_read_as_the_srd_writes_them() -> None:
    actions = parse_actions(DRAGON)
    assert [a.name for a in actions][:3] == ["Multiattack", "Bite", "Claw"]
    bite, breath = named(actions, "bite"), named(actions, "Fire Breath")
    assert bite is not None and bite.bonus == 14 and not bite.ranged
    assert bite.damage == "2d10+8 piercing + 2d6 fire"
    assert breath is not None and breath.save_dc == ("dex", 21) and breath.half
    assert breath.recharge == 5 and breath.bonus is None
    fear = named(actions, "Frightful Presence")
    assert fear is not None and fear.condition == "frightened" and not fear.half
    multi = named(actions, "Multiattack")
    assert multi is not None
    assert [a.name for a in made(actions, multi)] == ["Frightful Presence", "Bite", "Claw", "Claw"]


def test_a_list_written_back_reads_back_the_same() -> None:
    for text in (DRAGON, LEGENDARY, "Shortbow: +4 ranged, 1d6+2 piercing, 3/day"):
        actions = parse_actions(text)
        assert parse_actions(actions_text(actions)) == actions


@given(
    bonus=st.one_of(st.none(), st.integers(-20, 30)),
    ranged=st.booleans(),
    dc=st.integers(1, 40),
    half=st.booleans(),
    save_damage=st.sampled_from(["", "2d8 poison", "3d6 fire + 1d4 cold"]),
    condition=st.sampled_from(["", "paralyzed", "prone"]),
    repeat=st.booleans(),
    magical=st.booleans(),
    recharge=st.integers(0, 6),
    per_day=st.integers(0, 9),
    cost=st.integers(1, 3),
)
def test_any_action_written_back_reads_back_the_same(
    bonus: int | None,
    ranged: bool,
    dc: int,
    half: bool,
    save_damage: str,
    condition: str,
    repeat: bool,
    magical: bool,
    recharge: int,
    per_day: int,
    cost: int,
) -> None:
    action = D20Action(
        name="Strike",
        bonus=bonus,
        ranged=ranged,
        damage="2d6+3 slashing",
        save=f"con {dc}",
        half=half,
        save_damage=save_damage if bonus is not None else "",  # a save effect's is its damage
        condition=condition,
        repeat=repeat,
        magical=magical,
        recharge=recharge,
        per_day=per_day,
        cost=cost,
    )
    assert parse_actions(action_text(action)) == (action,)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Bite: Dex 99", "a save's DC is from 1 to 40"),
        ("Bite: half", "has no save"),
        ("Claws: +4, 1d6 slashing, paralyzed, save ends", "has no save"),
        ("Breath: Dex 13 half 4d6 fire, 2d6 cold", "a save effect has one damage"),
        ("Bite: +4, Con 11 half venom", "the damage it deals"),
        (": +4", "a name of 1 to 40 characters"),
        ("Bite: +4; bite: +5", "two actions are named"),
        ("Claws: frob x9", "a count from 1 to 6"),
        ("Bite: +4, 2d6 fire + ", "a part needs dice after it"),
        ("Breath: Dex 13, 3/day, 99/day", "uses a day are from 1 to 9"),
        ("Wing: costs 5", "costs 1 to 3 actions"),
    ],
)
def test_a_wrong_action_is_refused_in_one_line_naming_it(text: str, says: str) -> None:
    with pytest.raises(Rejected) as refused:
        parse_actions(text)
    assert says in refused.value.message
    assert "\n" not in refused.value.message


def test_a_multiattack_naming_an_action_the_block_lacks_is_refused() -> None:
    with pytest.raises(Rejected, match="makes 'Tail', which is not one of its actions"):
        card(actions="Multiattack: Bite, Tail; Bite: +4, 1d6 piercing")
    with pytest.raises(Rejected, match="Legendary actions list: Sweep makes 'Kick'"):
        card(actions="Bite: +4, 1d6 piercing", legendary_actions="Sweep: Kick")


def test_a_sheet_with_actions_takes_its_main_attack_and_multiattack_from_them() -> None:
    sheet = card(hp="256/256", ac="19", actions=DRAGON, legendary_actions=LEGENDARY,
                 legendary_resistance="3", legendary="3")  # fmt: skip
    assert (sheet.attack, sheet.attack_bonus) == ("Bite", 14)
    assert (sheet.damage, sheet.damage_type) == ("2d10+8 piercing + 2d6 fire", "")
    assert sheet.multiattack == 3  # a bite and two claws; the Frightful Presence rolls no attack
    assert sheet.legendary_resistance == 3
    wing = named(sheet.legendary_actions, "Wing Attack")
    assert wing is not None and wing.cost == 2


def test_a_one_attack_sheet_of_before_still_reads_and_has_no_actions() -> None:
    sheet = card(attack="Tree Club", attack_bonus="6", damage="2d8+4 bludgeoning")
    assert sheet.actions == () and sheet.attack == "Tree Club"


def test_a_save_whose_actions_are_out_of_bounds_is_refused_as_it_is_decoded() -> None:
    many = msgspec.json.encode(
        {"type": "d20.sheet", "actions": [{"name": "x", "makes": [["Bite", 10**9]]}]}
    )
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(many, type=D20Sheet)
