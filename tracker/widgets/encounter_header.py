"""The one-line header: encounter name, system, round and whose turn it is."""

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.encounter import Encounter
from rules.systems import get_system


class EncounterHeader(Static):
    state: reactive[Encounter | None] = reactive(None, layout=False)

    def watch_state(self, state: Encounter | None) -> None:
        if state is None:
            self.update("")
            return
        current = state.current
        turn = (
            Text.assemble("▶ ", (current.name, "bold"), "'s turn") if current else Text("no turn")
        )
        self.update(
            Text.assemble(
                "⚔ ",
                (state.name, "bold"),
                f"  ·  {get_system(state.system).title}  ·  Round {state.round}  ·  ",
                turn,
            )
        )
