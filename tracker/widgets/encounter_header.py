"""The one-line header: encounter name, system, round, whose turn it is, and system status."""

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.encounter import Encounter
from rules.registry import get_system


class EncounterHeader(Static):
    state: reactive[Encounter | None] = reactive(None, layout=False)

    def watch_state(self, state: Encounter | None) -> None:
        if state is None:
            self.update("", layout=False)
            return
        system = get_system(state.system)
        text = Text.assemble("⚔ ", (state.name, "bold"), f"  ·  {system.title}")
        text.append(f"  ·  Round {state.round}")
        current = state.current
        if current is not None:
            text.append("  ·  ▶ ")
            text.append(current.name, style="bold")
            text.append("'s turn")
        waiting = system.pending(state)
        if waiting:  # before the rest: a result not yet applied is what must not be missed
            text.append("  ·  ")
            text.append(f"waiting (d): {waiting}", style="bold reverse")
        if state.solo_sides:
            text.append(f"  ·  ⚙ solo: {', '.join(state.solo_sides)}")
        status = system.status(state)
        if status:
            text.append(f"  ·  {status}")
        # Its size never depends on the text (one row, the screen's width: tracker.tcss), so
        # no layout: a turn would otherwise lay every seat's screen out again.
        self.update(text, layout=False)
