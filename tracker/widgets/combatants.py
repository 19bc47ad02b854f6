"""The combatants pane: the turn order with key stats and conditions.

Redrawn by difference: when the rows are the same combatants in the same order, only the
cells that changed are updated, so a roll in a 200-combatant fight touches a row or two.
Every mark has a symbol or word besides its colour: ▶ (the current actor, also in bold),
✗ before the name and a word after it (out of the fight, and why: "✗ dead"; a side's band
that says down, to a seat, the ✗ alone), ⊘ (still in the fight, but cannot act now: its turn
passes, as a stunned foe's), "(GM)" (hidden from players), "(you)" (a player's seat's own),
the initiative (an Init column, once anyone has one), and the conditions by name, each with
its time left ("On fire 2r": two rounds, this one counted; "Prone 1t": until the end of its
bearer's next turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.widgets import DataTable

from rules.encounter import AnyCombatant, AnyEncounter
from rules.hp_view import DOWN, shown_stats
from rules.registry import get_system
from rules.solo import policy_of
from tracker.terminal import textual_internals
from tracker.terminal.fit import Column, fit_columns

Row = tuple[Text, ...]
ColumnSpec = tuple[str, str, int, int, bool]  # key, label, rank, limit, glyphs
NAME_RANK = 3  # the name (and the mark) give way last, once the others are cut short
OUT, CANNOT_ACT = "✗", "⊘"  # out of the fight; in it, but its turn passes (cannot_act)
PADDING = 1  # cells either side of a cell's text, while the columns fit with it


def lost(columns: Sequence[Column], widths: Sequence[int]) -> int:
    """The cells of text the columns lose at these widths (all of a column left out)."""
    return sum(column.natural - width for column, width in zip(columns, widths, strict=True))


def spaced(cell: Text, width: int, gap: int) -> Text:
    """A cell aligned right keeps the gap to the next column (its column is ``gap`` wider
    than its text): aligned by the table, the Init column's numbers would touch the Side
    (``20foes``), as Rich drops the trailing space."""
    if not gap or cell.justify != "right":
        return cell
    spaced = Text(" " * max(0, width - cell.cell_len), justify="left")
    spaced.append_text(cell)
    return spaced


@dataclass(frozen=True)
class Layout:
    """How the columns fit the pane: each one's width (0: left out) and the space between."""

    columns: list[Column]
    widths: list[int]
    padding: int
    gap: int
    keys: tuple[str, ...]

    @property
    def shown(self) -> list[tuple[int, int]]:
        """(index, width) of each column shown."""
        return [(i, width) for i, width in enumerate(self.widths) if width]

    @property
    def columns_for(self) -> object:
        """What the table's columns are made from: the same, and they need not be made again."""
        return (self.keys, tuple(self.widths), self.padding, self.gap)


def conditions_text(
    combatant: AnyCombatant,
    badges: Sequence[str] = (),
    condition_style: str | Style = "italic yellow",
    badge_style: str | Style = "italic magenta",
    out: str = "",
    round_: int = 0,
) -> Text:
    """Its conditions with the time each has left in ``round_`` ("On fire 2r"), then its
    badges; a condition that says why it is ``out`` of the fight ("Dead") is left to the word
    shown by its name, one a badge says with how it ends ("frightened: Wis 19 ends") to the
    badge (it read "frightened, frightened: Wis 19 ends")."""
    told = tuple(b.casefold() for b in badges)
    shown = []
    for c in combatant.conditions:
        left = c.time_left(round_)
        name = c.name.casefold()
        if name == out.casefold():
            continue
        if not left and any(b.startswith((f"{name}:", f"{name} to ")) for b in told):
            continue  # the badge says it, and how it ends
        shown.append(f"{c.name} {left}" if left else c.name)
    text = Text(", ".join(shown), style=condition_style)
    for badge in badges:
        text.append(", " if text else "")
        text.append(badge, style=badge_style)
    return text


def held(combatant: AnyCombatant) -> tuple[str, ...]:
    """Its held turn, shown with its badges: "delaying", "ready: TRIGGER"."""
    marks = ("delaying",) if combatant.delaying else ()
    return (*marks, f"ready: {combatant.ready}") if combatant.ready else marks


