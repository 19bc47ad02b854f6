"""The fight's summary: who won, the rounds, each combatant's end state and part in the fight
(damage dealt and taken, rolls), and how lucky each side was against its exact odds.

It opens by itself once when a fight ends, and on ``f`` (or "Fight summary" in the palette)
at any time. The figures are ``rules.outcome.summary``'s; this screen only draws them.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static

from rules.outcome import Summary, luck_text


def title_of(summary: Summary) -> str:
    return summary.outcome.headline or "The fight so far (not over)"


def facts_line(summary: Summary) -> str:
    rounds = f"{summary.rounds} round{'s' * (summary.rounds != 1)}"
    rolls = f"{summary.rolls} roll{'s' * (summary.rolls != 1)}"
    return f"{rounds} · {rolls} · damage in {summary.unit}"


def luck_lines(summary: Summary) -> Text:
    """One line per side: its luck against the odds, over how many rolls."""
    text = Text()
    for index, side in enumerate(summary.luck):
        if index:
            text.append("\n")
        text.append(side.side, style="bold")
        rolls = f"{side.rolls} roll{'s' * (side.rolls != 1)}"
        text.append(f": {luck_text(side.luck)}, over {rolls}")
    return text


class SummaryScreen(ModalScreen[None]):
    """The figures of the fight; any of Esc, Enter, f or q closes it."""

    BINDINGS = [Binding("escape,enter,f,q", "dismiss", "Close the summary")]

    def __init__(self, summary: Summary) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        summary = self.summary
        with Vertical(id="summary-dialog"):
            yield Label(Text(title_of(summary), style="bold"), id="summary-title")
            yield Label(Text(facts_line(summary)), id="summary-facts")
            yield DataTable(id="summary-table", cursor_type="row", zebra_stripes=True)
            yield Label(Text("Luck: how the rolls landed against their exact odds (50% is par)"))
            yield Static(luck_lines(summary), id="summary-luck")
            yield Label(Text("Esc / Enter / f: close", style="dim"))

    def on_mount(self) -> None:
        table = self.query_one("#summary-table", DataTable)
        summary = self.summary
        # What the fight did first, then the end state: at 80 columns the sheet's stats are
        # the ones scrolled to (→).
        table.add_columns("Name", "Side", "Out", "Dealt", "Taken", "Rolls", *summary.columns)
        for fighter in summary.fighters:
            table.add_row(
                Text(fighter.name, style="bold"),
                Text(fighter.side),
                Text(f"✗ {fighter.out}" if fighter.out else "in"),
                Text(str(fighter.dealt), justify="right"),
                Text(str(fighter.taken), justify="right"),
                Text(str(fighter.rolls), justify="right"),
                *(Text(stat) for stat in fighter.stats),
                key=fighter.id,
            )
        table.focus()
