"""The combatants pane: the turn order with key stats and conditions."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable

from rules.encounter import Combatant, Encounter
from rules.registry import get_system


def conditions_text(combatant: Combatant, badges: Sequence[str] = ()) -> Text:
    text = Text(", ".join(c.name for c in combatant.conditions), style="italic yellow")
    for badge in badges:
        text.append(", " if text else "")
        text.append(badge, style="italic magenta")
    return text


class CombatantsPane(DataTable[Text]):
    """One row per combatant, in turn order; the current actor has a ▶ and bold text."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._columns_for: str | None = None
        self._shown: Encounter | None = None  # redrawn only when the state differs

    @property
    def selected_id(self) -> str | None:
        if not self.row_count:
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def show(self, state: Encounter) -> None:
        if state == self._shown:
            return
        self._shown = state
        system = get_system(state.system)
        if self._columns_for != system.name:
            self.clear(columns=True)
            self.add_column(" ", key="mark")
            self.add_column("Name", key="name")
            self.add_column("Side", key="side")
            for label in system.stat_columns:
                self.add_column(label, key=f"stat:{label}")
            self.add_column("Conditions", key="conditions")
            self._columns_for = system.name
        keep = self.selected_id
        self.clear()
        # Optional system hook: why a combatant cannot act ("" if it can), flagged with ✗.
        cannot_act = getattr(system, "cannot_act", None)
        # Optional system hook: short labels for what the sheet does to a combatant now.
        badges = getattr(system, "badges", None)
        for combatant in state.combatants:
            current = combatant.id == state.current_id
            style = "bold" if current else ""
            name = Text(combatant.name, style=style)
            if combatant.gm_only:
                name.append(" (GM)", style="dim")
            mark = Text("▶" if current else " ", style=style)
            if cannot_act is not None and cannot_act(state, combatant):
                mark.append("✗", style="bold red")
            self.add_row(
                mark,
                name,
                Text(combatant.side, style=style),
                *(Text(v, style=style) for v in system.sheet_stats(combatant.sheet)),
                conditions_text(combatant, badges(state, combatant) if badges else ()),
                key=combatant.id,
            )
        target = keep if state.find(keep) else state.current_id
        if target is not None and state.find(target):
            self.move_cursor(row=state.index_of(target), animate=False)
