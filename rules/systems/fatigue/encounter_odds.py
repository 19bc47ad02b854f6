"""Fatigue & Thresholds' odds in an encounter: the check a dialog describes and the last one,
named for the Consequences pane with the attacker's fumble (the arithmetic is ``odds``, free
of msgspec)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from rules.errors import Rejected
from rules.odds import percent, whose_chances
from rules.roles.rolls import Rolls

from . import odds
from .check import (
    check,
)
from .events import (
    FatigueChecked,
)
from .forms import (
    MiddleDice,
    check_command,
)

if TYPE_CHECKING:
    from rules.odds import Odds

    from .events import FatigueEncounter


def dialog_odds(state: FatigueEncounter, action: str, values: Mapping[str, str]) -> Odds | None:
    """The exact chance of each band for the check the dialog describes (None: no check yet,
    or values the roll would refuse)."""
    if action != "roll":
        return None
    try:
        roll = check(state, check_command(state, values), MiddleDice())
    except Rejected:
        return None
    return _named(state, roll, odds.checked_odds(roll))


def last_odds(state: FatigueEncounter) -> Odds | None:
    """The chances the last check had before its dice (aid and suckage came after)."""
    roll = state.last_roll
    if not isinstance(roll, FatigueChecked):
        return None
    return _named(state, roll, odds.checked_odds(roll))


def _named(state: FatigueEncounter, roll: FatigueChecked, found: Odds) -> Odds:
    """Odds saying whose they are, and the attacker's chance of a fumble (which lands in the
    first band, the defender's, so the bands alone would hide it)."""
    defender = state.name_of(roll.defender.combatant_id)
    if roll.attacker is None:
        return found._replace(whose=whose_chances("Nature", defender))
    attacker = state.name_of(roll.attacker.combatant_id)
    extra = found.extra
    fumble = extra.get("fumble")
    if isinstance(fumble, Fraction):
        first = found.tiers[0].label
        note = f"{attacker} fumbles: {percent(fumble)} ({roll.fumble_line} or less; in {first})"
        extra = {**extra, "note": note}
    return found._replace(whose=whose_chances(attacker, defender), extra=extra)


class FatigueOdds(Rolls):
    """Fatigue's exact odds (``rules.roles.rolls``)."""

    has_odds = True
    odds = staticmethod(dialog_odds)
    last_odds = staticmethod(last_odds)
