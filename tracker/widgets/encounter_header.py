"""The header: encounter name, system, round, whose turn it is (or that the fight is over, and
who won), what waits to be applied, and system status.

Its parts wrap onto a second line when they do not fit the width, so what must not be missed
(a result waiting, the end of the fight) is never cut; at the narrowest, the system's title
and the solo sides give way first, then the encounter's name (which fight this is). What must
not be missed may take more lines by itself (a long result waiting wraps): then nothing gives
way for lines it could not save (tracker.terminal.fit.wrap_parts).
"""

from typing import Protocol, runtime_checkable

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.encounter import AnyEncounter
from rules.outcome import Outcome, outcome
from rules.registry import get_system
from tracker.terminal.fit import Part, wrap_parts


def waiting_text(waiting: str, read_only: bool = False) -> str:
    """What the last roll left to apply, and the key that applies it (none in a replay)."""
    return f"not applied yet: {waiting}" if read_only else f"waiting (d): {waiting}"


MAX_LINES = 2  # before the least needed parts give way (those left are never cut)
# How long each part stays when the header runs out of lines: higher stays longer.
TITLE, USUAL, NAME, NEEDED = 0, 1, 2, 3


def header_parts(
    state: AnyEncounter,
    result: Outcome | None = None,
    over_style: Style | str = "bold",
    read_only: bool = False,
) -> list[Part]:
    """The header's parts, in reading order; ``result`` is the fight's outcome where the state
    shown is not the whole encounter (a player's seat), else it is read off the state;
    ``read_only``: a replay, where no key applies what waits."""
    system = get_system(state.system)
    parts = [
        Part(Text.assemble("⚔ ", (state.name, "bold")), NAME),
        Part(Text(system.title), TITLE),
        Part(Text(f"Round {state.round}"), NEEDED),
    ]
    headline = (result or outcome(state)).headline
    current = state.current
    if headline:
        # In place of whose turn it is: nobody's, unless the GM plays on (n, then y).
        parts.append(Part(Text(headline, style=over_style), NEEDED))
    elif current is not None:
        parts.append(Part(Text.assemble("▶ ", (current.name, "bold"), "'s turn"), NEEDED))
    waiting = system.pending(state)
    if waiting:  # before the rest: a result not yet applied is what must not be missed
        parts.append(Part(Text(waiting_text(waiting, read_only), style="bold reverse"), NEEDED))
    if state.solo_sides:
        parts.append(Part(Text(f"⚙ solo: {', '.join(state.solo_sides)}"), USUAL))
    status = system.status(state)
    if status:
        parts.append(Part(Text(status), NEEDED))
    return parts


@runtime_checkable
class TableLine(Protocol):
    """An app serving a table (tracker.serve.seat_app): what its header adds, for the seat."""

    def table_line(self, state: AnyEncounter) -> Part | None: ...


class EncounterHeader(Static):
    COMPONENT_CLASSES = {"encounter-header--over"}  # "Fight over: ...", styled in tracker.tcss

    state: reactive[AnyEncounter | None] = reactive(None, layout=False)

    def __init__(self, *, read_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.read_only = read_only
        self._result: Outcome | None = None  # told by the screen; else read off the state
        self._parts: list[Part] = []
        self._lines = 1

    def show(self, state: AnyEncounter, result: Outcome | None = None) -> None:
        """Draw ``state``; ``result`` is the fight's outcome where the state shown is not the
        whole encounter (a player's seat, which does not see the GM's hidden combatants)."""
        changed = result != self._result
        self._result = result
        if state == self.state and changed:
            self.watch_state(state)
        self.state = state

    def watch_state(self, state: AnyEncounter | None) -> None:
        over = self.get_component_rich_style("encounter-header--over", partial=True)
        self._parts = (
            header_parts(state, self._result, over, self.read_only) if state is not None else []
        )
        if state is not None and not self.read_only:
            self._parts += self._table_part(state)
        self._draw()

    def _table_part(self, state: AnyEncounter) -> list[Part]:
        """A served table's line for this seat (the seats in, the player's turn), if any."""
        app = self.app
        part = app.table_line(state) if isinstance(app, TableLine) else None
        return [part] if part is not None else []

    def refresh_table(self) -> None:
        """The table changed (a seat came or went, a setting): its line drawn again."""
        self.watch_state(self.state)

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        width = self.content_region.width or self.app.size.width
        text = wrap_parts(self._parts, width, MAX_LINES)
        lines = len(text.wrap(self.app.console, width))
        # Laid out again only when its height changes: a turn would otherwise lay every
        # seat's screen out again.
        self.update(text, layout=lines != self._lines)
        self._lines = lines
