"""The one-line header: encounter name, system, round, whose turn it is (or that the fight is
over, and who won), and system status."""

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.encounter import Encounter
from rules.outcome import Outcome, outcome
from rules.registry import get_system


class EncounterHeader(Static):
    COMPONENT_CLASSES = {"encounter-header--over"}  # "Fight over: ...", styled in tracker.tcss

    state: reactive[Encounter | None] = reactive(None, layout=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._result: Outcome | None = None  # told by the screen; else read off the state

    def show(self, state: Encounter, result: Outcome | None = None) -> None:
        """Draw ``state``; ``result`` is the fight's outcome where the state shown is not the
        whole encounter (a player's seat, which does not see the GM's hidden combatants)."""
        changed = result != self._result
        self._result = result
        if state == self.state and changed:
            self.watch_state(state)
        self.state = state

    def watch_state(self, state: Encounter | None) -> None:
        if state is None:
            self.update("", layout=False)
            return
        system = get_system(state.system)
        text = Text.assemble("⚔ ", (state.name, "bold"), f"  ·  {system.title}")
        text.append(f"  ·  Round {state.round}")
        headline = (self._result or outcome(state)).headline
        current = state.current
        if headline:
            # In place of whose turn it is: nobody's, unless the GM plays on (n, then y).
            text.append("  ·  ")
            over = self.get_component_rich_style("encounter-header--over", partial=True)
            text.append(headline, style=over)
        elif current is not None:
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
