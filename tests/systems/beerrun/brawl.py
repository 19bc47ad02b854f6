"""Builders for Beer Run's rules tests: sheets, a brawl of three, scripted rolls."""

from __future__ import annotations

import pytest

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.engine import decide, new_encounter
from rules.errors import Rejected
from rules.history import History
from rules.systems.beerrun.events import (
    BuildPool,
    RollRound,
    RoundRolled,
    SetCategories,
    SetGoal,
)
from rules.systems.beerrun.sheet import (
    BeerRunSheet,
    Goal,
    parse_abilities,
)

ORLA = "Body: Fencing d8, Health d6; Mind: Wits d6"
ANN = "Body: Health d6; Mind: Charm d8"
GOBLIN = "Body: Stab d10, Health d4"


def sheet(abilities: str, intensity: int = 10, **more: object) -> BeerRunSheet:
    return BeerRunSheet(abilities=parse_abilities(abilities), intensity=intensity, **more)  # type: ignore[arg-type]


def brawl(*people: tuple[str, str]) -> History:
    """Orla (c1), Ann (c2), Goblin (c3) unless told otherwise; categories Body and Mind."""
    history = History(new_encounter("Tavern", "beerrun"))
    run(history, SetCategories(("Body", "Mind")))
    cast = people or (("Orla", ORLA), ("Ann", ANN), ("Goblin", GOBLIN))
    for name, abilities in cast:
        side = "foes" if name == "Goblin" else "party"
        run(history, AddCombatant(name=name, side=side, sheet=sheet(abilities)))
    return history


def run(history: History, command: object, faces: tuple[int, ...] = ()) -> list[object]:
    dice = ScriptedDice(faces)
    events = decide(history.state, command, dice)
    assert dice.remaining == 0, "every scripted die is used"
    history.commit(events, type(command).__name__)
    return events


def me(history: History, cid: str) -> BeerRunSheet:
    found = history.state.combatant(cid).sheet
    assert isinstance(found, BeerRunSheet)
    return found


def size(history: History, cid: str, ability: str) -> int:
    found = me(history, cid).ability(ability)
    assert found is not None
    return found.size


def rolled(events: list[object], stage: str = "main") -> RoundRolled:
    return next(e for e in events if isinstance(e, RoundRolled) and e.stage == stage)


def rejects(history: History, command: object, text: str) -> None:
    with pytest.raises(Rejected, match=text):
        decide(history.state, command, ScriptedDice([]))


def orla_wins(pips_faces: tuple[int, ...] = (8, 6)) -> History:
    history = brawl()
    run(history, SetGoal(combatant_id="c1", goal=Goal(text="Dispatch the goblin")))
    run(history, BuildPool(combatant_id="c1", against="c3"))
    run(history, RollRound(), pips_faces)  # the goblin paid for nothing: d1s
    return history
