"""Small fights of Generic d20 for its tests: sheets, a fight built from them, a command run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.commands import AddCombatant
from rules.dice import ScriptedDice, SeededDice
from rules.encounter import Encounter
from rules.engine import decide, fold_onto, initial_state, new_encounter
from rules.history import History
from rules.systems.d20.events import sheet_of
from rules.systems.d20.sheet import HERO, D20Sheet, sheet_from_values
from tests.cli.support import tracker


def card(kind: str = "monster", **fields: str) -> D20Sheet:
    return sheet_from_values(fields, D20Sheet(kind=kind))


HERO_SHEET = card(HERO, hp="20/20", ac="15", attack_bonus="5", damage="1d8+3 slashing",
                  saves="Str +3 Dex +1 Con +2")  # fmt: skip
FOE_SHEET = card(hp="12/12", ac="13", attack_bonus="4", damage="1d6+2 piercing",
                 saves="Dex +2 Con +1")  # fmt: skip


def fight(*people: tuple[str, str, D20Sheet]) -> Encounter:
    """An encounter with ``(name, side, sheet)`` added in order: c1, c2..."""
    state = initial_state(new_encounter("Test", "d20"))
    for name, side, sheet in people:
        state = fold_onto(state, decide(state, AddCombatant(name=name, side=side, sheet=sheet),
                                         SeededDice(1)))  # fmt: skip
    return state


def history_of(*people: tuple[str, str, D20Sheet]) -> History:
    """A history with ``(name, side, sheet)`` added in order (c1, c2...), for the app."""
    history = History(new_encounter("Test", "d20"))
    for name, side, sheet in people:
        added = AddCombatant(name=name, side=side, sheet=sheet)
        history.commit(decide(history.state, added, SeededDice(1)))
    return history


def duel(hero: D20Sheet = HERO_SHEET, foe: D20Sheet = FOE_SHEET) -> Encounter:
    return fight(("Orla", "party", hero), ("Goblin", "foes", foe))


def run(state: Encounter, command: Any, *faces: int) -> tuple[Encounter, list[Any]]:
    """The command with these faces, every one used; the state after, and the events."""
    dice = ScriptedDice(faces)
    events = decide(state, command, dice)
    assert dice.remaining == 0, f"{dice.remaining} faces unused"
    return fold_onto(state, events), events


def sheet(state: Encounter, cid: str) -> D20Sheet:
    return sheet_of(state.combatant(cid))


def refused_by_library_add(folder: Path, name: str, text: str) -> str:
    """``tracker library add`` of a stat block file ``name`` holding ``text``, refused: its
    one line on stderr (checked: one line, no traceback, nothing on stdout or kept)."""
    block = folder / name
    block.write_text(text, encoding="utf-8")
    done = tracker("--library", str(folder / "lib"), "library", "add", str(block))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert not (folder / "lib").exists() or not list((folder / "lib").rglob("*.toml"))
    return done.stderr


# The Adult Red Dragon as docs/guide/preparing.md types it (srd-common): several actions, a
# Multiattack of a save effect and three attacks, legendary actions with costs.
DRAGON_ACTIONS = (
    "Multiattack: Frightful Presence, Bite, Claw x2; "
    "Bite: +14, 2d10+8 piercing plus 2d6 fire; Claw: +14, 2d6+8 slashing; "
    "Tail: +14, 2d8+8 bludgeoning; Fire Breath: Dex 21 half, 18d6 fire, recharge 5-6; "
    "Frightful Presence: Wis 19 none, frightened; Detect"
)
DRAGON_LEGENDARY = (
    "Detect; Tail Attack: Tail; Wing Attack: Dex 22, 2d6+8 bludgeoning, prone, costs 2"
)
DRAGON_SHEET = card(hp="256/256", ac="19", saves="Dex +6 Con +13 Wis +7 Cha +11",
                    actions=DRAGON_ACTIONS, legendary="3", legendary_actions=DRAGON_LEGENDARY,
                    legendary_resistance="3")  # fmt: skip
