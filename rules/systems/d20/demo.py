"""The Generic d20 demo: four heroes against six foes (a goblin, a wolf, a cutthroat, a
raider, a skeleton archer and a troll), in round 1, an attack rolled and its damage waiting."""

from __future__ import annotations

from rules.commands import AddCombatant, AddCondition, NextTurn
from rules.dice import SeededDice
from rules.engine import decide, new_encounter
from rules.history import History

from .events import D20Attack
from .sheet import HERO, D20Sheet, sheet_from_values

STEM = "demo-d20"  # its bundled save: saves/demo-d20.fight (make demo)
SEED = 2001


def sheet(kind: str = "monster", **fields: str) -> D20Sheet:
    return sheet_from_values(fields, D20Sheet(kind=kind))


PARTY = (
    (
        "Orla Vance",
        sheet(
            HERO,
            hp="28/28",
            ac="18",
            attack="Longsword",
            attack_bonus="5",
            damage="1d8+3 slashing",
            initiative="1",
            saves="Str +5 Dex +1 Con +4 Int +0 Wis +1 Cha -1",
            challenge="fighter 3",
        ),
    ),
    (
        "Sefi Marrow",
        sheet(
            HERO,
            hp="24/24",
            ac="16",
            attack="Mace",
            attack_bonus="4",
            damage="1d6+2 bludgeoning",
            saves="Str +2 Dex +0 Con +2 Int +0 Wis +5 Cha +3",
            challenge="cleric 3",
        ),
    ),
    (
        "Bram Quill",
        sheet(
            HERO,
            hp="33/33",
            ac="15",
            attack="Hand Crossbow",  # Crossbow Expert: again as a bonus action
            attack_bonus="7",
            damage="1d6+4 piercing",
            reach="ranged",
            bonus_attack="yes",
            initiative="4",
            saves="Str +0 Dex +7 Con +1 Int +5 Wis +1 Cha +0",
            challenge="rogue 5",
        ),
    ),
    (
        "Ysolde Fenn",
        sheet(
            HERO,
            hp="27/27",
            ac="12",
            attack="Fire Bolt",
            attack_bonus="7",
            damage="2d10 fire",
            reach="ranged",
            initiative="2",
            saves="Str -1 Dex +2 Con +2 Int +7 Wis +4 Cha +0",
            challenge="wizard 5",
        ),
    ),
)
GOBLIN = sheet(
    hp="2d6",
    ac="13",
    attack="Rusty Blade",
    attack_bonus="4",
    damage="1d6+2 slashing",
    initiative="2",
    saves="Str -1 Dex +2 Con +0 Int +0 Wis -1 Cha -1",
    challenge="1/4",
)
WOLF = sheet(
    hp="2d8+2",
    ac="13",
    attack="Bite",
    attack_bonus="4",
    damage="2d4+2 piercing",
    initiative="2",
    saves="Str +1 Dex +2 Con +1 Int -4 Wis +1 Cha -2",
    challenge="1/4",
)
CUTTHROAT = sheet(
    hp="3d8+3",
    ac="14",
    attack="Scimitar",
    attack_bonus="4",
    damage="1d6+2 slashing",
    initiative="2",
    saves="Str +0 Dex +2 Con +1 Int +0 Wis +0 Cha +0",
    challenge="1/2",
)
RAIDER = sheet(
    hp="2d8+6",
    ac="13",
    attack="Greataxe",
    attack_bonus="5",
    damage="1d12+3 slashing",
    initiative="1",
    saves="Str +3 Dex +1 Con +3 Int -2 Wis +0 Cha +0",
    challenge="1/2",
)
ARCHER = sheet(
    hp="2d8+4",
    ac="13",
    attack="Bone Bow",
    attack_bonus="4",
    damage="1d6+2 piercing",
    reach="ranged",
    initiative="2",
    vulnerabilities="bludgeoning",
    immunities="poison",
    saves="Str +0 Dex +2 Con +2 Int -2 Wis -1 Cha -3",
    challenge="1/4",
)
TROLL = sheet(
    hp="8d10+40",
    ac="15",
    attack="Claws",
    attack_bonus="7",
    damage="2d6+4 slashing",
    initiative="1",
    vulnerabilities="fire",
    saves="Str +4 Dex +1 Con +5 Int -2 Wis -1 Cha -2",
    challenge="5",
    multiattack="2",
)


FOES = (
    ("Bog Goblin", GOBLIN),
    ("Ridge Wolf", WOLF),
    ("Road Cutthroat", CUTTHROAT),
    ("Tusk Raider", RAIDER),
    ("Rattling Archer", ARCHER),
    ("Marsh Troll", TROLL),
)


def build() -> History:
    history = History(new_encounter("The Sunken Road", "d20"))
    dice = SeededDice(SEED)

    def run(command: object, label: str) -> None:
        history.commit(decide(history.state, command, dice), label)

    for name, card in PARTY:
        run(AddCombatant(name=name, side="party", sheet=card), f"add {name}")
    for name, card in FOES:
        run(AddCombatant(name=name, side="foes", sheet=card), f"add {name}")
    run(AddCondition("c10", "prone"), "the troll slips")
    for _ in range(3):  # three turns, each an attack on the first foe standing, dealt at once
        actor = history.state.current
        assert actor is not None
        target = next(c for c in history.state.combatants if c.side != actor.side)
        run(D20Attack(actor.id, target.id, apply=True), f"{actor.name} attacks")
        run(NextTurn(), "next turn")
    # Left to apply: the demo opens on an attack on the prone troll, its damage waiting.
    actor = history.state.current
    assert actor is not None
    aimed = "c10" if actor.side == "party" else "c1"
    run(D20Attack(actor.id, aimed), f"{actor.name} attacks")
    return history
