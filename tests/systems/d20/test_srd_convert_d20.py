"""The SRD's monster data made into Generic d20 stat blocks by the project's converter, on
small monsters written by hand in the data's shape (tests/systems/d20/data/srd/): each
fact where the sheet keeps it, each slip of the data mended and listed, what the sheet
cannot hold listed, and anything not of that shape left to other readers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.errors import Rejected
from rules.systems.d20.actions import action_text, named
from rules.systems.d20.sheet import D20Sheet
from rules.systems.d20.srd_convert import conversion
from rules.systems.d20.srd_shape import NOTICE
from tracker.store import library

DATA = Path(__file__).parent / "data" / "srd"


def data(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def converted(raw: Any) -> tuple[library.Entry, D20Sheet, Any]:
    made = conversion(raw)
    assert made is not None
    block = made.blocks[0]
    entry = library.parse(block.text)
    sheet: D20Sheet = entry.sheet()
    return entry, sheet, block


def test_a_dragon_in_the_srds_shape_keeps_its_actions_costs_and_legendary_resistance() -> None:
    entry, sheet, _ = converted(data("drake.json"))
    assert (entry.name, entry.creature_type, entry.side, entry.kind) == (
        "Cinder Drake", "dragon", "foes", "monster"
    )  # fmt: skip
    assert sheet.hp_dice == "13d10+39" and sheet.ac == 17 and sheet.challenge == "7"
    assert sheet.saves == (5, 4, 6, 0, 0, 2)  # Dex and Con proficient, the rest modifiers
    assert sheet.initiative == 1
    assert (sheet.legendary, sheet.legendary_resistance) == (3, 2)
    bite = named(sheet.actions, "Bite")
    assert bite is not None and bite.bonus == 8 and not bite.ranged
    assert bite.damage == "2d10+5 piercing + 1d6 fire"
    glare = named(sheet.actions, "Glare")
    assert glare is not None and glare.save == "wis 13" and not glare.half
    assert glare.condition == "frightened" and glare.per_day == 3
    wing = named(sheet.legendary_actions, "Wing Buffet")  # "(Costs 2 Actions)" taken out
    assert wing is not None and wing.cost == 2 and wing.condition == "prone"
    tail = named(sheet.legendary_actions, "Tail Attack")
    assert tail is not None and tail.makes == (("Tail", 1),)  # "makes a tail attack"
    assert [r.name for r in sheet.reactions] == ["Snap", "Flinch"]
    # The main attack, for what reads one: the first its Multiattack makes.
    assert (sheet.attack, sheet.attack_bonus, sheet.multiattack) == ("Bite", 8, 3)


def test_a_save_for_half_the_data_gives_as_none_is_mended_and_listed() -> None:
    _, sheet, block = converted(data("drake.json"))
    breath = named(sheet.actions, "Cinder Breath")
    assert breath is not None and breath.half and breath.recharge == 5
    assert any("Cinder Breath" in c and "halves" in c for c in block.corrections)


def test_a_multiattack_naming_its_attack_in_the_plural_makes_that_attack_listed() -> None:
    _, sheet, block = converted(data("drake.json"))
    multi = named(sheet.actions, "Multiattack")
    assert multi is not None and multi.makes == (("Bite", 1), ("Claw", 2))
    assert any("'Claws'" in c and "'Claw'" in c for c in block.corrections)


def test_a_resistance_from_nonmagical_weapons_is_kept_as_the_sheet_types_it() -> None:
    _, sheet, block = converted(data("drake.json"))
    assert sheet.resistances == tuple(f"nonmagical {k}" for k in ("bludgeoning", "piercing",
                                                                   "slashing"))  # fmt: skip
    assert sheet.vulnerabilities == ("cold",) and sheet.immunities == ("fire",)
    assert not any("nonmagical" in item for item in block.left_out)
    assert "traits: Ash Cloak" in block.left_out  # by name, never its words


def test_a_list_keeps_each_monster_the_first_of_its_choices_and_lists_the_others() -> None:
    made = conversion(data("band.json"))
    assert made is not None and [b.name for b in made.blocks] == ["Reed Bandit", "Mire Rat"]
    bandit = library.parse(made.blocks[0].text).sheet()
    spear, sling = named(bandit.actions, "Spear"), named(bandit.actions, "Sling")
    assert spear is not None and spear.damage == "1d6+1 piercing"  # one-handed
    assert not spear.ranged and sling is not None and sling.ranged  # "Melee or Ranged": melee
    assert named(bandit.actions, "Multiattack").makes == (("Spear", 2),)  # type: ignore[union-attr]
    assert bandit.challenge == "1/2"
    left = made.blocks[0].left_out
    assert any("1d8+1 piercing" in item for item in left)
    assert any("2 Sling" in item for item in left)


def test_hit_dice_that_could_roll_zero_keep_the_number_and_say_so() -> None:
    made = conversion(data("band.json"))
    assert made is not None
    rat = library.parse(made.blocks[1].text).sheet()
    assert (rat.hp, rat.hp_dice, rat.challenge) == (1, "", "0")
    assert any("1d4-1" in item for item in made.blocks[1].left_out)


def test_every_converted_block_starts_with_the_srds_notice() -> None:
    made = conversion(data("band.json"))
    assert made is not None
    for block in made.blocks:
        comment = "\n".join(line.removeprefix("# ") for line in block.text.splitlines()[1:6])
        assert comment == NOTICE


@pytest.mark.parametrize(
    "raw",
    [{"count": 1, "results": []}, [], [1, 2], "goblin", {"name": "Goblin"}, None],
    ids=["api-list", "empty", "numbers", "text", "no-marks", "null"],
)
def test_data_of_another_shape_is_not_read_as_monsters(raw: object) -> None:
    assert conversion(raw) is None


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"hit_points": None}, "no hit_points"),
        ({"armor_class": 17}, "armor_class must be a list"),
        ({"strength": "strong"}, "strength must be a whole number"),
        ({"challenge_rating": float("nan")}, "challenge_rating must be a number"),
        ({"name": "x" * 200}, "a name has at most"),
        ({"actions": [{"desc": "no name"}]}, "each of its actions must be an object"),
    ],
    ids=["hp", "ac", "score", "nan", "long-name", "nameless-action"],
)
def test_a_damaged_monster_is_refused_in_one_line_naming_it(
    change: dict[str, object], said: str
) -> None:
    raw = data("drake.json") | change
    raw = {k: v for k, v in raw.items() if v is not None}
    with pytest.raises(Rejected) as refused:
        conversion(raw)
    assert said in refused.value.message and "\n" not in refused.value.message


def test_control_characters_in_names_are_gone_from_the_stat_block() -> None:
    raw = data("drake.json")
    raw["name"] = "Cinder\x1b]0;PWNED\x07 Drake\u202e"
    raw["type"] = "dragon\x1b[31m"
    raw["actions"][1]["name"] = "Bi\x1b[2Jte"
    entry, sheet, block = converted(raw)
    assert entry.name == "Cinder]0;PWNED Drake" and entry.creature_type == "dragon[31m"
    assert "\x1b" not in block.text and named(sheet.actions, "Bi[2Jte") is not None


def test_a_multiattack_count_its_words_contradict_is_mended_to_the_words() -> None:
    raw = data("drake.json")
    raw["actions"][0]["actions"][1]["count"] = 1  # its words: "two with its claws"
    _, sheet, block = converted(raw)
    multi = named(sheet.actions, "Multiattack")
    assert multi is not None and multi.makes == (("Bite", 1), ("Claw", 2))
    assert "Multiattack: the data makes 1 Claw, the SRD's words 2" in block.corrections


def test_figures_that_would_read_as_other_parts_or_past_bounds_are_left_out_and_listed() -> None:
    raw = data("drake.json")
    claw, tail = raw["actions"][2], raw["actions"][3]
    claw["damage"][0]["damage_dice"] = "2d6+5, Tail x6"  # would make the Claw a Multiattack
    tail["attack_bonus"] = 1000
    raw["actions"][4]["dc"]["dc_value"] = 99
    raw["actions"][1]["damage"][1]["damage_type"]["index"] = "fire; Evil: +30"
    _, sheet, block = converted(raw)
    claw_read, tail_read = named(sheet.actions, "Claw"), named(sheet.actions, "Tail")
    assert claw_read is not None and not claw_read.makes and not claw_read.damage
    assert tail_read is not None and tail_read.bonus is None
    breath = named(sheet.actions, "Cinder Breath")
    assert breath is not None and not breath.save
    bite = named(sheet.actions, "Bite")
    assert bite is not None and bite.damage == "2d10+5 piercing"
    assert named(sheet.actions, "Evil") is None
    assert "Tail: an attack bonus past 100" in block.left_out
    assert "Claw: a damage it gives that cannot be read" in block.left_out
    assert "Cinder Breath: a save's DC past 40" in block.left_out


def venom_actions() -> tuple[dict[str, str], Any]:
    """The Marsh Stalker's actions as the sheet types them, by name, and its block."""
    _, sheet, block = converted(data("venom.json"))
    return {a.name: action_text(a) for a in sheet.actions}, block


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("Claws", "Claws: +4, 2d4+2 slashing, Con 10 none, paralyzed, save ends"),
        # Its save's damage said only in its words; what follows the save's sentence ("If the
        # poison damage reduces the target to 0 hit points ... paralyzed") is not laid.
        ("Bite", "Bite: +5, 1d8+3 piercing, Con 11 half 2d8 poison"),
        ("Stinger", "Stinger: +5, 1d6+3 piercing, Con 15 half 7d6 poison"),  # dc on its damage
        ("Tail", "Tail: +5, 2d6+3 bludgeoning, Str 13 none, prone"),  # no repeat said
    ],
    ids=["condition-repeated", "damage-in-words", "damage-in-data", "prone"],
)
def test_the_save_a_hit_asks_for_is_kept_with_its_damage_condition_and_repeat(
    name: str, line: str
) -> None:
    actions, block = venom_actions()
    assert actions[name] == line
    assert not any(item.startswith(f"{name}:") for item in block.left_out)


