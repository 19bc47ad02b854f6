"""The main screen: header, combatants, consequence thresholds, roll log and footer."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from rules import solo
from rules.commands import (
    AddCombatant,
    AddCombatants,
    AddCondition,
    AddNote,
    DiscardConsequence,
    EditCombatant,
    MoveCombatant,
    NextTurn,
    RemoveCombatant,
    RemoveCondition,
)
from rules.conditions import Duration, DurationKind
from rules.encounter import Combatant, Encounter
from rules.errors import Rejected
from rules.forms import Field, choice_value, int_value
from rules.history import History
from rules.odds import Odds
from rules.outcome import Summary, summary
from tracker import quick_flow
from tracker.screens.help import HelpScreen, key_label
from tracker.session import Change, EncounterSession
from tracker.widgets.combatants import CombatantsPane
from tracker.widgets.encounter_view import EncounterView
from tracker.widgets.key_bar import KeyBar
from tracker.widgets.roll_log import RollLog
from tracker.widgets.thresholds import ThresholdsPane

if TYPE_CHECKING:
    from tracker.library import Library
    from tracker.screens.form import FormScreen, FormSettings
    from tracker.screens.library import Pick
    from tracker.screens.solo import SoloChoices

# The dialogs are imported where they open, not with this screen: the first frame needs
# none of them, and importing them (the command line's above all) delayed the start.

SHEET = "sheet:"
ROLL_AGAIN = "roll again"  # what a new roll would do, as the question about a waiting result says
KEEP_IN_FOOTER = ("help",)  # kept in a narrow footer before the others: it lists every key
YES_NO = (("no", "No"), ("yes", "Yes"))
DURATIONS: tuple[tuple[DurationKind, str], ...] = (
    ("until-removed", "Until removed"),
    ("end-of-next-turn", "End of its next turn"),
    ("end-of-round", "End of this round"),
    ("rounds", "A number of rounds"),
)


class CombatantDetails(TypedDict):
    """A filled combatant dialog: the keywords of ``AddCombatant`` and ``EditCombatant``."""

    name: str
    side: str
    gm_only: bool
    notes: str
    sheet: object  # the system's sheet


class EncounterChanged(Message):
    """The session changed; carried as a message so views update on their own loop."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change


