"""Where a replay is: a bar across the fight, the event number, the round, and play speed."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
class Place:
    position: int
    total: int
    round: int
    playing: bool
    speed: float
    typed: str = ""


class TimelineBar(Static):
    """Drawn to its own width, so it is drawn again when that changes."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.place: Place | None = None

    def show(self, place: Place) -> None:
        self.place = place
        width = max(self.size.width - 2, 10)
        filled = round(width * (place.position + 1) / max(place.total, 1))
        bar = Text("━" * max(filled - 1, 0), style="bold")
        bar.append("●", style="bold reverse")
        bar.append("─" * max(width - filled, 0), style="dim")
        status = f" event {place.position + 1}/{place.total} · round {place.round} · "
        status += f"▶ playing {place.speed:g}/s" if place.playing else "paused (space plays)"
        if place.typed:
            status += f" · go to event {place.typed}_ (g)"
        self.update(Text.assemble(bar, "\n", status))

    def on_resize(self) -> None:
        if self.place is not None:
            self.show(self.place)
