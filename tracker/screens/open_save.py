"""The saves browser: every encounter in the saves folder, filtered as you type."""

from __future__ import annotations

import time
from pathlib import Path

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from rules.registry import get_system, names
from tracker.store import storage

COLUMNS = ("Encounter", "System", "Round", "Last change", "Size", "File")
# What a narrow dialog keeps, first to last: the name and the file always.
PRIORITY = ("Encounter", "File", "System", "Round", "Last change", "Size")
PADDING = 2  # a DataTable cell's padding, one column each side
SHORTEST_SYSTEM = 8  # "LiveHack" whole, "Fatigue…" cut


def fitting(widths: dict[str, int], room: int) -> dict[str, int]:
    """The columns shown in ``room`` cells, in their order, with their widths: each by
    priority while it fits; the system's name may be cut short rather than left out."""
    chosen: dict[str, int] = {}
    used = 0
    for column in PRIORITY:
        cost = widths[column] + PADDING
        left = room - used - PADDING
        if used + cost <= room or column in PRIORITY[:2]:
            chosen[column] = widths[column]
        elif column == "System" and left >= SHORTEST_SYSTEM:
            chosen[column] = left
        else:
            continue
        used += chosen[column] + PADDING
    return {column: chosen[column] for column in COLUMNS if column in chosen}


def _cut(text: Text, width: int) -> Text:
    if text.cell_len <= width:
        return text
    cut = text.copy()
    cut.truncate(width, overflow="ellipsis")
    return cut


def _mark(item: storage.Listing) -> str:
    return "demo" if item.demo else "copy of demo" if item.copy_of else ""


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds)) if seconds else "?"


def _size(size: int) -> str:
    return f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} B"


class OpenSaveScreen(ModalScreen[Path | None]):
    """Type to filter, ↑/↓ to choose, Enter to open, Esc to close. Dismisses with a path."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="open_save.close"),
        Binding("down", "move(1)", "Next save", show=False, priority=True, id="open_save.down"),
        Binding("up", "move(-1)", "Previous save", show=False, priority=True, id="open_save.up"),
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
        for column in COLUMNS:
            table.add_column(column, key=column)
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

    def on_resize(self) -> None:
        if self.listings:
            self.refilter()

    def refilter(self) -> None:
        wanted = self.query_one("#filter", Input).value.casefold().strip()
        table = self.query_one("#saves", DataTable)
        kept = table.coordinate_to_cell_key(table.cursor_coordinate)[0] if table.row_count else None
        rows = [
            (str(item.path), self._cells(item))
            for item in self.listings
            if not wanted or wanted in self._searched(item)
        ]
        widths = {
            column: max([cell_len(column), *(cells[column].cell_len for _, cells in rows)])
            for column in COLUMNS
        }
        # The dialog's width, less a scrollbar: the table's own is not laid out while loading.
        room = self.query_one("#dialog").content_size.width - table.styles.scrollbar_size_vertical
        shown = fitting(widths, room)
        layout = tuple((key.value, column.width) for key, column in table.columns.items())
        table.clear(columns=layout != tuple(shown.items()))
        if not table.columns:
            for column, width in shown.items():
                table.add_column(column, key=column, width=width)
        for key, cells in rows:
            table.add_row(*(_cut(cells[c], width) for c, width in shown.items()), key=key)
        if kept is not None and kept.value in table.rows:
            table.move_cursor(row=table.get_row_index(kept), animate=False)

    @staticmethod
    def _searched(item: storage.Listing) -> str:
        title = get_system(item.system).title if item.system in names() else item.system
        return f"{item.name} {_mark(item)} {title} {item.path.name}".casefold()

    def _cells(self, item: storage.Listing) -> dict[str, Text]:
        title = get_system(item.system).title if item.system in names() else item.system
        problem_style = self.app.theme_variables.get("error", "red")  # the theme's own
        name = Text(item.name)
        if item.problem:
            name.append(f"  ({item.problem})", style=problem_style)
        elif _mark(item):
            name.append(f"  ({_mark(item)})", style="italic")
        return {
            "Encounter": name,
            "System": Text(title),
            "Round": Text(str(item.round) if not item.problem else "?"),
            "Last change": Text(_when(item.changed)),
            "Size": Text(_size(item.size)),
            "File": Text(item.path.name, style="dim"),
        }

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
