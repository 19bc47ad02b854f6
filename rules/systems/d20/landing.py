"""Where Generic d20's last roll landed among its tiers, in a line: the attack's total
against the AC and what it dealt, a save effect's saves made, a concentration, an end of
turn or a death save."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.roles.rolls import Rolls
from rules.system import Landing

from . import turn_edges
from .damage_said import attack_taken
from .events import D20Attacked, D20ConcentrationSaved, D20DeathSaved, D20Saved
from .table import DEATH_TIERS
from .turn_edge_events import D20EndOfTurnSaved

if TYPE_CHECKING:
    from .events import D20Encounter


def landing(state: D20Encounter) -> Landing | None:
    roll = state.last_roll
    match roll:
        case D20Attacked():
            index = ("miss", "hit", "critical").index(roll.outcome)
            summary = f"{roll.total} vs AC {roll.ac}: {roll.outcome}"
            if roll.outcome != "miss":
                summary += f", {attack_taken(state, roll)}"
            return Landing(index, roll.total - roll.ac, summary.rstrip())
        case D20Saved():
            first = roll.rolls[0]
            saved = sum(r.success for r in roll.rolls)
            summary = f"{saved} of {len(roll.rolls)} save against DC {roll.dc}"
            return Landing(1 if first.success else 0, first.total - roll.dc, summary)
        case D20ConcentrationSaved():
            word = "keeps" if roll.success else "loses"
            summary = f"{roll.total} vs DC {roll.dc}: {word} concentration"
            return Landing(1 if roll.success else 0, roll.total - roll.dc, summary)
        case D20EndOfTurnSaved():
            summary = turn_edges.landing_summary(roll)
            return Landing(1 if roll.success else 0, roll.total - roll.dc, summary)
        case D20DeathSaved():
            index = [t[0] for t in DEATH_TIERS].index(roll.result)
            summary = f"death save {roll.face}: {roll.result}"
            return Landing(index, roll.face, summary)
    return None


def roll_sides(event: Any) -> tuple[str | None, str | None]:
    """Who rolled and who against: an attack's attacker and target, a save's saver and its
    source, a death or concentration save's own."""
    match event:
        case D20Attacked():
            return event.attacker_id, event.target_id
        case D20Saved():
            return event.rolls[0].target_id, event.source_id
        case D20DeathSaved() | D20ConcentrationSaved():
            return event.combatant_id, None
        case D20EndOfTurnSaved():
            return event.target_id, None
    return None, None


class D20Landing(Rolls):
    """Where Generic d20's last roll landed (``rules.roles.rolls``)."""

    landing = staticmethod(landing)
