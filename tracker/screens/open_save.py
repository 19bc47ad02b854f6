"""The saves browser: every encounter in the saves folder, filtered as you type."""

from __future__ import annotations

import time
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from rules.registry import get_system, names
from tracker import storage


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds)) if seconds else "?"


def _size(size: int) -> str:
    return f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} B"


class OpenSaveScreen(ModalScreen[Path | None]):
    """Type to filter, ↑/↓ to choose, Enter to open, Esc to close. Dismisses with a path."""

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("down", "move(1)", "Next save", show=False, priority=True),
        Binding("up", "move(-1)", "Previous save", show=False, priority=True),
    ]

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.listings: list[storage.Listing] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="wide"):
            yield Label(Text(f"Open an encounter from {self.folder}", style="bold"))
            yield Input(placeholder="type to filter by name or system", id="filter")
            yield DataTable(id="saves", cursor_type="row")
            yield Label(Text("Enter opens · Esc closes · demos open as a copy", style="dim"))

    def on_mount(self) -> None:
        table = self.query_one("#saves", DataTable)
        table.add_columns("Encounter", "System", "Round", "Last change", "Size", "File")
        table.loading = True
        self.query_one("#filter", Input).focus()
        self.load()

    @work(thread=True, exclusive=True)
    def load(self) -> None:
        # Reading every save can take a moment: off the UI thread.
        listings = storage.list_saves(self.folder)
        self.app.call_from_thread(self.loaded, listings)

    def loaded(self, listings: list[storage.Listing]) -> None:
        self.listings = listings
        self.query_one("#saves", DataTable).loading = False
        self.refilter()

    def refilter(self) -> None:
        wanted = self.query_one("#filter", Input).value.casefold().strip()
        table = self.query_one("#saves", DataTable)
        table.clear()
        problem_style = self.app.theme_variables.get("error", "red")  # the theme's own
        for item in self.listings:
            title = get_system(item.system).title if item.system in names() else item.system
            if wanted and wanted not in f"{item.name} {title} {item.path.name}".casefold():
                continue
            name = Text(item.name)
            if item.problem:
                name.append(f"  ({item.problem})", style=problem_style)
            table.add_row(
                name,
                Text(title),
                Text(str(item.round) if not item.problem else "?"),
                Text(_when(item.changed)),
                Text(_size(item.size)),
                Text(item.path.name, style="dim"),
                key=str(item.path),
            )

    def on_input_changed(self, event: Input.Changed) -> None:
        self.refilter()

    def action_move(self, delta: int) -> None:
        table = self.query_one("#saves", DataTable)
        if table.row_count:
            table.move_cursor(row=max(0, min(table.cursor_row + delta, table.row_count - 1)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.choose()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.choose()

    def choose(self) -> None:
        table = self.query_one("#saves", DataTable)
        if not table.row_count:
            self.notify("No save matches", severity="warning")
            return
        key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
        self.dismiss(Path(str(key.value)))

    def action_close(self) -> None:
        self.dismiss(None)
