"""LiveHack's last blow for tests/app/test_app_end_of_fight.py: Orla against one Goblin."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.history import History
from rules.systems.livehack.sheet import LiveHackSheet
from tests.app.support import fight_of


def build() -> History:
    return fight_of(
        "livehack",
        AddCombatant(name="Orla", side="party", sheet=LiveHackSheet(attack=5)),
        AddCombatant(name="Goblin", side="foes", sheet=LiveHackSheet()),
    )


# The blow is two rolls: the hit (margin 15, +3) and its damage roll (margin 18: four Wounds
# and Dying), which the quick turn's Enter rolls; d applies its table.
FACES = (11, 1, 1, 1, 11, 1, 1, 1)
LAST_BLOW = (build, FACES, "dying", "4", "levels", 2)
BLOW_KEYS = ("t", "enter", "enter", "d")  # the quick turn, then the damage roll's table
