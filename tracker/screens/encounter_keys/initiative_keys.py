"""The encounter screen's initiative: ``i`` and its dialog, and the palette's roll and sort."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual.binding import Binding

from rules.commands import Act, RollInitiative, SetInitiative, SortInitiative
from rules.forms import Field, choice_value
from tracker.screens.encounter_keys.area import Area
from tracker.widgets.combatants import CombatantsPane

EVERYONE = ""  # the dialog's "who": everyone who has no initiative yet
GROUPS = (("share", "Share one roll"), ("each", "Each rolls"))


class InitiativeKeys(Area):
    """``i``: the Initiative dialog (also ``:init``); the palette's Initiative entries."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("i", "initiative", "Initiative", id="encounter.initiative"),
        Binding(
            "A",
            "act_selected",
            "Act: a delayer steps in, or its readied reaction",
            show=False,
            id="encounter.act_selected",
        ),
    ]
    # A player sets (or rolls) their own combatants' initiative; rolling everyone's and the
    # sort are the GM's (rules.permissions).
    PLAYERS = frozenset({"initiative"})

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

    def action_act_selected(self) -> None:
        """``A``: the selected combatant stops delaying and acts now, or takes the reaction it
        readied (``:act NAME``); one holding neither is refused in one line."""
        found = self.selected()
        if found is not None:
            self.run(Act(found.id), f"act {found.name}")

    def _without_initiative(self) -> bool:
        why = self.session.system.why_no_initiative()
        if why:
            self.notify(why, severity="warning", markup=False)
        return bool(why)

    def action_initiative(self) -> None:
        """A dialog: whom (everyone without one, or one combatant), a number or dice, and
        whether a group added together shares one roll. A player's seat offers one combatant,
        their own (the selected if theirs): the others' are refused as any command of theirs
        is."""
        if self._without_initiative():
            return
        if not self.state.combatants:
            self.notify("Nobody in the fight yet (add one with a)", severity="warning")
            return
        system = self.session.system
        people = tuple(
            (c.id, c.name + ("" if c.initiative is None else f" ({c.initiative})"))
            for c in self.state.combatants
        )
        # A player's seat rolls no one's but their own: no "everyone", their own selected.
        everyone = self.session.allows("roll_initiative")
        waiting = any(c.initiative is None for c in self.state.combatants)
        current = self.state.current
        if everyone:
            chosen = self.state.find(self.query_one(CombatantsPane).selected_id) or current
            default = EVERYONE if waiting or current is None else current.id
        else:
            chosen = self.own_selected()
            if chosen is None:
                return
            default = chosen.id
        who = Field(
            key="who",
            label="Who",
            kind="choice",
            default=default,
            choices=(((EVERYONE, "Everyone without one"),) if everyone else ()) + people,
        )
        dice = system.initiative_dice(self.state, chosen or self.state.combatants[0])
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

        fields = [who, value, group] if everyone else [who, value]
        self.ask("Initiative", fields, submit, ok_label="Roll")

    def action_roll_initiative(self) -> None:
        if not self._without_initiative():
            self.run(RollInitiative(), "roll initiative")

    def action_sort_initiative(self) -> None:
        if not self._without_initiative():
            self.run(SortInitiative(), "sort by initiative")
