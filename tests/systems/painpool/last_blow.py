"""Pain Pool's last blow for tests/app/test_app_end_of_fight.py: Orla against one Goblin."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.history import History
from rules.systems.painpool.sheet import ChallengeSheet, HeroSheet
from tests.app.support import fight_of


def build() -> History:
    return fight_of(
        "painpool",
        AddCombatant(name="Orla", side="party", sheet=HeroSheet()),
        AddCombatant(name="Goblin", side="foes", sheet=ChallengeSheet(pool=3, tokens=2)),
    )


LAST_BLOW = (build, (5, 3, 2, 1, 1, 1), "passed", "2", "points", 1)  # 10 against 3: both tokens
