"""The encounter screen's log: undo, redo, save it now, replay it."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding

from rules.errors import Rejected
from rules.history import History
from tracker.screens.encounter_keys.area import Area


class HistoryKeys(Area):
    """``u``, ``ctrl+r``, ``ctrl+s``, ``R``."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("u", "undo", "Undo", id="encounter.undo"),
        Binding("ctrl+r", "redo", "Redo", show=False, id="encounter.redo"),
        Binding("ctrl+s", "save", "Save now", show=False, id="encounter.save"),
        Binding("R", "replay", "Replay", show=False, id="encounter.replay"),
    ]

    def action_undo(self) -> None:
        try:
            record = self.session.undo()
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        self.notify(f"Undid: {record.label}", markup=False)

    def action_redo(self) -> None:
        try:
            record = self.session.redo()
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        self.notify(f"Redid: {record.label}", markup=False)

    def action_save(self) -> None:
        error = self.session.save()
        if error:
            self.notify(error, title="Not saved", severity="error", markup=False)
        else:
            self.notify(f"Saved to {self.session.path}", markup=False)

    def action_replay(self) -> None:
        from tracker.screens.replay_screen import ReplayScreen

        def closed(branch: History | None) -> None:
            if branch is not None:
                self.post_message(self.BranchRequested(branch))

        self.app.push_screen(ReplayScreen(self.session.history), closed)
