"""Beer Run's last blow for tests/app/test_app_end_of_fight.py: Orla against one Goblin."""

from __future__ import annotations

from rules.commands import AddCombatant
from rules.history import History
from rules.systems.beerrun.events import BuildPool, SetCategories
from rules.systems.beerrun.sheet import BeerRunSheet, parse_abilities
from tests.app.support import fight_of


def build() -> History:
    def sheet(abilities: str) -> BeerRunSheet:
        return BeerRunSheet(abilities=parse_abilities(abilities), intensity=10)

    return fight_of(
        "beerrun",
        SetCategories(("Body", "Mind")),
        AddCombatant(name="Orla", side="party", sheet=sheet("Body: Fencing d8, Health d6")),
        AddCombatant(name="Goblin", side="foes", sheet=sheet("Body: Stab d10, Health d2")),
        BuildPool(combatant_id="c1", extra=("Health",), against="c2"),  # paid: t rolls it
    )


LAST_BLOW = (build, (8, 6, 6), "dead", "2", "pips", 1)  # three successes on a Health d2
