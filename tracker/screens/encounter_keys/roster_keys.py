"""The encounter screen's roster: add (from the library), edit, keep, remove combatants."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, TypedDict

from textual.binding import Binding

from rules.commands import AddCombatant, AddCombatants, EditCombatant, RemoveCombatant
from rules.encounter import AnyCombatant
from rules.errors import Rejected
from rules.forms import Field
from tracker.screens.encounter_keys.area import Area
from tracker.widgets.combatants import CombatantsPane

if TYPE_CHECKING:
    from tracker.screens.library_screen import Pick

SHEET = "sheet:"
YES_NO = (("no", "No"), ("yes", "Yes"))


class CombatantDetails(TypedDict):
    """A filled combatant dialog: the keywords of ``AddCombatant`` and ``EditCombatant``."""

    name: str
    side: str
    gm_only: bool
    notes: str
    sheet: object  # the system's sheet


class RosterKeys(Area):
    """``a``, ``e``, ``k``, ``x``: who is in the encounter."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("a", "add_combatant", "Add", id="encounter.add_combatant"),
        Binding("e", "edit_combatant", "Edit", show=False, id="encounter.edit_combatant"),
        Binding(
            "k", "keep_combatant", "Keep in library", show=False, id="encounter.keep_combatant"
        ),
        Binding(
            "x,delete", "remove_combatant", "Remove", show=False, id="encounter.remove_combatant"
        ),
    ]

    def combatant_fields(self, combatant: AnyCombatant | None) -> list[Field]:
        system = self.session.system
        sheet = combatant.sheet if combatant else system.new_sheet()
        core = [
            Field(
                key="name", label="Name", kind="text", default=combatant.name if combatant else ""
            ),
            Field(
                key="side",
                label="Side",
                kind="text",
                default=combatant.side if combatant else "foes",
            ),
            Field(
                key="gm_only",
                label="Hidden from players",
                kind="choice",
                default="yes" if combatant and combatant.gm_only else "no",
                choices=YES_NO,
            ),
            Field(
                key="notes",
                label="Notes",
                kind="text",
                default=combatant.notes if combatant else "",
            ),
        ]
        sheet_fields = [
            Field(
                key=SHEET + f.key,
                label=f.label,
                kind=f.kind,
                default=f.default,
                choices=f.choices,
                help=f.help,
            )
            for f in system.sheet_form(sheet)
        ]
        return core + sheet_fields

    def parse_combatant(
        self, values: Mapping[str, str], combatant: AnyCombatant | None
    ) -> CombatantDetails:
        system = self.session.system
        base = combatant.sheet if combatant else system.new_sheet()
        sheet_values = {k[len(SHEET) :]: v for k, v in values.items() if k.startswith(SHEET)}
        return {
            "name": values["name"],
            "side": values["side"],
            "gm_only": values["gm_only"] == "yes",
            "notes": values["notes"],
            "sheet": system.sheet_from_form(sheet_values, base),
        }

    def action_add_combatant(self) -> None:
        found = self.library()
        if found is None:
            self.add_blank()
            return
        from tracker.screens.library_screen import LibraryScreen

        system = self.session.system
        present = [(c.name, c.side) for c in self.state.combatants]
        target = self.state.find(self.query_one(CombatantsPane).selected_id)
        screen = LibraryScreen(found.of(system.name), system.title, present, self.state, target)
        self.app.push_screen(screen, self._picked)

    def _picked(self, pick: Pick | None) -> None:
        if pick is None:
            return
        if pick.entry is None:
            self.add_blank(pick.name)
            return
        entry = pick.entry
        try:
            members = entry.copies(pick.count)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        command = members[0] if len(members) == 1 else AddCombatants(members, together=True)
        self.run(command, f"add {entry.name}" + (f" x{len(members)}" if len(members) > 1 else ""))

    def add_blank(self, name: str = "") -> None:
        """The add dialog on a blank sheet."""

        def submit(values: Mapping[str, str]) -> None:
            parsed = self.parse_combatant(values, None)
            self.session.execute(AddCombatant(**parsed), f"add {parsed['name']}")

        fields = self.combatant_fields(None)
        if name:
            fields[0] = Field(key="name", label="Name", kind="text", default=name)
        self.ask("Add combatant", fields, submit, ok_label="Add")

    def action_keep_combatant(self, combatant_id: str = "") -> None:
        """Keep a combatant (the selected one) in the library, as it starts a fight."""
        combatant = self.state.find(combatant_id) if combatant_id else self.selected()
        if combatant is None:
            return
        if self.library_folder is None:
            self.notify("No library here", severity="warning")
            return
        from tracker.store import library

        entry = library.from_combatant(self.state.system, combatant, fresh=True)
        replaced = library.path_for(self.library_folder, entry).exists()
        try:
            path = library.write(self.library_folder, entry)
        except library.LibraryError as exc:
            self.notify(str(exc), title="Not kept", severity="error", markup=False)
            return
        done = "Replaced" if replaced else "Kept"
        self.notify(f"{done} {entry.name} in the library: {path}", markup=False)

    def action_edit_combatant(self) -> None:
        combatant = self.selected()
        if combatant is None:
            return

        def submit(values: Mapping[str, str]) -> None:
            parsed = self.parse_combatant(values, combatant)
            self.session.execute(
                EditCombatant(combatant_id=combatant.id, **parsed), f"edit {combatant.name}"
            )

        self.ask(
            f"Edit {combatant.name}", self.combatant_fields(combatant), submit, ok_label="Save"
        )

    def action_remove_combatant(self) -> None:
        combatant = self.selected()
        if combatant is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.run(RemoveCombatant(combatant.id), f"remove {combatant.name}")

        from tracker.screens.confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(f"Remove {combatant.name} from the encounter?"), answered
        )
