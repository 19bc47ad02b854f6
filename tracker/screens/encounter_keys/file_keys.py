"""The encounter screen's other files: another encounter, a new one with this party, a report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.binding import Binding

from rules.errors import Rejected
from rules.forms import Field
from tracker.screens.encounter_keys.area import Area


class FileKeys(Area):
    """``ctrl+o``, ``N``; and the report (``export``), from the palette and the ``:`` line."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("ctrl+o", "open_save", "Open encounter", show=False, id="encounter.open_save"),
        Binding(
            "N", "new_party", "New encounter with this party", show=False, id="encounter.new_party"
        ),
    ]

    def action_open_save(self) -> None:
        self.post_message(self.OpenRequested())

    def action_new_party(self) -> None:
        """A new encounter with this one's party, and foes from the library."""
        from tracker.store import prepare
        from tracker.store.library_find import foes_example

        try:
            side = prepare.party_side(self.state)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        found = self.library()
        fields = [
            Field(key="name", label="New encounter's name", kind="text"),
            Field(
                key="fresh",
                label=f"The {side}",
                kind="choice",
                default="ended",
                choices=(("ended", "As they ended"), ("fresh", "Fresh")),
                help="Fresh: as the library has them, else their sheets reset to full",
            ),
            Field(
                key="foes",
                label="Foes from the library",
                kind="text",
                help=foes_example(found.of(self.state.system) if found else []),
            ),
        ]

        def submit(values: Mapping[str, str]) -> None:
            from tracker.store.library import Library, LibraryError

            library = self.library() or Library()  # read again: its files may have changed
            foes = [part for part in values["foes"].split(",") if part.strip()]
            try:
                history = prepare.new_history(
                    values["name"],
                    self.state.system,
                    self.session.dice,
                    library=library,
                    party_from=self.state,
                    fresh=values["fresh"] == "fresh",
                    foes=foes,
                )
            except LibraryError as exc:
                raise Rejected(str(exc)) from None
            self.post_message(self.NewEncounterRequested(history))

        self.ask("New encounter with this party", fields, submit, ok_label="Start")

    def action_export(self, fmt: str, name: str = "") -> None:
        """Write a fight report (Markdown or JSON) beside the save, and say where."""
        from tracker.store import export, storage

        try:
            path = export.write_report(self.session.history, fmt, self.session.path, name)
        except Rejected as exc:
            self.notify(exc.message, title="Not exported", severity="error", markup=False)
            return
        except storage.SaveError as exc:
            self.notify(str(exc), title="Not exported", severity="error", markup=False)
            return
        self.notify(f"Report written: {path.name} (in {path.parent})", markup=False)
