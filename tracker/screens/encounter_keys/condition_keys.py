"""The encounter screen's conditions and notes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.binding import Binding

from rules.commands import AddCondition, AddNote, RemoveCondition
from rules.conditions import Duration, DurationKind
from rules.forms import Field, choice_value, int_value
from tracker.screens.encounter_keys.area import Area

DURATIONS: tuple[tuple[DurationKind, str], ...] = (
    ("until-removed", "Until removed"),
    ("end-of-next-turn", "End of its next turn"),
    ("end-of-round", "End of this round"),
    ("rounds", "A number of rounds"),
)


class ConditionKeys(Area):
    """``c``, ``C``, ``o``: conditions on a combatant, notes in the log."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("c", "add_condition", "Condition", id="encounter.add_condition"),
        Binding(
            "C", "remove_condition", "Drop condition", show=False, id="encounter.remove_condition"
        ),
        Binding("o", "note", "Note", show=False, id="encounter.note"),
    ]
    PLAYERS = frozenset({"add_condition", "remove_condition", "note"})

    def action_add_condition(self) -> None:
        combatant = self.own_selected()
        if combatant is None:
            return
        who = Field(
            key="who", label="Combatant", kind="choice", default=combatant.id, choices=self.people()
        )
        # A system may end a condition in more ways (Generic d20: a save, someone's turn).
        endings, more = self.session.system.condition_endings(self.state)
        duration = Field(
            key="duration",
            label="Lasts",
            kind="choice",
            default="until-removed",
            choices=(*DURATIONS, *endings),
        )
        fields = [
            who,
            Field(key="name", label="Condition", kind="text", help="e.g. Prone"),
            duration,
            Field(key="rounds", label="Rounds (if counted)", default="1"),
            *more,
        ]

        def submit(values: Mapping[str, str]) -> None:
            target = choice_value(values, who)
            lasts = choice_value(values, duration)
            if lasts not in dict(DURATIONS):
                system = self.session.system
                command = system.condition_command(self.state, target, values["name"], values)
                if command is not None:
                    self.session.execute(command, "add condition")
                    return
            chosen = Duration(
                choice_value(values, duration, DURATIONS),
                int_value(values, "rounds", "Rounds", 1),
            )
            self.session.execute(AddCondition(target, values["name"], chosen), "add condition")

        # How the rules read the name, as it is typed: a slip ("prne") is told before it is
        # added as a label of the table's own.
        system = self.session.system
        self.ask(
            "Add condition",
            fields,
            submit,
            ok_label="Add",
            preview=lambda values: system.condition_note(values.get("name", "")),
        )

    def action_remove_condition(self) -> None:
        combatant = self.own_selected()
        if combatant is None:
            return
        if not combatant.conditions:
            self.notify(f"{combatant.name} has no conditions", markup=False)
            return
        which = Field(
            key="name",
            label="Condition",
            kind="choice",
            default=combatant.conditions[0].name,
            choices=tuple((c.name, c.name) for c in combatant.conditions),
        )

        def submit(values: Mapping[str, str]) -> None:
            self.session.execute(
                RemoveCondition(combatant.id, choice_value(values, which)), "remove condition"
            )

        self.ask(f"Remove a condition from {combatant.name}", [which], submit, ok_label="Remove")

    def action_note(self) -> None:
        # A player notes about one of their own (the encounter only after their own roll:
        # rules.permissions), so their seat's note starts about theirs.
        own = None
        if self.session.acts_for() is not None:
            own = self.own_selected()
            if own is None:
                return
        about = Field(
            key="about",
            label="About",
            kind="choice",
            default=own.id if own else "",
            choices=(("", "the encounter"), *self.people()),
        )
        fields = [Field(key="text", label="Note", kind="text"), about]

        def submit(values: Mapping[str, str]) -> None:
            self.session.execute(
                AddNote(values["text"], choice_value(values, about) or None), "note"
            )

        self.ask("Add a note to the log", fields, submit, ok_label="Add")
