"""Beer Run in a forecast (``rules.forecast``): the table's part, and the figures to average."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.roles.solo import Solo
from rules.system import Figure, Move

from .decide import br_state, round_pools, sheet_of
from .events import RollRound
from .sheet import HEALTH

if TYPE_CHECKING:
    from .events import BeerRunCombatant, BeerRunEncounter


def forecast_move(state: BeerRunEncounter, acted: frozenset[str]) -> Move | None:
    """The table rolls the round once the pools are paid (the solo sides land the successes
    and cede by themselves); then the round ends."""
    if br_state(state).rolled_round != state.round and round_pools(state):
        return Move("", RollRound(), "the table rolls the round")
    return None


def end_figures(combatant: BeerRunCombatant) -> tuple[Figure, ...]:
    """Intensity left, and the Health die's size (0 once it is gone)."""
    sheet = sheet_of(combatant)
    health = sheet.ability(HEALTH)
    figures = [Figure("Int", sheet.intensity)]
    if health is not None:
        figures.append(Figure("Health", health.size))
    return tuple(figures)


class BeerRunForecast(Solo):
    """What Beer Run's table does in a forecast (``rules.roles.solo``)."""

    forecast_move = staticmethod(forecast_move)
