"""Fatigue's last blow for tests/app/test_app_end_of_fight.py: Orla against one Goblin."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.history import History
from rules.systems.fatigue.sheet import FatigueSheet, Skill, Weapon
from tests.app.support import fight_of

PISTOL = Weapon(name="Pistol", kind="gun", n=2, fumble=8, hits=(10, 30, 60, 100))


def build() -> History:
    orla = FatigueSheet(skills=(Skill("Pistol", 25),), weapons=(PISTOL,))
    return fight_of(
        "fatigue",
        AddCombatant(name="Orla", side="party", sheet=orla),
        AddCombatant(name="Goblin", side="foes", sheet=FatigueSheet()),
    )


LAST_BLOW = (build, (20, 1), "dead", "70", "pool points", 1)  # lost by 44: 100 Health, HP -30/30
