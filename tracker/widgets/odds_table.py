"""Odds as a small table: each tier with a bar and its chance; the landed tier marked."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from rules.odds import Odds, percent


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
        grid.add_row(Text(f"{title}: {odds.whose}" if odds.whose else title, style="bold"))
        grid.add_row(odds_grid(odds))
        note = odds_note(odds)
        if note is not None:
            grid.add_row(note)
        self.update(grid)


def odds_note(odds: Odds) -> Text | None:
    """A system's one-line extra (Pain Pool's damage, a Fatigue fumble), or None."""
    note = odds.extra.get("note")
    return Text(note, style="italic") if isinstance(note, str) and note else None
