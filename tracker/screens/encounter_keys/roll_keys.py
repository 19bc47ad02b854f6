"""The encounter screen's rolls and their results: roll, quick turn, the system's actions, apply."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding

from rules.commands import DiscardConsequence
from rules.errors import Rejected
from rules.odds import Odds
from tracker import quick_flow
from tracker.dialog_flow import ROLL_AGAIN, DialogFlow, Unsettled, must_settle
from tracker.screens.encounter_keys.area import Area
from tracker.terminal import textual_internals
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.thresholds import ThresholdsPane

if TYPE_CHECKING:
    from rules.forms import Field
    from tracker.screens.form import FormScreen, FormSettings

# No key: what ``session.allows`` asks about the GM's approvals in a dialog (a player's
# dialog does not offer them, ``RuleSystem.gm_choice``).
APPROVE = "approve"


def ok_label(action_id: str) -> str:
    """The label of an action's dialog's button."""
    return "Roll" if action_id == "roll" else "OK"


def _not_opened(values: Mapping[str, str]) -> None:
    """What a dialog built ahead submits: nothing. It is told what to do as it opens
    (``reopen``)."""


class RollKeys(Area):
    """``r``, ``t``, ``s``, ``d``: the system's dialogs, and what a roll leaves waiting."""

    KEYS: ClassVar[list[Binding]] = [
        Binding("r", "roll", "Roll", id="encounter.roll"),
        Binding("t", "quick_turn", "Quick turn", id="encounter.quick_turn"),
        Binding("s", "system_menu", "System actions", show=False, id="encounter.system_menu"),
        Binding("d", "apply_result", "Apply result", id="encounter.apply_result"),
        Binding(
            "L",
            "overrule",
            "Overrule the last roll (the GM's choice)",
            show=False,
            id="encounter.overrule",
        ),
    ]
    PLAYERS = frozenset({"roll", "quick_turn", "system_menu", "system", "apply_result"})
    # The keys that open the system's "roll" action: a system may keep it for the GM.
    OPENS = {"roll": "roll", "quick_turn": "roll"}

    _forms: dict[str, FormScreen]  # the system actions' dialogs, built once

    def settle_first(
        self, doing: str, go_on: Callable[[], None], *, over: bool | None = None
    ) -> None:
        """Do ``go_on`` once nothing the last roll left waits to be applied; while something
        does, ask first: apply it (as ``d``), discard it (a line in the log), or go back.

        Every key that would leave a result behind (the end of a turn, a new roll) asks
        here, so no result is ever dropped without a word. What was applied here may end
        the fight (``over``: whether it was over when asked): then nothing goes on, the
        summary opens instead.
        """
        if over is None:
            over = self.session.outcome().over
        waiting = self.session.system.pending(self.state)
        if not waiting:
            if over or not self.session.outcome().over:
                go_on()
            return

        def again() -> None:
            # What is left (a solo answer may wait in turn).
            self.settle_first(doing, go_on, over=over)

        def answered(answer: str | None) -> None:
            if answer == "apply":
                self.action_apply_result(then=again)
            elif answer == "discard" and self.run(DiscardConsequence(), "discard result"):
                again()

        from tracker.screens.waiting import WaitingScreen

        can_discard = self.session.allows("discard_consequence")
        if not can_discard and not self._may_apply():
            # A player's seat, and another's result: asked to apply it, they were refused.
            said = f"First the GM (or whoever rolled it) applies what waits: {waiting}"
            self.notify(said, severity="warning", markup=False)
            return
        self.app.push_screen(WaitingScreen(waiting, doing, can_discard=can_discard), answered)

    def _may_apply(self) -> bool:
        """Whether this seat may apply what waits (a result that asks for choices: its
        dialog says, as it is submitted)."""
        system = self.session.system
        if system.pending_action(self.state):
            return True
        try:
            command = system.consequence_command(self.state)
        except Rejected:
            return True  # its own words say why, as d gives them
        return self.session.refusal(command) is None

    def action_roll(self) -> None:
        self.action_system("roll")

    def action_overrule(self) -> None:
        """The GM's choice on the last roll, where the system has one (a failed save turned
        into a success): its action's dialog. Not a player's (not in ``PLAYERS``)."""
        system = self.session.system
        if not system.overrule_action:
            self.notify(f"{system.title} has no choice on the last roll", severity="warning")
            return
        self.action_system(system.overrule_action)

    def action_system_menu(self) -> None:
        from tracker.screens.action_menu import ActionMenuScreen

        system = self.session.system
        actions = [a for a in system.actions(self.state) if self.session.allows("system", a.id)]
        self.app.push_screen(
            ActionMenuScreen(f"{system.title} actions", actions),
            lambda chosen: self.action_system(chosen) if chosen else None,
        )

    def action_system(
        self,
        action_id: str,
        preset: Mapping[str, str] | None = None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Open the dialog of one of the system's actions ("roll" is the r key).

        ``preset`` fills some fields in; ``then`` runs once the dialog's command is done.
        """
        try:
            flow = DialogFlow(self.session, action_id)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        if flow.must_settle():
            self.settle_first(ROLL_AGAIN, lambda: self.action_system(action_id, preset, then))
            return
        try:
            fields = self._fields(flow, preset)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return

        def submit(values: Mapping[str, str]) -> None:
            try:
                command, label, moves = flow.submit(values)
            except Unsettled:
                # Not the roll that carries what waits on: ask over the dialog, then roll.
                self.settle_first(ROLL_AGAIN, self._forms[action_id].action_submit)
                raise
            self.session.execute(command, label, choices=moves)

        def show_odds(found: Odds | None) -> None:
            if found is not None:
                self.query_one(ThresholdsPane).show_preview(found)

        def closed(done: bool | None) -> None:
            self.query_one(ThresholdsPane).show(self.state)  # back from the preview
            if done and then is not None:
                then()

        settings: FormSettings = {
            "ok_label": ok_label(action_id),
            "preview": flow.preview,
            "odds": flow.odds if flow.has_odds else None,
            "on_odds": show_odds,
            "refill": partial(flow.refill, approves=self.session.allows(APPROVE)),
        }
        form = self._forms.get(action_id)
        if form is not None and form.shape(form.fields) == form.shape(fields):
            form.reopen(flow.action.title, fields, submit, **settings)
        else:
            if form is not None:
                self._forget_form(action_id)
            from tracker.screens.form import FormScreen

            form = FormScreen(flow.action.title, fields, submit, **settings)
            self._keep_form(action_id, form)
        self.app.push_screen(form, closed)

    def build_ahead(self, action_id: str) -> None:
        """Build an action's dialog now, unseen, so that its first opening only shows it (see
        ``textual_internals.build_unseen``): the roll dialog, while the user reads the first
        frame (``EncounterScreen``). The key does not wait for it: pressed first, it builds
        its own, and this one is dropped."""
        self.run_worker(self._build_unseen(action_id), group="build-ahead", exclusive=True)

    async def _build_unseen(self, action_id: str) -> None:
        if action_id in self._forms:
            return
        try:
            flow = DialogFlow(self.session, action_id)
            fields = self._fields(flow)
        except Rejected:
            return  # no dialog to open now; the key says why when it is pressed
        from tracker.screens.form import FormScreen

        # Its words, values and what it does are put back as it opens (``reopen``).
        form = FormScreen(flow.action.title, fields, _not_opened, ok_label=ok_label(action_id))
        kept = False
        try:
            built = await textual_internals.build_unseen(self.app, form)
            if built and action_id not in self._forms and self.is_attached:
                self._keep_form(action_id, form)
                kept = True
        finally:
            if not kept and form.is_running:
                form.remove()  # the key came first, or the encounter closed (or the app)

    def _fields(self, flow: DialogFlow, preset: Mapping[str, str] | None = None) -> list[Field]:
        """The dialog's fields as this seat opens it now, on the selected combatant."""
        return flow.form(
            self.query_one(CombatantsPane).selected_id,
            preset,
            acts_for=self.session.acts_for(),
            approves=self.session.allows(APPROVE),
        )

    def _keep_form(self, action_id: str, form: FormScreen) -> None:
        # Kept installed, so the next time (the next roll) it opens without being built.
        self.app.install_screen(form, self._form_name(action_id))
        self._forms[action_id] = form

    def _form_name(self, action_id: str) -> str:
        return f"encounter-{id(self)}-{action_id}"

    def _forget_form(self, action_id: str) -> None:
        form = self._forms.pop(action_id)
        if form in self.app.screen_stack:
            return  # still open as the app closes: Textual removes it with the app
        self.app.uninstall_screen(self._form_name(action_id))
        form.remove()

    def action_quick_turn(self) -> None:
        """The roll dialog set for the actor and its last target; after it, apply the result."""
        if must_settle(self.session.system, self.state, "roll"):
            self.settle_first(ROLL_AGAIN, self._quick_turn)
        else:
            self._quick_turn()

    def _quick_turn(self) -> None:
        selected = self.query_one(CombatantsPane).selected_id
        why = quick_flow.refusal(self.state, self.session.system, selected, self.session.outcome())
        if why:
            self.notify(why, severity="warning", markup=False)
            return
        preset = quick_flow.roll_preset(self.session.history, self.session.system, selected)
        self.action_system("roll", preset, self.confirm_result)

    def confirm_result(self) -> None:
        """Show what applying the last roll's result would do: Enter applies, Esc skips."""
        try:
            _, lines = quick_flow.consequence_preview(self.state, self.session.system)
        except Rejected as exc:
            self.notify(exc.message, markup=False)
            return
        from tracker.screens.apply_result import ApplyResultScreen
        from tracker.terminal.render import styles_of

        self.app.push_screen(
            ApplyResultScreen(lines, styles_of(self.state.system)),
            lambda yes: self.action_apply_result() if yes else None,
        )

    def action_apply_result(self, then: Callable[[], None] | None = None) -> None:
        """Apply the last roll's result (``then`` runs once it is applied); one that needs
        the user's choices opens the system's dialog for it."""
        system = self.session.system
        dialog = system.pending_action(self.state)
        if dialog:
            self.action_system(dialog, then=then)
            return
        try:
            command = system.consequence_command(self.state)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        if self.run(command, "apply result") and then is not None:
            then()
