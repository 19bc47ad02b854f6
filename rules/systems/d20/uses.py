"""Whether a stat block action can be used now: its recharge and its uses a day.

A stub: the srd-uses branch fills it (the recharge rolled at the start of the creature's
turn, the uses a day counted). Every action played by name (stat_actions.py) asks it first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.encounter import Combatant, Encounter

    from .actions import D20Action


def unavailable(state: Encounter, combatant: Combatant[Any], action: D20Action) -> str:
    """Why ``combatant`` cannot use ``action`` now ("Fire Breath is recharging"), "" when it
    can."""
    return ""
