"""The encounter screen's initiative: its dialog, and the palette's roll and sort."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.binding import Binding

from rules.commands import RollInitiative, SetInitiative, SortInitiative
from rules.forms import Field, choice_value
from tracker.screens.encounter_keys.area import Area

EVERYONE = ""  # the dialog's "who": everyone who has no initiative yet
GROUPS = (("share", "Share one roll"), ("each", "Each rolls"))


class InitiativeKeys(Area):
    """No key of its own: ``:init``, and the palette's Initiative entries."""

    KEYS: ClassVar[list[Binding]] = []

    def initiative_palette(self) -> list[tuple[str, str, str]]:
        """The palette's entries: (title, action, help); in a system without a turn order,
        one entry that says why there is no initiative."""
        why = self.session.system.why_no_initiative()
        if why:
            return [("Initiative", "initiative", why)]
        return [
            ("Initiative…", "initiative", "set or roll one's, or everyone's (:init)"),
            ("Roll initiative", "roll_initiative", "for everyone who has none, then sort"),
            ("Sort by initiative", "sort_initiative", "the order, highest first (u undoes it)"),
        ]

    def _without_initiative(self) -> bool:
        why = self.session.system.why_no_initiative()
        if why:
            self.notify(why, severity="warning", markup=False)
        return bool(why)

    def action_initiative(self) -> None:
        """A dialog: whom (everyone without one, or one combatant), a number or dice, and
        whether a group added together shares one roll."""
        if self._without_initiative():
            return
        system = self.session.system
        people = tuple(
            (c.id, c.name + ("" if c.initiative is None else f" ({c.initiative})"))
            for c in self.state.combatants
        )
        waiting = any(c.initiative is None for c in self.state.combatants)
        current = self.state.current
        who = Field(
            key="who",
            label="Who",
            kind="choice",
            default=EVERYONE if waiting or current is None else current.id,
            choices=((EVERYONE, "Everyone without one"), *people),
        )
        sample = current or (self.state.combatants[0] if self.state.combatants else None)
        dice = system.initiative_dice(self.state, sample) if sample else "1d20"
        value = Field(
            key="value",
            label="Number or dice",
            kind="text",
            help=f"e.g. 15 or {dice}; empty: each one's own ({dice}...)",
        )
        group = Field(key="group", label="A group", kind="choice", default="share", choices=GROUPS)

        def submit(values: Mapping[str, str]) -> None:
            target = choice_value(values, who)
            typed = values["value"].strip()
            if target == EVERYONE:
                each = choice_value(values, group, GROUPS) == "each"
                self.session.execute(RollInitiative(typed, each), "roll initiative")
            else:
                self.session.execute(SetInitiative(target, typed), "initiative")

        self.ask("Initiative", [who, value, group], submit, ok_label="Roll")

    def action_roll_initiative(self) -> None:
        if not self._without_initiative():
            self.run(RollInitiative(), "roll initiative")

    def action_sort_initiative(self) -> None:
        if not self._without_initiative():
            self.run(SortInitiative(), "sort by initiative")
