"""Odds as a small table: each tier with a bar and its chance; the landed tier marked."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.odds import Odds


def percent(p: float) -> str:
    return f"{p * 100:.1f}%" if p >= 0.001 or p == 0 else "<0.1%"


def odds_grid(odds: Odds, landed: int | None = None, bar_width: int = 12) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column(justify="right", no_wrap=True)
    for index, tier in enumerate(odds.tiers):
        share = float(tier.p)
        filled = round(share * bar_width)
        bar = Text("█" * filled, style="bold") + Text("·" * (bar_width - filled), style="dim")
        style = "reverse bold" if index == landed else ""
        grid.add_row(
            Text("◆" if index == landed else " ", style="bold"),
            Text(tier.label, style=style),
            bar,
            Text(percent(share), style=style),
        )
    return grid


class OddsTable(Static):
    """Empty until there are odds to show."""

    def show(self, odds: Odds | None, title: str = "Odds before the dice") -> None:
        if odds is None:
            self.update("")
            return
        grid = Table.grid()
        grid.add_row(Text(title, style="bold"))
        grid.add_row(odds_grid(odds))
        note = odds.extra.get("note")  # a system's one-line extra, e.g. Pain Pool's damage
        if isinstance(note, str):
            grid.add_row(Text(note, style="dim"))
        self.update(grid)
