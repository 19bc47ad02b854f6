"""The consequence thresholds of the current system, with the last result marked in its tier."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.encounter import Encounter
from rules.systems import get_system


def bound(value: int | None) -> str:
    return "" if value is None else f"{value:+d}"


class ThresholdsPane(Static):
    def show(self, state: Encounter) -> None:
        system = get_system(state.system)
        landing = system.landing(state)
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(width=1)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        for index, tier in enumerate(system.tiers(state)):
            landed = landing is not None and landing.tier == index
            style = "reverse bold" if landed else ""
            table.add_row(
                Text("◆" if landed else " ", style="bold"),
                Text(tier.label, style=style),
                Text(tier.effect, style=style),
            )
        summary = Text("No roll yet", style="dim") if landing is None else Text(landing.summary)
        if landing is not None and state.last_roll_applied:
            summary.append("  (applied)", style="dim")
        grid = Table.grid(expand=True)
        grid.add_row(summary)
        grid.add_row(table)
        self.update(grid)
