"""Builders for Pain Pool's rules tests: a hero, a challenge, scripted rolls."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.dice import ScriptedDice
from rules.history import History
from rules.systems.painpool.events import (
    PainPoolRoll,
    PainPoolState,
)
from rules.systems.painpool.roll import PainPoolRolled
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet, parse_boons
from tests.helpers import run

HERO, FOE, ALLY = "c1", "c2", "c3"


def hero(boons: str = "", **kw: object) -> HeroSheet:
    return HeroSheet(boons=parse_boons(boons), **kw)  # type: ignore[arg-type]


def fight(sheet: HeroSheet | None = None, foe: ChallengeSheet | None = None) -> History:
    """c1 the hero (on ``sheet``), c2 the challenge, c3 an ally with no boons."""
    history = History(fold_events())
    run(history, AddCombatant(name="Bullet", side="heroes", sheet=sheet or hero()))
    run(history, AddCombatant(name="Ogre", side="challenge", sheet=foe or ChallengeSheet()))
    run(history, AddCombatant(name="Prof", side="heroes", sheet=hero()))
    return history


def fold_events():
    from rules.engine import new_encounter

    return new_encounter("Bridge", "painpool")


def roll(history: History, faces: list[int], **kw: object) -> PainPoolRolled:
    command = PainPoolRoll(hero_id=HERO, challenge_id=FOE, **kw)  # type: ignore[arg-type]
    dice = ScriptedDice(faces)
    (event,) = run(history, command, dice)
    assert dice.remaining == 0, "every scripted die is rolled"
    assert isinstance(event, PainPoolRolled)
    return event


def pot(history: History) -> PainPoolState:
    state = history.state.system_state
    assert isinstance(state, PainPoolState)
    return state


def sheet_of(history: History, cid: str = HERO):
    return history.state.combatant(cid).sheet
