"""The combatants pane: the turn order with key stats and conditions.

Redrawn by difference: when the rows are the same combatants in the same order, only the
cells that changed are updated, so a roll in a 200-combatant fight touches a row or two.
Every mark has a symbol or word besides its colour: ▶ (the current actor, also in bold),
✗ (cannot act), ✗ and a word after the name (out of the fight, and why: "✗ dead"), "(GM)"
(hidden from players), and the conditions by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip
from textual.widgets import DataTable

from rules.encounter import Combatant, Encounter
from rules.registry import get_system
from rules.solo import policy_of

Row = tuple[Text, ...]


def conditions_text(
    combatant: Combatant,
    badges: Sequence[str] = (),
    condition_style: str | Style = "italic yellow",
    badge_style: str | Style = "italic magenta",
    out: str = "",
) -> Text:
    """Its conditions, then its badges; a condition that says why it is ``out`` of the fight
    ("Dead") is left to the word shown by its name."""
    shown = [c.name for c in combatant.conditions if c.name.casefold() != out.casefold()]
    text = Text(", ".join(shown), style=condition_style)
    for badge in badges:
        text.append(", " if text else "")
        text.append(badge, style=badge_style)
    return text


class CombatantsPane(DataTable[Text]):
    """One row per combatant, in turn order; the current actor has a ▶ and bold text."""

    # Coloured by the theme in tracker.tcss.
    COMPONENT_CLASSES = DataTable.COMPONENT_CLASSES | {
        "combatants--condition",
        "combatants--badge",
        "combatants--cannot-act",
        "combatants--hidden",
    }

    empty_hint = ""  # shown under the column titles while the encounter has nobody in it

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._columns_for: tuple[str, tuple[int, ...]] | None = None
        self._rows: dict[str, Row] = {}  # what each row shows now, by combatant id
        self._made: dict[str, tuple[object, Row]] = {}  # what each row was made from
        self._state: Encounter | None = None

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, _theme: object) -> None:
        if self._state is not None:
            # The cells hold the old theme's colours: build them again.
            self._rows.clear()
            self._made.clear()
            self.show(self._state)

    @property
    def selected_id(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def show(self, state: Encounter) -> None:
        if self._rows and state == self._state:
            return  # nothing changed (several panes and seats share one state)
        self._state = state
        system = get_system(state.system)
        labels = (" ", "Name", "Side", *system.stat_columns, "Conditions")
        keys = ("mark", "name", "side", *(f"stat:{label}" for label in system.stat_columns))
        keys = (*keys, "conditions")
        keep = self.selected_id
        rows = self._rows_of(state)
        # Columns get explicit widths, measured here: when DataTable widens a column by
        # itself after update_cell, Textual 8.2 keeps drawing rows from its stale caches.
        widths = tuple(
            max([len(label), *(row[i].cell_len for row in rows.values())])
            for i, label in enumerate(labels)
        )
        if (system.name, widths) != self._columns_for:
            self.clear(columns=True)
            for label, key, width in zip(labels, keys, widths, strict=True):
                self.add_column(label, key=key, width=width)
            self._columns_for = (system.name, widths)
            self._rows = {}
        if list(rows) == list(self._rows):
            columns = list(self.columns)
            for key, row in rows.items():
                old = self._rows[key]
                for column, cell, was in zip(columns, row, old, strict=True):
                    if cell != was:
                        self.update_cell(key, column, cell)
        else:
            self.clear()
            for key, row in rows.items():
                self.add_row(*row, key=key)
        self._rows = rows
        target = keep if state.find(keep) else state.current_id
        if target is not None and state.find(target):
            index = state.index_of(target)
            if self.cursor_row != index:
                self.move_cursor(row=index, animate=False)

    def render_line(self, y: int) -> Strip:
        if self.row_count or not self.empty_hint or y != self.header_height:
            return super().render_line(y)
        style = self.rich_style + Style(italic=True)
        return Strip([Segment(f" {self.empty_hint}", style)]).adjust_cell_length(
            self.size.width, self.rich_style
        )

    def _style(self, component: str) -> Style:
        return self.get_component_rich_style(component, partial=True)

    def _rows_of(self, state: Encounter) -> dict[str, Row]:
        system = get_system(state.system)
        hidden, cannot = self._style("combatants--hidden"), self._style("combatants--cannot-act")
        condition, badge = self._style("combatants--condition"), self._style("combatants--badge")
        rows: dict[str, Row] = {}
        made: dict[str, tuple[object, Row]] = {}
        for combatant in state.combatants:
            current = combatant.id == state.current_id
            out = system.out_of_fight(state, combatant)
            blocked = bool(out or system.cannot_act(state, combatant))
            marks = tuple(system.badges(state, combatant))
            solo = state.is_solo(combatant)
            # A row depends on these only; an unchanged combatant is the same object.
            depends = (combatant, current, blocked, out, marks, solo)
            known = self._made.get(combatant.id)
            if known is not None and known[0] == depends:
                rows[combatant.id] = known[1]
                made[combatant.id] = known
                continue
            style = "bold" if current else ""
            name = Text(combatant.name, style=style)
            if out:
                name.append(f" ✗ {out}", style=cannot)
            if combatant.gm_only:
                name.append(" (GM)", style=hidden)
            if solo:
                name.append(f" ⚙ {policy_of(state, combatant)}", style=hidden)
            mark = Text("▶" if current else " ", style=style)
            if blocked:
                mark.append("✗", style=cannot)
            rows[combatant.id] = (
                mark,
                name,
                Text(combatant.side, style=style),
                *(Text(v, style=style) for v in system.sheet_stats(combatant.sheet)),
                conditions_text(combatant, marks, condition, badge, out),
            )
            made[combatant.id] = (depends, rows[combatant.id])
        self._made = made
        return rows
