"""The main screen: header, combatants, consequence thresholds, roll log and footer.

Its keys and what they do are in ``tracker.screens.encounter_keys``, one module an area;
this screen is built from them and draws the session's changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen

from rules import hp_view
from rules.encounter import AnyEncounter
from tracker.screens.encounter_keys.adjust_keys import AdjustKeys
from tracker.screens.encounter_keys.condition_keys import ConditionKeys
from tracker.screens.encounter_keys.file_keys import FileKeys
from tracker.screens.encounter_keys.history_keys import HistoryKeys
from tracker.screens.encounter_keys.initiative_keys import InitiativeKeys
from tracker.screens.encounter_keys.roles import AREAS
from tracker.screens.encounter_keys.roll_keys import RollKeys
from tracker.screens.encounter_keys.roster_keys import RosterKeys
from tracker.screens.encounter_keys.screen_keys import ScreenKeys
from tracker.screens.encounter_keys.tool_keys import ToolKeys
from tracker.screens.encounter_keys.turn_keys import TurnKeys
from tracker.session import Change, EncounterSession
from tracker.terminal import textual_internals
from tracker.widgets.encounter_view import EncounterView
from tracker.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from tracker.screens.form import FormScreen

# The dialogs are imported where they open, not with this screen: the first frame needs
# none of them, and importing them (the command line's above all) delayed the start.

KEEP_IN_FOOTER = ("help",)  # kept in a narrow footer before the others: it lists every key


# Seconds after the first frame the library is read (a thread of its own): the frame's
# writing and the first keys do not share the processor with it.
WARM_AFTER = 0.5
LOG_FRAMES = 5  # frames waited, at most, for the log's lines before what follows the first


class EncounterChanged(Message):
    """The session changed; carried as a message so views update on their own loop."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change


class EncounterScreen(
    RollKeys,
    TurnKeys,
    InitiativeKeys,
    RosterKeys,
    ConditionKeys,
    AdjustKeys,
    HistoryKeys,
    ToolKeys,
    FileKeys,
    ScreenKeys,
    Screen[None],
):
    # Every area's keys, in the areas' order (``roles.AREAS``: the same as the bases above).
    BINDINGS = [binding for area in AREAS for binding in area.KEYS]

    def __init__(
        self, session: EncounterSession, library: Path | None = None, *, builds_ahead: bool = False
    ) -> None:
        """``library``: the user's stat blocks folder; None: no library (``a`` opens the
        blank sheet at once). ``builds_ahead``: the roll dialog is built, unseen, after the
        first frame (``TrackerApp.builds_ahead``)."""
        super().__init__()
        self.session = session
        self.library_folder = library
        self.builds_ahead = builds_ahead
        self._unsubscribe: Callable[[], None] | None = None
        self._forms: dict[str, FormScreen] = {}  # the system actions' dialogs, built once
        self._was_over = False  # the fight was over at the last change seen
        self._log_whole = True  # the log shows every entry, not only the newest (``reload``)
        self._warned_at: AnyEncounter | None = None  # n refused here: n again asks to play on
        self.library_told: set[str] = set()  # the library's problems told already
        self.panes = EncounterView()  # held, not looked up (EncounterView says why)

    # --- layout and updates ---

    def compose(self) -> ComposeResult:
        yield self.panes
        yield KeyBar(first=KEEP_IN_FOOTER)

    def on_mount(self) -> None:
        def changed(change: Change) -> None:
            self.post_message(EncounterChanged(change))

        self._unsubscribe = self.session.subscribe(changed)
        pane = self.panes.combatants
        if self.session.allows("add_combatant"):
            pane.empty_hint = "press a to add a combatant"
        self.reload()
        pane.focus()
        textual_internals.styled_as_mounted(self)  # its first show does not restyle it all
        self.call_after_refresh(self._after_first_frame)

    def _after_first_frame(self, waited: int = 0) -> None:
        log = self.panes.roll_log
        if len(log.entries) and not log.drawn and waited < LOG_FRAMES:
            # Drawn before the log had its width (as a long fight's first frame is): its
            # lines come with the next frame, which nothing here may hold up.
            self.call_after_refresh(self._after_first_frame, waited + 1)
            return
        # What the first frame made (the log's entries, its lines drawn) is there. The
        # app builds the roll dialog ahead once it has read the dialogs' styles.
        self.post_message(self.Shown(self))
        if self.session.check() is not None:
            return  # a save found not to fold: the app ends (TrackerApp.sound)
        if not self._log_whole:
            self.reload()  # the older entries, read now, and the turn clock from them
        if self.library_folder is not None and self.session.allows("add_combatant"):
            # Timed from here, not from the mount: on a busy machine the first frame can
            # take longer than WARM_AFTER, and the library's reading would share its core.
            self.set_timer(WARM_AFTER, self._warm_library)

    def _warm_library(self) -> None:
        from tracker.store import library  # the stat blocks (and TOML): after the first frame

        library.warm(self.library_folder)

    class Shown(Message, namespace="encounter_screen"):
        """The encounter is drawn, its whole log read: what stays for the fight is made."""

        def __init__(self, screen: EncounterScreen) -> None:
            super().__init__()
            self.screen = screen

    def reload(self) -> None:
        """Show the session's whole state and log (a served seat that was not told of
        changes while a shared view drew it catches up here). A save opened to be checked
        after its first frame shows its newest entries until then: its older records are
        read by the check (``storage.open_save``'s check_later)."""
        self._show_state(self.session.state)
        history = self.session.history
        self._log_whole = self.session.checked
        pairs = history.in_effect_sparse() if self._log_whole else history.in_effect_tail()
        self.panes.roll_log.show(pairs, folds=history.in_effect_folds)
        self._was_over = self.session.outcome().over  # an encounter opened over: no summary

    def seat_changed(self) -> None:
        """The seat acts for others now (the GM assigned it combatants): marked anew."""
        self._show_state(self.session.state)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        for action_id in list(self._forms):
            self._forget_form(action_id)

    def _show_state(self, state: AnyEncounter) -> None:
        result = self.session.outcome()
        self.panes.show(state, result, self.session.acts_for() or frozenset())
        # Nobody's turn runs once the fight is over (unless the GM plays on past it).
        running = not self.session.stopped()
        start = self.session.turn_started() if running else None
        who = state.current.name if state.current is not None else ""
        self.panes.clock.follow(start, state.options.turn_limit, self.session.clock, who)

    def on_encounter_changed(self, message: EncounterChanged) -> None:
        change = message.change
        self._show_state(change.state)
        log = self.panes.roll_log
        happened = change.happened()
        # An undone command's entries are the newest in the log; redo appends them again.
        if change.anew:
            self.reload()  # every entry read again (a side's hit points shown otherwise)
        elif change.kind == "undone":
            log.drop(len(happened))
        else:
            log.append(happened)
        if change.kind != "undone":
            system = self.session.system
            # Each event's state after: the next one's before, the change's state for the last.
            afters = [before for _, before in happened[1:]] + [change.state]
            for (event, before), after in zip(happened, afters, strict=False):
                for alert in [*system.notices(before, event), *hp_view.fallen(before, after)]:
                    self.notify(alert, severity="warning", timeout=12, markup=False)
        if change.save_error:
            self.notify(change.save_error, title="Not saved", severity="error", markup=False)
        over = self.session.outcome().over
        if over and not self._was_over and change.kind == "applied":
            self.action_fight_summary()  # once, as the fight ends (f shows it again)
        self._was_over = over

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """An action the seat's role does not have is neither shown nor run."""
        return self.session.allows(action, str(parameters[0]) if parameters else "")