def test_a_hits_save_the_lists_cannot_hold_keeps_the_hit_alone_and_is_listed() -> None:
    actions, block = venom_actions()
    assert actions["Drain"] == "Drain: +4, 1d6+2 necrotic"  # a lowered hit point maximum
    assert "Drain: a DC 13 Con save on a hit" in block.left_out
    # The monster's own save ("the stalker must succeed ... which falls prone") and one whose
    # DC is not said: the hit alone, no condition laid, listed.
    assert actions["Gulp"] == "Gulp: +5, 2d8+3 piercing"
    assert actions["Lash"] == "Lash: +5, 1d4+3 slashing"
    assert "Gulp: a saving throw on a hit" in block.left_out
    assert "Lash: a saving throw on a hit" in block.left_out


def test_saving_throws_a_hit_hinders_are_no_save_asked_and_its_condition_is_laid() -> None:
    actions, block = venom_actions()
    assert actions["Tendril"] == "Tendril: +5, grappled"
    assert not any(item.startswith("Tendril:") for item in block.left_out)


def test_a_save_effect_repeated_at_the_end_of_each_turn_ends_on_a_save() -> None:
    actions, _ = venom_actions()
    assert actions["Dread Gaze"] == "Dread Gaze: Wis 12 none, frightened, save ends"
    # Repeated against the frightened condition, not the deafened one it lays first.
    assert actions["Howl"] == "Howl: Wis 12 none, deafened"
