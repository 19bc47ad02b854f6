"""The encounter screen's corrections by hand to the selected combatant: its main track,
its place in the order."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding

from rules.commands import MoveCombatant
from tracker.screens.encounter_keys.area import Area


class AdjustKeys(Area):
    """``+``, ``-``, ``K``, ``J``: one step on the selected combatant's track or in the order."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("plus", "nudge(1)", "Main track +1", show=False, id="encounter.nudge_up"),
        Binding("minus", "nudge(-1)", "Main track -1", show=False, id="encounter.nudge_down"),
        Binding("K,shift+up", "move(-1)", "Move up in order", show=False, id="encounter.move_up"),
        Binding(
            "J,shift+down", "move(1)", "Move down in order", show=False, id="encounter.move_down"
        ),
    ]

    def action_nudge(self, delta: int) -> None:
        """The selected combatant's main track one up (``+``) or down (``-``), as shown."""
        combatant = self.selected()
        if combatant is None:
            return
        system = self.session.system
        track = system.main_track(combatant)
        if track is None:
            self.notify(f"{combatant.name} has no track to change: e edits the sheet", markup=False)
            return
        steps = delta if track.rising else -delta  # steps count toward worse
        self.run(system.track_command(self.state, combatant, steps), f"{track.name} {delta:+d}")

    def action_move(self, delta: int) -> None:
        combatant = self.selected()
        if combatant is None:
            return
        index = self.state.index_of(combatant.id) + delta
        if 0 <= index < len(self.state.combatants):
            # The table keeps the selection on the moved combatant when it redraws.
            self.run(MoveCombatant(combatant.id, index), f"move {combatant.name}")
