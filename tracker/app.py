"""The Textual application."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual.app import App

from tracker import storage
from tracker.palette import ScreenActions
from tracker.screens.encounter import EncounterScreen
from tracker.session import EncounterSession


class TrackerApp(App[None]):
    CSS_PATH = "tracker.tcss"
    TITLE = "Combat Tracker"
    COMMANDS = App.COMMANDS | {ScreenActions}

    def __init__(
        self,
        session: EncounterSession,
        *,
        saves: Path = storage.DEFAULT_SAVES,
        notes: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.session = session
        self.saves = saves
        self.notes = list(notes)

    def on_mount(self) -> None:
        self.push_screen(EncounterScreen(self.session))
        for note in self.notes:
            self.notify(note, markup=False, timeout=8)
