"""The fight's summary: who won, the rounds, each combatant's end state and part in the fight
(damage dealt and taken, rolls), and how lucky each side was against its exact odds.

It opens by itself once when a fight ends, and on ``f`` (or "Fight summary" in the palette)
at any time. The figures are ``rules.outcome.summary``'s, counted off the UI thread (a long
fight's are a second or two of work); this screen only draws them, its columns fitted to the
width as the combatants pane's are: the sheet's stats give way first, and the last of them
are left out rather than what the fight did be shortened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label, Static
from textual.worker import get_current_worker

from rules.outcome import Outcome, Summary, luck_text
from rules.turn_times import Took, took_line
from tracker.terminal.fit import Column, fit_columns

COUNTING = "Counting the fight's figures…"
# (label, rank, limit, glyphs) of the columns before the sheet's stats; a lower rank gives way
# first, and the sheet's stats and the rolls are cut before what the fight did is shortened.
# The name goes last; the numbers are never cut (a cut number would mislead).
KEPT, NAME_RANK = 2, 3
FIXED = (
    ("Name", NAME_RANK, 10, False),
    ("Side", KEPT, 4, False),
    ("Out", KEPT, 8, False),
    ("Dealt", KEPT, 8, False),
    ("Taken", KEPT, 8, False),
    ("Rolls", 1, 8, False),
)
STAT = (0, 8, True)  # a sheet stat: gives way first, its bars go before its numbers
INIT = ("Init", KEPT, 4, False)  # after the name, once anyone has an initiative


def title_of(outcome: Outcome) -> str:
    return outcome.headline or "The fight so far (not over)"


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


def turns_text(times: Sequence[Took]) -> Text:
    """Who took longest in their turns: one line a combatant, the longest first."""
    text = Text("Longest in their turns: ", style="bold")
    text.append(" · ".join(took_line(t) for t in times))
    return text


def initiative_text(initiative: int | None) -> str:
    return "" if initiative is None else str(initiative)


def ranked(summary: Summary) -> bool:
    """Whether anyone has an initiative: the table then shows it, as the pane does."""
    return any(fighter.initiative is not None for fighter in summary.fighters)


def fixed(summary: Summary) -> list[tuple[str, int, int, bool]]:
    """The columns before the sheet's stats: the name, its initiative (if any), the rest."""
    return [FIXED[0], *([INIT] if ranked(summary) else []), *FIXED[1:]]


def table_columns(summary: Summary) -> list[Column]:
    """The table's columns, unfitted: what the fight did first, then the end state."""
    init = ranked(summary)
    rows = [
        (
            Text(fighter.name, style="bold"),
            *((Text(initiative_text(fighter.initiative), justify="right"),) if init else ()),
            Text(fighter.side),
            Text(f"✗ {fighter.out}" if fighter.out else "in"),
            Text(str(fighter.dealt), justify="right"),
            Text(str(fighter.taken), justify="right"),
            Text(str(fighter.rolls), justify="right"),
            *(Text(stat) for stat in fighter.stats),
        )
        for fighter in summary.fighters
    ]
    specs = [*fixed(summary), *((label, *STAT) for label in summary.columns)]
    return [
        Column(Text(label), [row[i] for row in rows], rank, limit, glyphs)
        for i, (label, rank, limit, glyphs) in enumerate(specs)
    ]


class SummaryScreen(ModalScreen[None]):
    """The figures of the fight; any of Esc, Enter, f or q closes it.

    ``outcome``: who won, known at once; ``count``: the figures, called in a worker thread."""

    BINDINGS = [Binding("escape,enter,f,q", "dismiss", "Close the summary", id="summary.dismiss")]

    def __init__(
        self,
        outcome: Outcome,
        count: Callable[[], Summary],
        times: Callable[[], list[Took]] = list,
    ) -> None:
        """``times``: each combatant's time in its turns, longest first (the turn clock's)."""
        super().__init__()
        self.outcome = outcome
        self.count = count
        self.times = times
        self.summary: Summary | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-dialog"):
            yield Label(Text(title_of(self.outcome), style="bold"), id="summary-title")
            yield Label(Text(COUNTING, style="italic"), id="summary-facts")
            yield DataTable(id="summary-table", cursor_type="row", zebra_stripes=True)
            yield Label(Text("Luck: how the rolls landed against their exact odds (50% is par)"))
            yield Static("", id="summary-luck")
            yield Static("", id="summary-turns")
            yield Label(Text("Esc / Enter / f: close", style="dim"))

    def on_mount(self) -> None:
        self.query_one("#summary-table", DataTable).focus()
        self.count_figures()

    @work(thread=True, exclusive=True, group="summary")
    def count_figures(self) -> None:
        figures = self.count()
        times = self.times()
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show, figures, times)

    def show(self, summary: Summary, times: Sequence[Took] = ()) -> None:
        if not self.is_attached:
            return  # closed while it counted
        self.summary = summary
        if times:
            turns = self.query_one("#summary-turns", Static)
            turns.update(turns_text(times))
            turns.display = True
        self.query_one("#summary-title", Label).update(
            Text(title_of(summary.outcome), style="bold")
        )
        self.query_one("#summary-facts", Label).update(Text(facts_line(summary)))
        self.query_one("#summary-luck", Static).update(luck_lines(summary))
        self.fill_table()

    def on_resize(self, event: events.Resize) -> None:
        if self.summary is not None:
            self.call_after_refresh(self.fill_table)  # once the dialog has its new width

    def fill_table(self) -> None:
        """The rows, their columns fitted to the dialog's width."""
        assert self.summary is not None
        table = self.query_one("#summary-table", DataTable)
        space = self.query_one("#summary-dialog").content_size.width
        if not space:  # not laid out yet
            self.call_after_refresh(self.fill_table)
            return
        columns = table_columns(self.summary)
        if len(self.summary.fighters) + 1 > self._rows_shown():
            space -= table.styles.scrollbar_size_vertical
        widths = fit_columns(columns, space, 1, protect=KEPT)
        # Rather than shorten what the fight did, or a stat's words ("dyi." for "dying"),
        # leave the last of the sheet's stats out (the combatants pane shows them all).
        while len(columns) > len(fixed(self.summary)) and any(
            0 < width < (column.natural if column.rank >= KEPT else column.whole)
            for column, width in zip(columns, widths, strict=True)
            if column.rank < NAME_RANK
        ):
            columns.pop()
            widths = fit_columns(columns, space, 1, protect=KEPT)
        shown = [(i, width) for i, width in enumerate(widths) if width]
        table.clear(columns=True)
        table.cell_padding = 0
        # A cell of space before each column but the first (after a right-aligned number
        # would be trimmed away).
        for place, (index, width) in enumerate(shown):
            label = columns[index].fit_label(width)
            table.add_column(Text(" " * bool(place)) + label, width=width + bool(place))
        for row, fighter in enumerate(self.summary.fighters):
            cells = [columns[i].fit_cell(columns[i].cells[row], width) for i, width in shown]
            for cell in cells[1:]:
                cell.pad_left(1)
            table.add_row(*cells, key=fighter.id)

    def _rows_shown(self) -> int:
        most = self.query_one("#summary-table").styles.max_height
        return int(most.value) if most is not None else 1 << 30
