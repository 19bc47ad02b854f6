"""Generic d20's questions asked of everyone at each move (issue 45): who takes a turn and
who is out are read off each sheet, asking ``life_word`` only of one at 0 hit points and not
marked dead; their answers are the ones ``life_word`` gives."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec import structs

from bench.crowd import crowd
from rules.encounter import Combatant, Encounter
from rules.systems.d20 import standing
from rules.systems.d20.sheet import LAIR, life_word
from tests.systems.d20.support import FOE_SHEET, HERO_SHEET, card, fight


def every_kind_of_standing() -> Encounter:
    """The living, the dead, a dying and a stable hero, a lair, a foe at 0 not marked dead (a
    sheet edited by hand), a dead hero."""
    return fight(
        ("Orla", "party", HERO_SHEET),
        ("Goblin", "foes", structs.replace(FOE_SHEET, hp=0, dead=True)),
        ("Sefi", "party", structs.replace(HERO_SHEET, hp=0)),
        ("Bram", "party", structs.replace(HERO_SHEET, hp=0, stable=True)),
        ("Crypt", "foes", card(LAIR, damage="1d6 necrotic", lair_save="Con 11")),
        ("Wolf", "foes", structs.replace(FOE_SHEET, hp=0)),
        ("Tamsin", "party", structs.replace(HERO_SHEET, hp=0, dead=True)),
        ("Ogre", "foes", FOE_SHEET),
    )


def test_who_takes_a_turn_and_who_is_out_are_as_life_word_says() -> None:
    state = every_kind_of_standing()
    alive = [c.name for c in state.combatants if life_word(c.sheet) != "dead"]
    assert [c.name for c in standing.in_turn(state)] == alive
    assert {c.name: standing.out_word(c) for c in state.combatants} == {
        "Orla": "",
        "Goblin": "dead",
        "Sefi": "down",
        "Bram": "down",
        "Crypt": "lair",
        "Wolf": "dead",
        "Tamsin": "dead",
        "Ogre": "",
    }


def test_a_crowd_of_forty_is_read_without_asking_life_word_of_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = crowd("d20", 40)
    fallen = state.combatants[::3]  # a third dead, as a long fight leaves them
    for combatant in fallen:
        dead = structs.replace(combatant.sheet, hp=0, dead=True)
        state = state.replace_combatant(structs.replace(combatant, sheet=dead))
    asked: list[Combatant[Any]] = []
    asking = standing.life_word

    def counted(sheet: Any) -> str:
        asked.append(sheet)
        return asking(sheet)

    monkeypatch.setattr(standing, "life_word", counted)
    order = standing.in_turn(state)
    words = [standing.out_word(c) for c in state.combatants]
    assert len(order) == 40 - len(fallen)
    assert words.count("dead") == len(fallen) and words.count("") == 40 - len(fallen)
    assert asked == []  # before: every combatant, twice
