"""The SRD 5.1's 334 monsters bundled in stat_blocks/srd/: exactly what the converter makes
of the shared data (where that file is present), every one read by the library, carrying
the licence's notice, and each joining a fight against a bundled hero and taking a turn
played by the tracker."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules.commands import NextTurn, SetInitiative
from rules.dice import SeededDice
from rules.engine import decide, fold_onto
from rules.forecast import all_solo
from rules.registry import get_system
from rules.systems.d20.actions import action_text, made
from rules.systems.d20.sheet import D20Sheet
from rules.systems.d20.solo_actions import rolls
from rules.systems.d20.srd_shape import NOTICE
from tests.systems.d20.support import fight
from tracker.store import library, library_sets

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "data" / "srd-5.1" / "5e-SRD-Monsters.json"
FOLDER = library_sets.system_folder("d20")
SRD_COUNT = 334
HERO = "Orla Vance"  # a bundled hero of the system's own set
CHUNKS = 6  # the fights in a few tests, so xdist spreads them


@cache
def bundled() -> library.Library:
    """The bundled library, read once a worker (350 stat blocks)."""
    return library.load(None)


def srd_entries() -> list[library.Entry]:
    return [e for e in bundled().of("d20") if e.source == "srd"]


@pytest.mark.skipif(not SHARED.is_file(), reason=f"no shared SRD data at {SHARED}")
def test_the_bundled_srd_set_is_what_the_converter_makes_of_the_shared_data() -> None:
    (made,) = library_sets.bundles(library_sets.read_data(SHARED), str(SHARED)).values()
    on_disk = {
        str(path.relative_to(FOLDER)): path.read_text(encoding="utf-8")
        for path in (FOLDER / "stat_blocks" / "srd").iterdir()
    }
    on_disk["srd-conversion.md"] = (FOLDER / "srd-conversion.md").read_text(encoding="utf-8")
    stale = sorted(set(on_disk) - set(made))
    missing = sorted(set(made) - set(on_disk))
    assert not stale and not missing, f"run make srd: stale {stale[:5]}, missing {missing[:5]}"
    changed = sorted(name for name in made if made[name] != on_disk[name])
    assert not changed, f"run make srd: {len(changed)} files differ, such as {changed[:5]}"


def test_every_bundled_srd_stat_block_loads_with_the_licences_notice() -> None:
    assert bundled().problems == []
    entries = srd_entries()
    assert len(entries) == SRD_COUNT
    for entry in entries:
        assert entry.path is not None and entry.bundled
        head = entry.path.read_text(encoding="utf-8").splitlines()[1:6]
        assert "\n".join(line.removeprefix("# ") for line in head) == NOTICE, entry.name
    readme = (FOLDER / "stat_blocks" / "srd" / library_sets.README).read_text(encoding="utf-8")
    assert "\n".join(line.removeprefix("> ") for line in readme.splitlines()[-5:]) == NOTICE


# Saves SRD hits ask for, as the converter reads them from the real data.
HIT_SAVES = [
    ("Ghoul", "Claws: +4, 2d4+2 slashing, Con 10 none, paralyzed, save ends"),
    ("Giant Spider", "Bite: +5, 1d8+3 piercing, Con 11 half 2d8 poison"),
    ("Giant Poisonous Snake", "Bite: +6, 1d4+4 piercing, Con 11 half 3d6 poison"),
    ("Dire Wolf", "Bite: +5, 2d6+3 piercing, Str 13 none, prone"),
    ("Assassin", "Shortsword: +6, 1d6+3 piercing, Con 15 half 7d6 poison"),
    ("Adult Red Dragon", "Frightful Presence: Wis 19 none, frightened, save ends"),
    ("Wight", "Life Drain: +4, 1d6+2 necrotic"),  # its hit point maximum: by hand
    ("Giant Octopus", "Tentacles: +5, 2d6+3 bludgeoning, grappled"),  # laid on a hit
    ("Cloaker", "Bite: +6, 2d6+3 piercing"),  # blinded only with advantage: by hand
]


@pytest.mark.parametrize(("monster", "line"), HIT_SAVES, ids=[m for m, _ in HIT_SAVES])
def test_the_saves_srd_hits_ask_for_are_bundled_as_a_sheet_types_them(
    monster: str, line: str
) -> None:
    sheet: D20Sheet = bundled().need("d20", monster).sheet()
    assert line in [action_text(a) for a in sheet.actions]


def test_resistances_from_nonmagical_weapons_and_magic_weapons_are_bundled() -> None:
    wight: D20Sheet = bundled().need("d20", "Wight").sheet()
    balor: D20Sheet = bundled().need("d20", "Balor").sheet()
    assert wight.resistances == ("necrotic", "nonmagical bludgeoning", "nonmagical piercing",
                                 "nonmagical slashing")  # fmt: skip
    assert balor.magical and not wight.magical
    text = (FOLDER / "srd-conversion.md").read_text(encoding="utf-8")
    said = "resistance from nonmagical weapons that aren't silvered: the sheet's count against"
    assert "- **Wight**: " in text and said in text.split("- **Wight**: ")[1].split("\n")[0]
    assert "Magic Weapons" not in text.split("- **Balor**: ")[1].split("\n")[0]


def test_the_srd_traits_the_tracker_plays_are_bundled() -> None:
    for name in ("Zombie", "Ogre Zombie"):
        zombie: D20Sheet = bundled().need("d20", name).sheet()
        assert zombie.traits == ("Undead Fortitude",), name
    assert not bundled().need("d20", "Ghoul").sheet().traits
    resisting = [e.name for e in srd_entries() if "Magic Resistance" in e.sheet().traits]
    assert len(resisting) == 31 and {"Balor", "Archmage", "Imp", "Unicorn"} <= set(resisting)
    immune = [e.sheet().condition_immunities for e in srd_entries()]
    assert sum(1 for i in immune if i) == 92
    golem = bundled().need("d20", "Stone Golem").sheet().condition_immunities
    assert golem == ("charmed", "exhaustion", "frightened", "paralyzed", "petrified", "poisoned")
    boars = {e.name: e.sheet().traits for e in srd_entries() if "boar" in e.name.casefold()}
    assert boars["Boar"] == ("Relentless 7",) and boars["Giant Boar"] == ("Relentless 10",)
    assert len(boars) == 5 and all(t == ("Relentless 14",) for n, t in boars.items() if "Were" in n)
    brave = {e.name for e in srd_entries() if {"Brave", "Dark Devotion"} & set(e.sheet().traits)}
    assert brave == {"Knight", "Gladiator", "Cultist", "Cult Fanatic"}
    regenerating = {
        e.name: e.sheet().traits for e in srd_entries() if "Regeneration" in str(e.sheet().traits)
    }
    assert regenerating["Troll"] == ("Regeneration 10 acid fire at 0",)
    assert regenerating["Vampire Spawn"] == ("Regeneration 10 radiant",)
    assert regenerating["Oni"] == ("Regeneration 10",) and len(regenerating) == 7
    frenzied = {e.name for e in srd_entries() if "Blood Frenzy" in e.sheet().traits}
    assert frenzied == {"Giant Shark", "Hunter Shark", "Quipper", "Sahuagin", "Swarm of Quippers"}
    text = (FOLDER / "srd-conversion.md").read_text(encoding="utf-8")
    left_out = text.split("### What each stat block leaves out")[1]
    assert "dying at 0" not in left_out  # the troll's at 0 is played (D5-16)
    for played in (
        "Undead Fortitude",
        "Magic Resistance",
        "Blood Frenzy",
        "Relentless",
        "immune to",
    ):
        assert played not in left_out, played


def test_a_hits_save_the_sheet_cannot_hold_is_on_the_page() -> None:
    text = (FOLDER / "srd-conversion.md").read_text(encoding="utf-8")
    assert "- **Wight**: Life Drain: a DC 13 Con save on a hit;" in text
    assert "- **Ghoul**: Claws" not in text


def first_turn(state: Any, actor: str, seed: int) -> tuple[Any, list[Any]]:
    """The first command of ``actor``'s first turn as the tracker plays it (every side solo),
    the turns before it played too, and its events; none refused."""
    system = get_system(state.system)
    dice = SeededDice(seed)
    for _ in range(12):
        move = system.solo_move(state)
        command = move.command if move is not None else NextTurn()
        events = decide(state, command, dice)
        if move is not None and move.actor_id == actor:
            return command, events
        state = fold_onto(state, events)
    raise AssertionError(f"{actor} took no turn")


def plays_by_name(sheet: D20Sheet) -> bool:
    """Whether the tracker can play one of its actions: an attack roll or a save, or a
    Multiattack making one."""
    return any(rolls(a) or any(rolls(p) for p in made(sheet.actions, a)) for a in sheet.actions)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_srd_monster_joins_a_fight_and_takes_a_turn_played_by_the_tracker(
    chunk: int,
) -> None:
    hero = bundled().need("d20", HERO)
    entries = srd_entries()[chunk::CHUNKS]
    for number, entry in enumerate(entries):
        state = fight((entry.name, "foes", entry.sheet()), (hero.name, "party", hero.sheet()))
        # by side: the combatants are listed in the order of their initiative, rolled as added
        monster = next(c for c in state.combatants if c.side == "foes")
        other = next(c for c in state.combatants if c.side == "party")
        for cid, value in ((monster.id, "20"), (other.id, "1")):  # the monster's turn first
            state = fold_onto(state, decide(state, SetInitiative(cid, value), SeededDice(0)))
        while state.current_id != monster.id:  # the hero's turn passed, if it came first
            state = fold_onto(state, decide(state, NextTurn(), SeededDice(0)))
        command, events = first_turn(all_solo(state), monster.id, seed=number)
        assert events, f"{entry.name} did nothing on its turn"
        if plays_by_name(entry.sheet()):  # its stat block's action, not the sheet's one attack
            assert getattr(command, "action", ""), f"{entry.name} played none of its actions"
