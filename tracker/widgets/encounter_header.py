"""The header: encounter name, system, round, whose turn it is, and system status.

Its parts wrap onto a second line when they do not fit the width, so the status (what waits
to be paid or landed) is never cut; at the narrowest, the name and the system's title give
way first.
"""

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from rules.encounter import Encounter
from rules.registry import get_system
from tracker.fit import Part, wrap_parts

MAX_LINES = 2  # before the least needed parts give way (those left are never cut)
# How long each part stays when the header runs out of lines: higher stays longer.
NAME, TITLE, USUAL, NEEDED = 0, 1, 2, 3


def header_parts(state: Encounter) -> list[Part]:
    """The header's parts, in reading order."""
    system = get_system(state.system)
    parts = [
        Part(Text.assemble("⚔ ", (state.name, "bold")), NAME),
        Part(Text(system.title), TITLE),
        Part(Text(f"Round {state.round}"), NEEDED),
    ]
    current = state.current
    if current is not None:
        parts.append(Part(Text.assemble("▶ ", (current.name, "bold"), "'s turn"), NEEDED))
    if state.solo_sides:
        parts.append(Part(Text(f"⚙ solo: {', '.join(state.solo_sides)}"), USUAL))
    status = system.status(state)
    if status:
        parts.append(Part(Text(status), NEEDED))
    return parts


class EncounterHeader(Static):
    state: reactive[Encounter | None] = reactive(None, layout=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._parts: list[Part] = []
        self._lines = 1

    def watch_state(self, state: Encounter | None) -> None:
        self._parts = header_parts(state) if state is not None else []
        self._draw()

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
