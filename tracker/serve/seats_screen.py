"""The GM's seats dialog: who is connected, which combatants each player acts for, kick."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from rules.forms import Field
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.form import FormScreen
from tracker.serve.seats import Seat, Table

YES_NO = (("no", "No"), ("yes", "Yes"))


class AssignForm(FormScreen):
    """Every field is a choice: the first keeps the focus (no auto-focus on the field list)."""

    AUTO_FOCUS = None


class SeatsScreen(ModalScreen[None]):
    CSS_PATH = "seats.tcss"
    BINDINGS = [
        Binding("a,enter", "assign", "Assign combatants"),
        Binding("k", "kick", "Kick"),
        Binding("escape,w", "close", "Close"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._unwatch: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Seats at the table", style="bold"))
            yield DataTable(id="seats", cursor_type="row", zebra_stripes=True)
            yield Label(id="notices")  # the door: refused logins, lockouts, failed seats
            yield Label(Text("a / Enter: assign combatants   k: kick   Esc: close", style="dim"))

    def on_mount(self) -> None:
        grid = self.query_one(DataTable)
        for label in ("Who", "Role", "From", "Acts for", "Idle"):
            grid.add_column(label)

        # Told from the session's loop; the screen redraws on its own.
        def seats_changed(_: str) -> None:
            self.call_later(self.refresh_seats)

        self._unwatch = self.table.watch(seats_changed)
        self.refresh_seats()
        grid.focus()

    def on_unmount(self) -> None:
        if self._unwatch is not None:
            self._unwatch()

    def refresh_seats(self) -> None:
        notices = self.table.notices
        self.query_one("#notices", Label).update(Text("\n".join(notices), style="yellow"))
        self.query_one("#notices", Label).display = bool(notices)
        grid = self.query_one(DataTable)
        keep = self.selected()
        grid.clear()
        state = self.table.session.state
        now = time.monotonic()
        for seat in self.table.seats.values():
            ids = self.table.assigned.get(seat.name, frozenset()) if seat.role == "player" else ()
            acts = ", ".join(state.name_of(cid) for cid in sorted(ids) if state.find(cid))
            grid.add_row(
                Text(seat.name),
                Text(seat.role),
                Text(seat.peer),
                Text(acts or ("everyone" if seat.role == "gm" else "-")),
                Text(f"{int(now - seat.last_input)} s" if seat.remote else "-"),
                key=str(seat.id),
            )
        if keep is not None and str(keep.id) in {str(s) for s in self.table.seats}:
            grid.move_cursor(row=list(self.table.seats).index(keep.id), animate=False)

    def selected(self) -> Seat | None:
        grid = self.query_one(DataTable)
        if not grid.row_count:
            return None
        row_key, _ = grid.coordinate_to_cell_key(grid.cursor_coordinate)
        return self.table.seats.get(int(row_key.value or 0))

    def action_assign(self) -> None:
        seat = self.selected()
        if seat is None or seat.role != "player":
            self.notify("Choose a player's seat to assign combatants", severity="warning")
            return
        state = self.table.session.state
        mine = self.table.assigned.get(seat.name, frozenset())
        fields = [
            Field(
                key=c.id,
                label=c.name,
                kind="choice",
                default="yes" if c.id in mine else "no",
                choices=YES_NO,
            )
            for c in state.combatants
            if not c.gm_only  # a player never sees those
        ]
        if not fields:
            self.notify("There are no combatants yet", severity="warning")
            return

        def submit(values: Mapping[str, str]) -> None:
            ids = frozenset(cid for cid, answer in values.items() if answer == "yes")
            self.table.assign(seat.name, ids)

        self.app.push_screen(
            AssignForm(
                f"{seat.name} acts for", fields, submit, ok_label="Assign", focus_key=fields[0].key
            )
        )

    def action_kick(self) -> None:
        seat = self.selected()
        if seat is None or not seat.remote:
            self.notify("Choose a remote seat to kick", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.table.kick(seat.id)

        self.app.push_screen(ConfirmScreen(f"Close {seat.name}'s seat ({seat.peer})?"), answered)

    def action_close(self) -> None:
        self.dismiss(None)
