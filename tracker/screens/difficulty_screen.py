"""The difficulty dialog (``D``): the fight as it stands, played out by the tracker until its
band is settled (``tracker.widgets.difficulty_line``), with Generic d20's XP budget beside it.
Nothing of the encounter changes; ``r`` reads it again on another seed."""

from __future__ import annotations

import secrets

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from rules.encounter import AnyEncounter
from tracker.widgets.difficulty_line import DifficultyLine


class DifficultyScreen(ModalScreen[None]):
    """Esc closes (and stops a run); r works it out again on another seed."""

    BINDINGS = [
        Binding("escape", "close", "Close (stops it)", id="difficulty.close"),
        Binding("r", "again", "Again, on another seed", id="difficulty.again"),
    ]

    def __init__(self, state: AnyEncounter, jobs: int | None = None) -> None:
        super().__init__()
        self.state = state
        self.jobs = jobs

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="difficulty"):
            yield Label(Text(f"Difficulty of {self.state.name}", style="bold"))
            yield DifficultyLine(self.jobs, id="difficulty")
            yield Label(
                Text("The bands: see Difficulty in the guide · r again · Esc close", style="dim")
            )

    def on_mount(self) -> None:
        self.query_one(DifficultyLine).show(self.state)

    def action_again(self) -> None:
        self.query_one(DifficultyLine).show(self.state, secrets.randbits(32))

    def action_close(self) -> None:
        self.query_one(DifficultyLine).stop()
        self.dismiss(None)
