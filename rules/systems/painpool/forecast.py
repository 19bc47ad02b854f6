"""Pain Pool in a forecast (``rules.forecast``): the table's part, a hero's roll."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rules.errors import Rejected
from rules.roles.solo import Solo
from rules.system import Move

from . import solo
from .forms import roll_command, roll_form
from .sheet import ChallengeSheet, HeroSheet, out_of_fight

if TYPE_CHECKING:
    from .events import PainPoolEncounter, PainPoolHero


def forecast_move(state: PainPoolEncounter, acted: frozenset[str]) -> Move | None:
    """Each exchange every hero still in the fight attacks once, with the boons and bonus
    dice its policy picks (``solo.fill``); the solo sides settle it and strike back. None
    once each has: the exchange ends."""
    # Each asked only as far as it must be (this is asked at every move of every run).
    people = state.combatants
    if not any(isinstance(c.sheet, ChallengeSheet) and not c.sheet.passed for c in people):
        return None
    hero = next(
        (
            c
            for c in people
            if isinstance(c.sheet, HeroSheet) and c.id not in acted and not out_of_fight(c.sheet)
        ),
        None,
    )
    if hero is None:
        return None
    try:
        form = roll_form(state, hero.id)  # once: the fill and the command read it too
        values = {f.key: f.default for f in form}
        values["intent"] = "fights on"
        if state.is_solo(hero):  # as ``solo.fill`` asks
            values, _ = solo.filled(cast("PainPoolHero", hero), form, values)
        command = roll_command(state, values, form)
    except Rejected:
        return None
    return Move(hero.id, command, "the hero attacks")


class PainPoolForecast(Solo):
    """What Pain Pool's table does in a forecast (``rules.roles.solo``)."""

    forecast_move = staticmethod(forecast_move)
