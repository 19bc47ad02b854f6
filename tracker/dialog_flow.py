"""One of the system's actions as the app asks it: its form, preview, odds and command, and
whether what the last roll left waiting must be settled first.

No Textual here. The encounter screen's keys (``r``, ``t``, ``s``, ``L``, the palette; the
GM's app and every seat's, ``tracker/serve/``) open it as a dialog, and the ``:`` line
fills it from words; each asks this object, so a new way to roll asks the system's hooks
nowhere else. The question itself (apply, discard or go back) is the screen's
(``RollKeys.settle_first``); whether it is due is ``must_settle``.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from typing import NamedTuple, Protocol

from rules import solo
from rules.encounter import AnyEncounter
from rules.errors import Rejected
from rules.forms import Field
from rules.odds import Odds
from rules.offered import living_first, own_first
from rules.system import Action, RuleSystem
from tracker import quick_flow

ROLL_AGAIN = "roll again"  # what a new roll would do, as the question about a waiting result says
# A roll not known yet (a half-typed value in its dialog): it carries nothing on.
NOT_KNOWN = object()


class Table(Protocol):
    """What a flow reads, as it is at each call: a session, a seat's, or a line's context."""

    @property
    def state(self) -> AnyEncounter: ...

    @property
    def system(self) -> RuleSystem: ...


class Prepared(NamedTuple):
    """A dialog's command, ready for ``execute``: its log label and the solo sides' moves."""

    command: object
    label: str
    moves: list[solo.Move]


class Unsettled(Rejected):
    """The roll would leave what waits behind: the dialog stays open while the app asks."""

    def __init__(self, waiting: str) -> None:
        super().__init__(f"Not applied yet: {waiting} (d applies it, x discards it)")
        self.waiting = waiting


def must_settle(
    system: RuleSystem, state: AnyEncounter, action: str = "", command: object = None
) -> str:
    """What the last roll left waiting that ``action`` would leave behind ("" if nothing):
    unless the system lets it carry that on (``RuleSystem.follow_up``: with no ``command``,
    whether its dialog opens without a question; with one, whether it is that roll).

    The one place of the rule "settle what is pending before a new roll"; the end of a turn
    (no action) always leaves it behind.
    """
    waiting = system.pending(state)
    return "" if not waiting or carries_on(system, state, action, command) else waiting


def carries_on(system: RuleSystem, state: AnyEncounter, action: str, command: object) -> bool:
    """Whether the system lets ``action`` (its ``command``) carry what waits on; a roll not
    known yet (``NOT_KNOWN``) carries nothing on."""
    return command is not NOT_KNOWN and system.follow_up(state, action, command)


class DialogFlow:
    """One action of the system, read against the table as it is at each call; raises
    ``Rejected`` when the system has no such action."""

    def __init__(self, table: Table, action_id: str) -> None:
        system = table.system
        action = next((a for a in system.actions(table.state) if a.id == action_id), None)
        if action is None:
            raise Rejected(f"{system.title} has no action {action_id!r}")
        self.table = table
        self.action_id = action_id
        self.action: Action = action
        self.rolls = action_id in system.roll_actions  # makes the new last roll

    @property
    def state(self) -> AnyEncounter:
        return self.table.state

    @property
    def system(self) -> RuleSystem:
        return self.table.system

    @property
    def has_odds(self) -> bool:
        return self.system.has_odds

    def must_settle(self, command: object = None) -> str:
        """What waits that this action would leave behind, to be settled first ("" if
        nothing, or it rolls nothing): ``must_settle`` for its roll."""
        if not self.rolls:
            return ""
        return must_settle(self.system, self.state, self.action_id, command)

    def fields(self, selected: str | None) -> list[Field]:
        """The action's form as the system gives it (the ``:`` line fills it from words)."""
        return self.system.action_form(self.state, self.action_id, selected)

    def form(
        self,
        selected: str | None,
        preset: Mapping[str, str] | None = None,
        *,
        acts_for: frozenset[str] | None = None,
        approves: bool = True,
    ) -> list[Field]:
        """The form as its dialog opens: those out of the fight after the rest; for a
        player's seat (``acts_for``) their own combatant acting, at the other side; the
        ``preset`` values filled in; without the GM's approvals unless ``approves``."""
        state, system = self.state, self.system
        fields = living_first(system, state, self.fields(selected))
        if acts_for is not None:
            fields = own_first(system, state, fields, acts_for)
        fields = quick_flow.with_defaults(fields, preset or {})
        if not approves:
            fields = quick_flow.without_gm_choices(system, fields)
        return fields

    def refill(
        self, values: Mapping[str, str], changed: str, *, approves: bool = True
    ) -> list[Field] | None:
        """The form again for the defaults that follow the choice ``changed`` (the system's
        ``refilled``), as ``form`` orders it; None when none follow it."""
        try:
            fields = self.system.refilled(self.state, self.action_id, values, changed)
        except Rejected:
            return None
        if fields is None:
            return None
        fields = living_first(self.system, self.state, fields)
        return fields if approves else quick_flow.without_gm_choices(self.system, fields)

    def fill(self, values: Mapping[str, str]) -> tuple[dict[str, str], list[solo.Move]]:
        """The values with what solo combatants choose (a defence...) by their policies."""
        return solo.fill(self.state, self.action_id, dict(values))

    def prepare(self, values: Mapping[str, str]) -> Prepared:
        """The command the values make; raises ``Rejected``."""
        chosen, moves = self.fill(values)
        command = self.system.action_command(self.state, self.action_id, chosen)
        return Prepared(command, self.action.title, moves)

    def submit(self, values: Mapping[str, str]) -> Prepared:
        """``prepare``, refused with ``Unsettled`` if the roll would leave what waits behind."""
        prepared = self.prepare(values)
        waiting = self.must_settle(prepared.command)
        if waiting:
            raise Unsettled(waiting)
        return prepared

    def preview(self, values: Mapping[str, str]) -> str:
        """The dialog's line under its fields: the system's preview, the solo sides'
        choices, and what waits that Enter would ask about first."""
        state, system = self.state, self.system
        chosen, moves = self.fill(values)
        line = solo.preview_line(state, moves, system.preview(state, self.action_id, chosen))
        waiting = self.must_settle(NOT_KNOWN)  # the command is made only if something waits
        if waiting:
            command = NOT_KNOWN  # until it parses (a half-typed value)
            with suppress(Rejected):
                command = system.action_command(state, self.action_id, chosen)
            if carries_on(system, state, self.action_id, command):
                waiting = ""
        if waiting:
            line += f"\nNot applied yet: {waiting} (Enter asks first)"
        return line

    def odds(self, values: Mapping[str, str]) -> Odds | None:
        return self.system.odds(self.state, self.action_id, self.fill(values)[0])
