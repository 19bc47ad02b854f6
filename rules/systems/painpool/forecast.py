"""Pain Pool in a forecast (``rules.forecast``): the table's part, a hero's roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.roles.solo import Solo
from rules.system import Move

from . import solo
from .forms import roll_command, roll_form
from .sheet import ChallengeSheet, HeroSheet, out_of_fight

if TYPE_CHECKING:
    from .events import PainPoolEncounter


def forecast_move(state: PainPoolEncounter, acted: frozenset[str]) -> Move | None:
    """Each exchange every hero still in the fight attacks once, with the boons and bonus
    dice its policy picks (``solo.fill``); the solo sides settle it and strike back. None
    once each has: the exchange ends."""
    fighting = [c for c in state.combatants if not out_of_fight(c.sheet)]
    if not any(isinstance(c.sheet, ChallengeSheet) for c in fighting):
        return None
    hero = next((c for c in fighting if isinstance(c.sheet, HeroSheet) and c.id not in acted), None)
    if hero is None:
        return None
    try:
        values = {f.key: f.default for f in roll_form(state, hero.id)}
        values, _ = solo.fill(state, "roll", {**values, "intent": "fights on"})
        command = roll_command(state, values)
    except Rejected:
        return None
    return Move(hero.id, command, "the hero attacks")


class PainPoolForecast(Solo):
    """What Pain Pool's table does in a forecast (``rules.roles.solo``)."""

    forecast_move = staticmethod(forecast_move)
