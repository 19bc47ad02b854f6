"""Which of the encounter screen's actions a seat's role may use, from what each area of
keys declares (the GM may use every one)."""

from __future__ import annotations

from rules.registry import get_system
from rules.visibility import Viewer
from tracker.screens.encounter_keys.adjust_keys import AdjustKeys
from tracker.screens.encounter_keys.area import Area
from tracker.screens.encounter_keys.condition_keys import ConditionKeys
from tracker.screens.encounter_keys.file_keys import FileKeys
from tracker.screens.encounter_keys.history_keys import HistoryKeys
from tracker.screens.encounter_keys.initiative_keys import InitiativeKeys
from tracker.screens.encounter_keys.roll_keys import RollKeys
from tracker.screens.encounter_keys.roster_keys import RosterKeys
from tracker.screens.encounter_keys.screen_keys import ScreenKeys
from tracker.screens.encounter_keys.tool_keys import ToolKeys
from tracker.screens.encounter_keys.turn_keys import TurnKeys

# The screen's areas, in the order their keys are listed (the footer, the help).
AREAS: tuple[type[Area], ...] = (
    RollKeys,
    TurnKeys,
    InitiativeKeys,
    RosterKeys,
    ConditionKeys,
    AdjustKeys,
    HistoryKeys,
    ToolKeys,
    FileKeys,
    ScreenKeys,
)
PLAYER_ACTIONS = frozenset().union(*(area.PLAYERS for area in AREAS))
SPECTATOR_ACTIONS = frozenset().union(*(area.SPECTATORS for area in AREAS))
OPENS = {key: action for area in AREAS for key, action in area.OPENS.items()}


def may_use(viewer: Viewer, system: str, action: str, argument: str = "") -> bool:
    """Whether a screen action (a key, or a system action by id) is offered to ``viewer``."""
    if viewer.is_gm:
        return True
    allowed = PLAYER_ACTIONS if viewer.role == "player" else SPECTATOR_ACTIONS
    argument = OPENS.get(action, argument)  # r and t open the system's "roll" action
    if action not in allowed:
        return False
    return argument not in get_system(system).gm_actions
