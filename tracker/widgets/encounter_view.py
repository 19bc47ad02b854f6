"""The panes that show an encounter: header, combatants, roll log and consequence thresholds.

The live screen and the replay both draw an encounter through this one widget.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from rules.encounter import AnyEncounter
from rules.outcome import Outcome
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.encounter_header import EncounterHeader
from tracker.widgets.roll_log import RollLog
from tracker.widgets.thresholds import ThresholdsPane
from tracker.widgets.turn_clock import TurnClock


class EncounterView(Vertical):
    def __init__(
        self, *, log_title: str = "Roll log", read_only: bool = False, id: str | None = None
    ) -> None:
        """``read_only``: a replay, where no key applies a result (none is offered)."""
        super().__init__(id=id)
        # The panes, made here and held, never looked up: an app that exits while this
        # view is being mounted (a seat that leaves as it sits down) takes them out of the
        # tree before the screen's on_mount draws them, and a query there found nothing.
        self.header = EncounterHeader(read_only=read_only, id="header")
        self.clock = TurnClock(id="turn-clock")  # beside the header, hidden until followed
        self.combatants = CombatantsPane(id="combatants")
        self.combatants.border_title = "Combatants"
        self.roll_log = RollLog(id="log")
        self.roll_log.border_title = log_title
        self.thresholds = ThresholdsPane(id="thresholds")
        self.thresholds.border_title = "Consequences"
        self.thresholds.read_only = read_only

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield self.header
            yield self.clock
        yield self.combatants
        with Horizontal(id="results"):
            yield self.roll_log
            yield self.thresholds

    def show(
        self,
        state: AnyEncounter,
        result: Outcome | None = None,
        mine: frozenset[str] | None = None,
    ) -> None:
        """Draw the state in every pane but the log (which each screen fills its own way);
        ``result``: the fight's outcome, when the state is only what a seat may see;
        ``mine``: the combatants a player's seat acts for."""
        self.header.show(state, result)
        self.combatants.show(state, mine=mine)
        self.thresholds.show(state)
