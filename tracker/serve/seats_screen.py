"""The GM's seats dialog: who is connected, which combatants each player acts for, kick;
and the join links for browser seats: make, copy, revoke."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from rules.errors import Rejected
from rules.forms import Field, choice_value
from rules.text import inert
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.form import FormScreen
from tracker.serve.links import LINK_ROLES, MAX_NAME, RESERVED, Link
from tracker.serve.seats import Seat, Table

AWAY = "away:"  # a row's key for a player not in yet, before their name
YES_NO = (("no", "No"), ("yes", "Yes"))
ROLE_CHOICES = tuple((role, role.capitalize()) for role in LINK_ROLES)
NO_WEB = "Serve with --web HOST:PORT to seat players in a browser"
DIALOG_WIDTH = 96  # as seats.tcss sets it (at most the screen's)
NOTICE_LINES = 8  # the notices' lines at most, wrapped (seats.tcss: #notices)


def said_once(notices: Mapping[str, int]) -> list[str]:
    """Each notice once, with how many times when more than once (``Table.notices``: a seat
    turned away at each of its tries is one line)."""
    return [f"{line} ({count} times)" if count > 1 else line for line, count in notices.items()]


class AssignForm(FormScreen):
    """Every field is a choice: the first keeps the focus (no auto-focus on the field list)."""

    AUTO_FOCUS = None


class SeatsScreen(ModalScreen[None]):
    CSS_PATH = "seats.tcss"
    BINDINGS = [
        Binding("a,enter", "assign", "Assign combatants", id="seats.assign"),
        Binding("g", "give", "Give combatants to a player by name", id="seats.give"),
        Binding("k", "kick", "Kick", id="seats.kick"),
        Binding("l", "make_link", "Make a join link", id="seats.make_link"),
        Binding("c", "copy_link", "Copy the join link", id="seats.copy_link"),
        Binding("x", "revoke_link", "Revoke the join link", id="seats.revoke_link"),
        Binding(
            "p", "setting('players_pass')", "Players end their own turn", id="seats.players_pass"
        ),
        Binding("b", "setting('alerts')", "Turn alerts", id="seats.alerts"),
        Binding("escape,w", "close", "Close", id="seats.close"),
    ]

    def __init__(self, table: Table) -> None:
        super().__init__()
        self.table = table
        self._unwatch: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Text("Seats at the table", style="bold"))
            yield Label(id="door")  # where it is served: the start-up notice, kept
            yield DataTable(id="seats", cursor_type="row", zebra_stripes=True)
            # Join links for browser seats (only when served with --web).
            yield DataTable(id="links", cursor_type="row", zebra_stripes=True)
            yield Label(id="notices")  # the door: refused logins, lockouts, failed seats
            yield Label(id="settings")
            yield Label(
                Text(
                    "a / Enter: assign combatants   g: to a player by name   k: kick   Esc: close",
                    style="dim",
                )
            )
            yield Label(
                Text(
                    "l: make a join link   c / Enter: copy it   x: revoke it   Tab: links",
                    style="dim",
                ),
                id="link-keys",
            )

    def on_mount(self) -> None:
        grid = self.query_one("#seats", DataTable)
        for label in ("Who", "Role", "From", "Acts for", "Idle"):
            grid.add_column(label)
        links = self.query_one("#links", DataTable)
        for label in ("Join link", "For", "Role"):  # the link first: it is read out
            links.add_column(label)

        # Told from the session's loop; the screen redraws on its own.
        def seats_changed(_: str) -> None:
            self.call_later(self.refresh_seats)

        self._unwatch = self.table.watch(seats_changed)
        self.refresh_seats()
        grid.focus()

    def on_unmount(self) -> None:
        if self._unwatch is not None:
            self._unwatch()

    def refresh_settings(self) -> None:
        settings = self.table.settings

        def said(on: bool) -> str:
            return "on" if on else "off"

        self.query_one("#settings", Label).update(
            Text(
                f"p: players end their own turn: {said(settings.players_pass)}   "
                f"b: turn alerts to seats: {said(settings.alerts)}"
            )
        )

    def action_setting(self, name: str) -> None:
        """A table setting on or off (``tracker.serve.seats.Settings``), for every seat now."""
        self.table.change(**{name: not getattr(self.table.settings, name)})

    def refresh_seats(self) -> None:
        self.refresh_settings()
        door = self.query_one("#door", Label)
        door.update(Text(self.table.door, style="dim"))
        door.display = bool(self.table.door)
        self.refresh_notices()
        self.refresh_links()
        grid = self.query_one("#seats", DataTable)
        keep = self._row_key()
        grid.clear()
        now = time.monotonic()
        for seat in self.table.seats.values():
            grid.add_row(
                Text(seat.name),
                Text(seat.role),
                Text(seat.peer),
                Text(
                    self._acts(seat.name)
                    if seat.role == "player"
                    else "everyone"
                    if seat.role == "gm"
                    else "-"
                ),
                Text(f"{int(now - seat.last_input)} s" if seat.remote else "-"),
                key=str(seat.id),
            )
        for name in self.table.absent():  # what they act for waits for them
            grid.add_row(
                Text(name),
                Text("player"),
                Text("not in yet"),
                Text(self._acts(name)),
                Text("-"),
                key=AWAY + name,
            )
        keys = [str(seat.id) for seat in self.table.seats.values()]
        keys += [AWAY + name for name in self.table.absent()]
        if keep in keys:
            grid.move_cursor(row=keys.index(keep), animate=False)

    def refresh_notices(self) -> None:
        """The door's latest notices, each said once, wrapped: the newest that fit."""
        lines = said_once(self.table.notices)
        # The label's width: the dialog's (seats.tcss), less its border and padding.
        width = max(min(DIALOG_WIDTH, self.app.size.width) - 4, 20)
        console = self.app.console
        while sum(len(Text(line).wrap(console, width)) for line in lines) > NOTICE_LINES:
            del lines[0]  # the oldest gives way
        label = self.query_one("#notices", Label)
        label.update(Text("\n".join(lines), style="yellow"))
        label.display = bool(lines)

    def on_resize(self) -> None:
        self.refresh_notices()

    def _acts(self, player: str) -> str:
        state = self.table.session.state
        ids = self.table.assigned_to(player)
        return ", ".join(state.name_of(cid) for cid in sorted(ids) if state.find(cid)) or "-"

    def _row_key(self) -> str | None:
        grid = self.query_one("#seats", DataTable)
        if not grid.row_count:
            return None
        row_key, _ = grid.coordinate_to_cell_key(grid.cursor_coordinate)
        return row_key.value

    def refresh_links(self) -> None:
        links = self.table.links
        served = bool(links.base)
        self.query_one("#links", DataTable).display = served
        self.query_one("#link-keys", Label).display = served
        grid = self.query_one("#links", DataTable)
        keep = self.selected_link()
        grid.clear()
        for number, link in enumerate(links):
            grid.add_row(Text(links.url(link)), Text(link.name), Text(link.role), key=str(number))
            if link is keep:
                grid.move_cursor(row=number, animate=False)

    def selected_link(self) -> Link | None:
        grid = self.query_one("#links", DataTable)
        if not grid.row_count:
            return None
        row_key, _ = grid.coordinate_to_cell_key(grid.cursor_coordinate)
        shown = list(self.table.links)
        number = int(row_key.value or 0)
        return shown[number] if number < len(shown) else None

    def selected(self) -> Seat | None:
        key = self._row_key()
        if key is None or key.startswith(AWAY):
            return None
        return self.table.seats.get(int(key))

    def action_assign(self) -> None:
        key = self._row_key() or ""
        seat = self.selected()
        if key.startswith(AWAY):
            self.assign_to(key.removeprefix(AWAY))
        elif seat is None or seat.role != "player":
            self.notify("Choose a player's seat to assign combatants", severity="warning")
        else:
            self.assign_to(seat.name)

    def action_give(self) -> None:
        """Combatants for a player by name, seated or not (a password login to come)."""
        name_field = Field(key="name", label="Player's name", kind="text")

        def submit(values: Mapping[str, str]) -> None:
            name = inert(values.get("name", "")).strip()
            if not name:
                raise Rejected("A player's name, as they will join with")
            if len(name) > MAX_NAME:
                raise Rejected(f"A player's name is at most {MAX_NAME} characters")
            if name.casefold() in RESERVED:
                raise Rejected(f"{name} is the GM's name: choose another")
            self.call_later(self.assign_to, self.table.spelled(name))

        self.app.push_screen(
            FormScreen("Give combatants to a player", [name_field], submit, ok_label="Next")
        )

    def assign_to(self, player: str) -> None:
        """The dialog that hands ``player`` combatants: seated now, or theirs on joining."""
        state = self.table.session.state
        mine = self.table.assigned_to(player)
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
            self.table.assign(player, ids)

        self.app.push_screen(
            AssignForm(
                f"{player} acts for", fields, submit, ok_label="Assign", focus_key=fields[0].key
            )
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row (the table takes it before the screen's keys): a seat's row assigns,
        as its hint says; a link's row copies it."""
        event.stop()
        if event.data_table.id == "links":
            self.action_copy_link()
        else:
            self.action_assign()

    def action_kick(self) -> None:
        seat = self.selected()
        if seat is None or not seat.remote:
            self.notify("Choose a remote seat to kick", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.table.kick(seat.id)

        self.app.push_screen(ConfirmScreen(f"Close {seat.name}'s seat ({seat.peer})?"), answered)

    def action_make_link(self) -> None:
        links = self.table.links
        if not links.base:
            self.notify(NO_WEB, severity="warning", markup=False)
            return
        role_field = Field(key="role", label="Role", kind="choice", choices=ROLE_CHOICES)
        fields = [Field(key="name", label="Name", kind="text"), role_field]

        def submit(values: Mapping[str, str]) -> None:
            role = choice_value(values, role_field, ROLE_CHOICES)
            try:
                link = links.make(role, values.get("name", "").strip())
            except ValueError as exc:
                raise Rejected(str(exc)) from None
            self.call_later(self._copy, link)

        self.app.push_screen(
            FormScreen("A join link for a browser seat", fields, submit, ok_label="Make")
        )

    def action_copy_link(self) -> None:
        link = self.selected_link()
        if link is None:
            self.notify("Make a join link first (l)", severity="warning", markup=False)
            return
        self._copy(link)

    def _copy(self, link: Link) -> None:
        """To the GM's clipboard (where the terminal passes it on), and shown to read out."""
        url = self.table.links.url(link)
        self.app.copy_to_clipboard(url)
        self.notify(f"{link.name}'s link (copied): {url}", markup=False, timeout=30)

    def action_revoke_link(self) -> None:
        link = self.selected_link()
        if link is None:
            self.notify("There is no join link to revoke", severity="warning", markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes and self.table.links.revoke(link):
                for seat in list(self.table.seats.values()):
                    if seat.link is link and seat.close is not None:
                        seat.close("The GM revoked your join link.")

        self.app.push_screen(
            ConfirmScreen(f"Revoke {link.name}'s join link? Its seats close too."), answered
        )

    def action_close(self) -> None:
        self.dismiss(None)