def has_initiative(state: AnyEncounter) -> bool:
    """Whether the pane shows the Init column: once anyone has an initiative."""
    return any(c.initiative is not None for c in state.combatants)


class CombatantsPane(DataTable[Text]):
    """One row per combatant, in turn order; the current actor has a ▶ and bold text.

    The columns fit the pane (tracker.terminal.fit): when their cells are wider, the columns give
    way by priority (the side and the solo policy first, then the sheet's stats, the conditions,
    the name last), their cells abbreviated word by word. The selected row's conditions,
    when abbreviated, are written in full on the pane's lower border.
    """

    # Coloured by the theme in tracker.tcss.
    COMPONENT_CLASSES = DataTable.COMPONENT_CLASSES | {
        "combatants--condition",
        "combatants--badge",
        "combatants--cannot-act",
        "combatants--hidden",
        "combatants--yours",
    }

    empty_hint = ""  # shown under the column titles while the encounter has nobody in it

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._columns_for: object = None  # what the table's columns were made for
        self._rows: dict[str, Row] = {}  # what each row shows now, by combatant id
        self._made: dict[str, tuple[object, Row]] = {}  # what each row was made from
        self._fitted: dict[str, tuple[object, Row]] = {}  # each row fitted to the widths
        self._fit: tuple[object, Layout] | None = None  # the columns' layout, and what for
        self._layout_now: Layout | None = None
        self._full: dict[str, Row] = {}  # each row before it was fitted
        self._plain_rows: dict[str, tuple[Row, tuple[str, ...]]] = {}  # see ``_plains``
        self._state: AnyEncounter | None = None
        self._mine: frozenset[str] = frozenset()  # a player's seat's own, marked "(you)"

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        if self._state is not None:
            # The cells hold the old theme's colours: build them again.
            self._rows.clear()
            self._made.clear()
            self._fitted.clear()
            self.show(self._state)

    def on_resize(self) -> None:
        if self._state is not None:
            self.show(self._state, again=True)

    @property
    def selected_id(self) -> str | None:
        if not self.row_count:
            # Not laid out yet (``show``): the row the cursor will be put on.
            return self._state.current_id if self._state is not None else None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def show(
        self, state: AnyEncounter, again: bool = False, mine: frozenset[str] | None = None
    ) -> None:
        """Show ``state``; ``again``: even if it is the state shown (the pane was resized);
        ``mine``: the combatants a player's seat acts for, marked (None: as before). A pane
        not laid out yet keeps it, and makes its rows when it has a size."""
        if mine is not None and mine != self._mine:
            self._mine, again = mine, True
        if self._rows and state == self._state and not again:
            return  # nothing changed (several panes and seats share one state)
        keep = self.selected_id
        self._state = state
        if not self.size.width:
            # Not laid out yet: the rows are made once, fitted to the pane, when it learns its
            # size (``on_resize``). Made now, for no width, all 200 of a big fight's rows were
            # made, added and measured twice before the first frame. Its height, a line a row,
            # is known now: the first layout brings the scrollbar the rows will need.
            self._rows_to_come(len(state.combatants))
            return
        specs = self._columns(state)
        full = self._rows_of(state)
        layout = self._layout(specs, full)
        rows = self._fit_rows(layout, full)
        # Columns get explicit widths, measured here: when DataTable widens a column by
        # itself after update_cell, Textual 8.2 keeps drawing rows from its stale caches.
        if layout.columns_for != self._columns_for:
            self.clear(columns=True)
            self.cell_padding = layout.padding
            for index, width in layout.shown:
                column = layout.columns[index]
                label = column.fit_label(width)
                self.add_column(label, key=specs[index][0], width=width + layout.gap)
            self._columns_for = layout.columns_for
            self._rows = {}
        added = list(rows) != list(self._rows)
        if not added:
            table_columns = list(self.columns)
            changed: dict[str, dict[str, Text]] = {}
            for key, row in rows.items():
                old = self._rows[key]
                if row is old:  # a row kept from before (``_fit_rows``): nothing to compare
                    continue
                for column_key, cell, was in zip(table_columns, row, old, strict=True):
                    if cell != was:
                        changed.setdefault(key, {})[column_key.value or ""] = cell
            # Only these rows are drawn again (a cell updated alone has every row redrawn).
            textual_internals.update_rows(self, changed)
        else:
            self.clear()
            for key, row in rows.items():
                self.add_row(*row, key=key)
            self._rows_to_come(len(rows))
        self._rows = rows
        self._full = full
        self._layout_now = layout
        target = keep if state.find(keep) else state.current_id
        if target is not None and state.find(target):
            index = state.index_of(target)
            if self.cursor_row != index:
                self.move_cursor(row=index, animate=False)
            if added:
                self._scroll_to_row(index)
        self._show_selected()

    def _rows_to_come(self, count: int) -> None:
        """The table's height for ``count`` rows, a line each, set now: the table works it out
        at its next idle, after the frame its rows are first drawn in."""
        width, height = self.virtual_size.width, self.header_height + count
        if self.virtual_size.height != height:
            self.virtual_size = Size(width, height)

    def _scroll_to_row(self, index: int) -> None:
        """Row ``index`` in view now: the table scrolls to rows just added only after the next
        frame (their sizes pending), so a big fight opened on a turn far down the order was
        first drawn at its top."""
        header = self.header_height
        row = Region(0, header + index, max(self.size.width, 1), 1)
        spacing = Spacing(top=header)
        self.scroll_to_region(row, spacing=spacing, animate=False, force=True, immediate=True)

    # --- fitting the pane ---------------------------------------------------------------------

    def _columns(self, state: AnyEncounter) -> list[ColumnSpec]:
        """(key, label, rank, limit, glyphs) of each column; a lower rank gives way first."""
        system = get_system(state.system)
        solo = [("solo", "Solo", 0, 6, False)] if state.solo_sides else []
        init = [("init", "Init", 2, 4, False)] if has_initiative(state) else []
        return [
            ("mark", " ", NAME_RANK + 1, 2, False),
            ("name", "Name", NAME_RANK, 10, False),
            *init,
            *solo,
            ("side", "Side", 0, 4, False),
            *((f"stat:{label}", label, 1, 8, True) for label in system.stat_columns),
            ("conditions", "Conditions", 2, 10, False),
        ]

    def _space(self, rows: int) -> int:
        """Cells the columns may take: the pane's inside, less the scrollbar that more rows
        than fit would bring."""
        if not self.size.width:
            return 1 << 30  # not laid out yet: the columns as wide as their cells
        width, height = self.size  # inside the border
        if rows + self.header_height > height:
            width -= self.styles.scrollbar_size_vertical
        return width

    def _plains(self, rows: dict[str, Row]) -> list[tuple[str, ...]]:
        """Each row's cells as plain text, kept with the row: of 200 rows a change makes one or
        two anew, and the others' texts need not be read again."""
        known = self._plain_rows
        plains: dict[str, tuple[Row, tuple[str, ...]]] = {}
        for key, row in rows.items():
            kept = known.get(key)
            plains[key] = (
                kept
                if kept is not None and kept[0] is row
                else (row, tuple(cell.plain for cell in row))
            )
        self._plain_rows = plains
        return [plain for _row, plain in plains.values()]

    def _layout(self, specs: list[ColumnSpec], rows: dict[str, Row]) -> Layout:
        cells = self._plains(rows)
        plains = tuple(frozenset(row[i] for row in cells) for i in range(len(specs)))
        space = self._space(len(rows))
        key = (tuple(spec[:2] for spec in specs), plains, space)
        if self._fit is not None and self._fit[0] == key:
            return self._fit[1]
        columns = [
            Column(Text(label), [row[i] for row in rows.values()], rank, limit, glyphs)
            for i, (_key, label, rank, limit, glyphs) in enumerate(specs)
        ]
        # A cell's padding on either side, or (when that fits more of the columns' text)
        # one cell between columns: two more cells for the text of each of eight columns.
        roomy = fit_columns(columns, space, 2 * PADDING, protect=NAME_RANK)
        tight = fit_columns(columns, space, 1, protect=NAME_RANK)
        if lost(columns, tight) < lost(columns, roomy):
            padding, gap, widths = 0, 1, tight
        else:
            padding, gap, widths = PADDING, 0, roomy
        layout = Layout(columns, widths, padding, gap, tuple(spec[0] for spec in specs))
        self._fit = (key, layout)
        return layout

    def _fit_rows(self, layout: Layout, rows: dict[str, Row]) -> dict[str, Row]:
        fitted: dict[str, tuple[object, Row]] = {}
        shown: dict[str, Row] = {}
        for key, row in rows.items():
            known = self._fitted.get(key)
            if known is not None and known[0] == (row, layout.columns_for):
                fitted[key] = known
                shown[key] = known[1]
                continue
            cells = tuple(
                spaced(layout.columns[i].fit_cell(row[i], width), width, layout.gap)
                for i, width in layout.shown
            )
            fitted[key] = ((row, layout.columns_for), cells)
            shown[key] = cells
        self._fitted = fitted
        return shown

    def on_data_table_row_highlighted(self) -> None:
        self._show_selected()

    def _show_selected(self) -> None:
        """The selected row's conditions in full on the lower border, if they are cut short."""
        key = self.selected_id or ""
        full, shown = self._full.get(key), self._rows.get(key)
        layout = self._layout_now
        if full is None or shown is None or layout is None:
            self.border_subtitle = ""
            return
        conditions = full[-1]
        fitted = dict(zip((i for i, _w in layout.shown), shown, strict=True))
        if not conditions or fitted.get(len(full) - 1) == conditions:
            self.border_subtitle = ""
            return
        self.border_subtitle = Text.assemble(f"{full[1].plain}: ", conditions)

    # --- the rows -------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        if self.row_count or not self.empty_hint or y != self.header_height:
            return super().render_line(y)
        if self._state is not None and self._state.combatants:
            return super().render_line(y)  # rows to come, once the pane has a size (``show``)
        style = self.rich_style + Style(italic=True)
        return Strip([Segment(f" {self.empty_hint}", style)]).adjust_cell_length(
            self.size.width, self.rich_style
        )

    def _style(self, component: str) -> Style:
        return self.get_component_rich_style(component, partial=True)

    def _rows_of(self, state: AnyEncounter) -> dict[str, Row]:
        system = get_system(state.system)
        hidden, cannot = self._style("combatants--hidden"), self._style("combatants--cannot-act")
        yours = self._style("combatants--yours")
        condition, badge = self._style("combatants--condition"), self._style("combatants--badge")
        rows: dict[str, Row] = {}
        made: dict[str, tuple[object, Row]] = {}
        solo_column = bool(state.solo_sides)
        init_column = has_initiative(state)
        for combatant in state.combatants:
            current = combatant.id == state.current_id
            out = system.out_of_fight(state, combatant)
            # A side's band (rules.hp_view) may say down where its veiled sheet cannot.
            down = combatant.hp_shown == DOWN
            # One who only loses its turn is no more out of the fight than one who acts.
            sign = OUT if out or down else CANNOT_ACT if system.cannot_act(state, combatant) else ""
            marks = (*held(combatant), *system.badges(state, combatant))
            solo = state.is_solo(combatant)
            # A row depends on these only; an unchanged combatant is the same object.
            # The round only for a condition that counts down.
            ticking = state.round if any(c.expires for c in combatant.conditions) else 0
            own = combatant.id in self._mine
            depends = (
                combatant,
                own,
                current,
                sign,
                out,
                marks,
                solo,
                solo_column,
                init_column,
                ticking,
            )
            known = self._made.get(combatant.id)
            if known is not None and known[0] == depends:
                rows[combatant.id] = known[1]
                made[combatant.id] = known
                continue
            style = "bold" if current else ""
            name = Text(combatant.name, style=style)
            if out:
                name.append(f" {OUT} {out}", style=cannot)
            if combatant.gm_only:
                name.append(" (GM)", style=hidden)
            if own:
                name.append(" (you)", style=yours)
            policy = Text(f"⚙ {policy_of(state, combatant)}" if solo else "", style=hidden)
            mark = Text("▶" if current else " ", style=style)
            if sign:
                mark.append(sign, style=cannot)
            ranked = "" if combatant.initiative is None else str(combatant.initiative)
            rows[combatant.id] = (
                mark,
                name,
                *((Text(ranked, style=style, justify="right"),) if init_column else ()),
                *((policy,) if solo_column else ()),
                Text(combatant.side, style=style),
                *(Text(v, style=style) for v in shown_stats(system, combatant)),
                conditions_text(combatant, marks, condition, badge, out, state.round),
            )
            made[combatant.id] = (depends, rows[combatant.id])
        self._made = made
        return rows
