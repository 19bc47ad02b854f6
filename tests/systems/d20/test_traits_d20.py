"""Blood Frenzy (rulings.md D5-11): a creature whose *Traits* name it attacks in melee with
advantage a target below its hit point maximum; the dialog says why, a disadvantage cancels
it, and the round's drop chance is not summed while its first wound would change it."""

from __future__ import annotations

from typing import Any

from msgspec import structs

from rules.systems.d20.encounter_odds import drop_this_round
from rules.systems.d20.events import D20Attack, D20Attacked
from rules.systems.d20.forms import attack_preview
from tests.systems.d20.support import HERO_SHEET, card, fight, run
from tests.systems.d20.test_economy_d20 import started

SHARK = card(hp="45/45", ac="12", attack_bonus="6", damage="2d8+4 piercing",
             actions="Multiattack: Bite x2; Bite: +6, 2d8+4 piercing; Spit: +6 ranged, 1d4 acid",
             traits="Blood Frenzy")  # fmt: skip


def at(hp: int, shark: Any = SHARK) -> Any:
    """The Shark (c1) on its turn against Orla (c2, 20 hit points at most) at ``hp``."""
    orla = structs.replace(HERO_SHEET, hp=hp)
    return started(fight(("Shark", "foes", shark), ("Orla", "party", orla)))


def rolled(state: Any, action: str, *faces: int) -> D20Attacked:
    _, events = run(state, D20Attack("c1", "c2", action=action), *faces)
    attacked = events[0]
    assert isinstance(attacked, D20Attacked)
    return attacked


def test_blood_frenzy_gives_advantage_in_melee_against_the_wounded_only() -> None:
    unhurt = rolled(at(20), "Bite", 1)  # one d20: a miss
    assert unhurt.mode == 0 and unhurt.faces == (1,)
    wounded = rolled(at(19), "Bite", 1, 1)  # two: both 1, a miss
    assert wounded.mode == 1 and "+Shark Blood Frenzy" in wounded.reasons
    spat = rolled(at(19), "Spit", 1)  # ranged: no frenzy
    assert spat.mode == 0


def test_the_dialog_says_why_and_a_disadvantage_cancels_it() -> None:
    said = attack_preview(at(12), D20Attack("c1", "c2", action="Bite"))
    assert "advantage (Shark Blood Frenzy)" in said
    tired = structs.replace(SHARK, exhaustion=3)
    assert rolled(at(12, tired), "Bite", 1).mode == 0


def test_the_rounds_drop_chance_waits_for_the_first_wound() -> None:
    assert drop_this_round(at(20), D20Attack("c1", "c2", action="Bite")) is None
    assert drop_this_round(at(19), D20Attack("c1", "c2", action="Bite")) is not None
    plain = structs.replace(SHARK, traits=())
    assert drop_this_round(at(20, plain), D20Attack("c1", "c2", action="Bite")) is not None
