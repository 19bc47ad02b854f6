"""The panes that show an encounter: header, combatants, roll log and consequence thresholds.

The live screen and the replay both draw an encounter through this one widget.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from rules.encounter import Encounter
from rules.outcome import Outcome
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.encounter_header import EncounterHeader
from tracker.widgets.roll_log import RollLog
from tracker.widgets.thresholds import ThresholdsPane


class EncounterView(Vertical):
    def __init__(
        self, *, log_title: str = "Roll log", read_only: bool = False, id: str | None = None
    ) -> None:
        """``read_only``: a replay, where no key applies a result (none is offered)."""
        super().__init__(id=id)
        self.log_title = log_title
        self.read_only = read_only

    def compose(self) -> ComposeResult:
        yield EncounterHeader(read_only=self.read_only, id="header")
        yield CombatantsPane(id="combatants")
        with Horizontal(id="results"):
            yield RollLog(id="log")
            thresholds = ThresholdsPane(id="thresholds")
            thresholds.read_only = self.read_only
            yield thresholds

    def on_mount(self) -> None:
        self.query_one(CombatantsPane).border_title = "Combatants"
        self.query_one(ThresholdsPane).border_title = "Consequences"
        self.query_one(RollLog).border_title = self.log_title

    def show(self, state: Encounter, result: Outcome | None = None) -> None:
        """Draw the state in every pane but the log (which each screen fills its own way);
        ``result``: the fight's outcome, when the state is only what a seat may see."""
        self.query_one(EncounterHeader).show(state, result)
        self.query_one(CombatantsPane).show(state)
        self.query_one(ThresholdsPane).show(state)