class EncounterScreen(Screen[None]):
    class OpenRequested(Message):
        """The user asked for another encounter: the app that can open one shows its saves."""

    class BranchRequested(Message):
        """The user branched the replay: the app that can save it plays the branch."""

        def __init__(self, branch: History) -> None:
            super().__init__()
            self.branch = branch

    class NewEncounterRequested(Message):
        """A new encounter was prepared (the party carried over): the app saves and plays it."""

        def __init__(self, history: History) -> None:
            super().__init__()
            self.history = history

    BINDINGS = [
        Binding("r", "roll", "Roll"),
        Binding("t", "quick_turn", "Quick turn"),
        Binding("s", "system_menu", "System actions", show=False),
        Binding("d", "apply_result", "Apply result"),
        Binding("n", "next_turn", "Next turn/round"),
        Binding("a", "add_combatant", "Add"),
        Binding("e", "edit_combatant", "Edit", show=False),
        Binding("k", "keep_combatant", "Keep in library", show=False),
        Binding("x,delete", "remove_combatant", "Remove", show=False),
        Binding("c", "add_condition", "Condition"),
        Binding("C", "remove_condition", "Drop condition", show=False),
        Binding("o", "note", "Note", show=False),
        Binding("plus", "nudge(1)", "Main track +1", show=False),
        Binding("minus", "nudge(-1)", "Main track -1", show=False),
        Binding("K,shift+up", "move(-1)", "Move up in order", show=False),
        Binding("J,shift+down", "move(1)", "Move down in order", show=False),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+r", "redo", "Redo", show=False),
        Binding("ctrl+s", "save", "Save now", show=False),
        Binding("R", "replay", "Replay", show=False),
        Binding("S", "solo", "Solo play", show=False),
        Binding("f", "fight_summary", "Fight summary", show=False),
        Binding("F", "forecast", "Forecast", show=False),
        Binding("z", "zoom", "Zoom the pane (the whole screen, and back)", show=False),
        Binding("ctrl+o", "open_save", "Open encounter", show=False),
        Binding("N", "new_party", "New encounter with this party", show=False),
        Binding("colon", "command_line", "Command line"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: EncounterSession, library: Path | None = None) -> None:
        """``library``: the user's stat blocks folder; None: no library (``a`` opens the
        blank sheet at once)."""
        super().__init__()
        self.session = session
        self.library_folder = library
        self._unsubscribe: Callable[[], None] | None = None
        self._forms: dict[str, FormScreen] = {}  # the system actions' dialogs, built once
        self._was_over = False  # the fight was over at the last change seen
        self._warned_at: Encounter | None = None  # n refused here: n again asks to play on
        self._playing_on: str | None = None  # the headline of the end the GM plays on past
        self._told: set[str] = set()  # the library's problems told already

    # --- layout and updates ---

    def compose(self) -> ComposeResult:
        yield EncounterView()
        yield KeyBar(first=KEEP_IN_FOOTER)

    def on_mount(self) -> None:
        def changed(change: Change) -> None:
            self.post_message(EncounterChanged(change))

        self._unsubscribe = self.session.subscribe(changed)
        pane = self.query_one(CombatantsPane)
        if self.session.allows("add_combatant"):
            pane.empty_hint = "press a to add a combatant"
        self.reload()
        pane.focus()

    def reload(self) -> None:
        """Show the session's whole state and log (a served seat that was not told of
        changes while a shared view drew it catches up here)."""
        self._show_state(self.session.state)
        self.query_one(RollLog).show(self.session.history.in_effect())
        self._was_over = self.session.outcome().over  # an encounter opened over: no summary

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for action_id in list(self._forms):
            self._forget_form(action_id)

    def _show_state(self, state: Encounter) -> None:
        self.query_one(EncounterView).show(state, self.session.outcome())

    def on_encounter_changed(self, message: EncounterChanged) -> None:
        change = message.change
        self._show_state(change.state)
        log = self.query_one(RollLog)
        happened = change.happened()
        # An undone command's entries are the newest in the log; redo appends them again.
        if change.kind == "undone":
            log.drop(len(happened))
        else:
            log.append(happened)
        if change.kind != "undone":
            system = self.session.system
            for event, before in happened:
                for alert in system.alerts(before, event):
                    self.notify(alert, severity="warning", timeout=12, markup=False)
        if change.save_error:
            self.notify(change.save_error, title="Not saved", severity="error", markup=False)
        over = self.session.outcome().over
        if over and not self._was_over and change.kind == "applied":
            self.action_fight_summary()  # once, as the fight ends (f shows it again)
        self._was_over = over

    # --- helpers ---

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An action the seat's role does not have is neither shown nor run."""
        return self.session.allows(action, str(parameters[0]) if parameters else "")

    @property
    def state(self) -> Encounter:
        return self.session.state

    def run(self, command: object, label: str) -> bool:
        """Execute from a key: a refusal becomes a notification (and False)."""
        try:
            self.session.execute(command, label)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return False
        return True

    def selected(self) -> Combatant | None:
        found = self.state.find(self.query_one(CombatantsPane).selected_id)
        if found is None:
            self.notify("Select a combatant first (add one with a)", severity="warning")
        return found

    def people(self) -> tuple[tuple[str, str], ...]:
        return tuple((c.id, c.name) for c in self.state.combatants)

    def ask(
        self,
        title: str,
        fields: list[Field],
        submit: Callable[[Mapping[str, str]], None],
        **kw: Unpack[FormSettings],
    ) -> None:
        from tracker.screens.form import FormScreen

        self.app.push_screen(FormScreen(title, fields, submit, **kw))

    # --- combatants ---

    def combatant_fields(self, combatant: Combatant | None) -> list[Field]:
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
        self, values: Mapping[str, str], combatant: Combatant | None
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
        from tracker.screens.library import LibraryScreen

        system = self.session.system
        present = [(c.name, c.side) for c in self.state.combatants]
        screen = LibraryScreen(found.of(system.name), system.title, present)
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
        command = members[0] if len(members) == 1 else AddCombatants(members)
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

    def library(self) -> Library | None:
        """The stat blocks (read anew: the files may have changed), or None without a library;
        a file that cannot be read is skipped, with a notice."""
        if self.library_folder is None:
            return None
        from tracker import library

        found = library.load(self.library_folder)
        # Each broken file is told once, not on every read (after every :attack, a, N).
        for problem in [p for p in found.problems if p not in self._told][:3]:
            self._told.add(problem)
            self.notify(problem, severity="warning", markup=False)
        return found

    def action_keep_combatant(self, combatant_id: str = "") -> None:
        """Keep a combatant (the selected one) in the library, as it starts a fight."""
        combatant = self.state.find(combatant_id) if combatant_id else self.selected()
        if combatant is None:
            return
        if self.library_folder is None:
            self.notify("No library here", severity="warning")
            return
        from tracker import library

        entry = library.from_combatant(self.state.system, combatant, fresh=True)
        replaced = library.path_for(self.library_folder, entry).exists()
        try:
            path = library.write(self.library_folder, entry)
        except library.LibraryError as exc:
            self.notify(str(exc), title="Not kept", severity="error", markup=False)
            return
        done = "Replaced" if replaced else "Kept"
        self.notify(f"{done} {entry.name} in the library: {path}", markup=False)

    def action_new_party(self) -> None:
        """A new encounter with this one's party, and foes from the library."""
        from tracker import prepare

        try:
            side = prepare.party_side(self.state)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
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
                help="goblin x3, goblin-boss",
            ),
        ]

        def submit(values: Mapping[str, str]) -> None:
            from tracker.library import Library, LibraryError

            found = self.library() or Library()
            foes = [part for part in values["foes"].split(",") if part.strip()]
            try:
                history = prepare.new_history(
                    values["name"],
                    self.state.system,
                    self.session.dice,
                    library=found,
                    party_from=self.state,
                    fresh=values["fresh"] == "fresh",
                    foes=foes,
                )
            except LibraryError as exc:
                raise Rejected(str(exc)) from None
            self.post_message(self.NewEncounterRequested(history))

        self.ask("New encounter with this party", fields, submit, ok_label="Start")

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

    def action_nudge(self, delta: int) -> None:
        """The selected combatant's main track one up (``+``) or down (``-``), as shown."""
        combatant = self.selected()
        if combatant is None:
            return
        system = self.session.system
        track = system.main_track(combatant)
        if track is None:
            self.notify(f"{combatant.name} has no track to change: e edits the sheet", markup=False)
            return
        steps = delta if track.rising else -delta  # steps count toward worse
        self.run(system.track_command(self.state, combatant, steps), f"{track.name} {delta:+d}")

    def action_export(self, fmt: str, name: str = "") -> None:
        """Write a fight report (Markdown or JSON) beside the save, and say where."""
        from tracker import export, storage

        try:
            path = export.write_report(self.session.history, fmt, self.session.path, name)
        except Rejected as exc:
            self.notify(exc.message, title="Not exported", severity="error", markup=False)
            return
        except storage.SaveError as exc:
            self.notify(str(exc), title="Not exported", severity="error", markup=False)
            return
        self.notify(f"Report written: {path.name} (in {path.parent})", markup=False)

    def action_move(self, delta: int) -> None:
        combatant = self.selected()
        if combatant is None:
            return
        index = self.state.index_of(combatant.id) + delta
        if 0 <= index < len(self.state.combatants):
            # The table keeps the selection on the moved combatant when it redraws.
            self.run(MoveCombatant(combatant.id, index), f"move {combatant.name}")

    # --- turns, rolls and results ---

    def action_next_turn(self) -> None:
        """The next turn (asked first over a result not yet applied); once the fight is over, n
        says so, and n again asks to play on."""
        result = self.session.outcome()
        if not result.over or result.headline == self._playing_on:
            self._end_turn()
            return
        state = self.state
        if self._warned_at is None or not (self._warned_at is state or self._warned_at == state):
            self._warned_at = state
            self.notify(
                f"{result.headline}: n no longer ends the turn. Press n again to play on "
                "anyway, u to undo, f for the summary",
                severity="warning",
                markup=False,
            )
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._playing_on = result.headline
                self._end_turn()

        from tracker.screens.confirm import ConfirmScreen

        self.app.push_screen(
            ConfirmScreen(f"{result.headline}. Play on with the next turn anyway?"), answered
        )

    def _end_turn(self) -> None:
        def end() -> None:
            self.run(NextTurn(), "next turn")

        doing = "end the turn" if self.session.system.uses_turn_order else "end the round"
        self.settle_first(doing, end)

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
        self.app.push_screen(WaitingScreen(waiting, doing, can_discard=can_discard), answered)

    def action_fight_summary(self) -> None:
        """Who won, the rounds, each combatant's part and end state, each side's luck."""
        from tracker.screens.summary import SummaryScreen

        # The events in effect and the states are taken now (the first step of in_effect);
        # counting them up, a long fight's second or two, is the screen's worker's.
        pairs = iter(self.session.history.in_effect())  # a seat's is a list already
        first = next(pairs)
        state, result = self.state, self.session.outcome()

        def count() -> Summary:
            return summary(chain([first], pairs), state, result)

        self.app.push_screen(SummaryScreen(result, count))

    def action_roll(self) -> None:
        self.action_system("roll")

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
        system = self.session.system
        action = next((a for a in system.actions(self.state) if a.id == action_id), None)
        if action is None:
            self.notify(f"{system.title} has no action {action_id!r}", severity="warning")
            return
        rolls = action_id in system.roll_actions
        if rolls and system.pending(self.state) and not system.follow_up(self.state, action_id):
            self.settle_first(ROLL_AGAIN, lambda: self.action_system(action_id, preset, then))
            return
        selected = self.query_one(CombatantsPane).selected_id
        try:
            fields = system.action_form(self.state, action_id, selected)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        fields = quick_flow.with_defaults(fields, preset or {})

        # Solo play: the fields a solo combatant chooses (a defence...) by its policy.
        def filled(values: Mapping[str, str]) -> tuple[dict[str, str], list[solo.Move]]:
            return solo.fill(self.state, action_id, dict(values))

        def submit(values: Mapping[str, str]) -> None:
            chosen, moves = filled(values)
            command = system.action_command(self.state, action_id, chosen)
            waiting = system.pending(self.state)
            if rolls and waiting and not system.follow_up(self.state, action_id, command):
                # Not the roll that carries what waits on: ask over the dialog, then roll.
                self.settle_first(ROLL_AGAIN, self._forms[action_id].action_submit)
                raise Rejected(f"Not applied yet: {waiting} (d applies it, x discards it)")
            self.session.execute(command, action.title, choices=moves)

        def preview(values: Mapping[str, str]) -> str:
            chosen, moves = filled(values)
            line = solo.preview_line(
                self.state, moves, system.preview(self.state, action_id, chosen)
            )
            waiting = system.pending(self.state) if rolls else ""
            if waiting:
                try:
                    command = system.action_command(self.state, action_id, chosen)
                except Rejected:
                    command = None  # a half-typed value: the roll is not known yet
                if command is None or not system.follow_up(self.state, action_id, command):
                    line += f"\nNot applied yet: {waiting} (Enter asks first)"
            return line

        def odds(values: Mapping[str, str]) -> Odds | None:
            return system.odds(self.state, action_id, filled(values)[0])

        def show_odds(found: Odds | None) -> None:
            if found is not None:
                self.query_one(ThresholdsPane).show_preview(found)

        def closed(done: bool | None) -> None:
            self.query_one(ThresholdsPane).show(self.state)  # back from the preview
            if done and then is not None:
                then()

        settings: FormSettings = {
            "ok_label": "Roll" if action_id == "roll" else "OK",
            "preview": preview,
            "odds": odds if system.has_odds else None,
            "on_odds": show_odds,
        }
        form = self._forms.get(action_id)
        if form is not None and form.shape(form.fields) == form.shape(fields):
            form.reopen(action.title, fields, submit, **settings)
        else:
            if form is not None:
                self._forget_form(action_id)
            from tracker.screens.form import FormScreen

            form = FormScreen(action.title, fields, submit, **settings)
            # Kept installed, so the next time (the next roll) it opens without being built.
            self.app.install_screen(form, self._form_name(action_id))
            self._forms[action_id] = form
        self.app.push_screen(form, closed)

    def _form_name(self, action_id: str) -> str:
        return f"encounter-{id(self)}-{action_id}"

    def _forget_form(self, action_id: str) -> None:
        form = self._forms.pop(action_id)
        if form in self.app.screen_stack:
            return  # still open as the app closes: Textual removes it with the app
        self.app.uninstall_screen(self._form_name(action_id))
        form.remove()

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(title, action, help) for the command palette: every key, and the system's actions."""
        seen: set[str] = set()
        out = []
        for binding in self.BINDINGS:
            if not isinstance(binding, Binding) or binding.action in seen:
                continue
            name, _, argument = binding.action.partition("(")
            if self.session.allows(name, argument.strip("()'\"")):
                seen.add(binding.action)
                out.append((binding.description, binding.action, f"key: {key_label(binding.key)}"))
        if self.session.allows("export"):
            for title, fmt in (("Markdown", "markdown"), ("JSON", "json")):
                where = "a file in the saves folder"
                out.append((f"Export report ({title})", f"export({fmt!r})", where))
        system = self.session.system
        for action in system.actions(self.state):
            if not self.session.allows("system", action.id):
                continue
            out.append(
                (f"{system.title}: {action.title}", f"system({action.id!r})", action.description)
            )
        return out

    def action_quick_turn(self) -> None:
        """The roll dialog set for the actor and its last target; after it, apply the result."""
        if self.session.system.follow_up(self.state, "roll"):
            self._quick_turn()  # the roll itself is asked about, unless it follows up
        else:
            self.settle_first(ROLL_AGAIN, self._quick_turn)

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

        self.app.push_screen(
            ApplyResultScreen(lines), lambda yes: self.action_apply_result() if yes else None
        )

    def action_command_line(self) -> None:
        from tracker.screens.command_line import prompt_for

        selected = self.query_one(CombatantsPane).selected_id
        self.app.push_screen(
            prompt_for(
                self,
                self.session,
                self.palette_commands,
                selected,
                self.settle_first,
                library=self.library(),
            )
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

    # --- conditions and notes ---

    def action_add_condition(self) -> None:
        combatant = self.selected()
        if combatant is None:
            return
        who = Field(
            key="who", label="Combatant", kind="choice", default=combatant.id, choices=self.people()
        )
        duration = Field(
            key="duration", label="Lasts", kind="choice", default="until-removed", choices=DURATIONS
        )
        fields = [
            who,
            Field(key="name", label="Condition", kind="text", help="e.g. Prone"),
            duration,
            Field(key="rounds", label="Rounds (if counted)", default="1"),
        ]

        def submit(values: Mapping[str, str]) -> None:
            chosen = Duration(
                choice_value(values, duration, DURATIONS),
                int_value(values, "rounds", "Rounds", 1),
            )
            target = choice_value(values, who)
            self.session.execute(AddCondition(target, values["name"], chosen), "add condition")

        self.ask("Add condition", fields, submit, ok_label="Add")

    def action_remove_condition(self) -> None:
        combatant = self.selected()
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
        about = Field(
            key="about",
            label="About",
            kind="choice",
            default="",
            choices=(("", "the encounter"), *self.people()),
        )
        fields = [Field(key="text", label="Note", kind="text"), about]

        def submit(values: Mapping[str, str]) -> None:
            self.session.execute(
                AddNote(values["text"], choice_value(values, about) or None), "note"
            )

        self.ask("Add a note to the log", fields, submit, ok_label="Add")

    # --- history, saving, help ---

    def action_undo(self) -> None:
        try:
            record = self.session.undo()
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        self.notify(f"Undid: {record.label}", markup=False)

    def action_redo(self) -> None:
        try:
            record = self.session.redo()
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        self.notify(f"Redid: {record.label}", markup=False)

    def action_save(self) -> None:
        error = self.session.save()
        if error:
            self.notify(error, title="Not saved", severity="error", markup=False)
        else:
            self.notify(f"Saved to {self.session.path}", markup=False)

    def action_open_save(self) -> None:
        self.post_message(self.OpenRequested())

    def action_replay(self) -> None:
        from tracker.screens.replay import ReplayScreen

        def closed(branch: History | None) -> None:
            if branch is not None:
                self.post_message(self.BranchRequested(branch))

        self.app.push_screen(ReplayScreen(self.session.history), closed)

    def action_solo(self) -> None:
        from tracker.screens.solo import SoloScreen, apply_choices

        def warn(message: str) -> None:
            self.notify(message, severity="warning", markup=False)

        def chosen(result: SoloChoices | None) -> None:
            apply_choices(self.session, result, warn)

        self.app.push_screen(SoloScreen(self.state), chosen)

    def action_forecast(self) -> None:
        from tracker.screens.forecast import ForecastScreen

        self.app.push_screen(ForecastScreen(self.state))

    def action_zoom(self) -> None:
        if self.maximized is not None:
            self.minimize()
        elif self.focused is not None:
            self.maximize(self.focused, container=False)

    def action_help(self) -> None:
        intro = "The encounter is saved after every change. Tab moves between panes."
        self.app.push_screen(HelpScreen(self.BINDINGS, intro))

    async def action_quit(self) -> None:
        await self.app.action_quit()  # the app's: it saves first
