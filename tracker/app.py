"""The Textual application: an encounter to play, or a saved fight to replay."""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.filter import LineFilter
from textual.markup import escape
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from rules.dice import DiceSource, SeededDice
from rules.history import History
from rules.text import inert_document
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.palette import ScreenActions
from tracker.session import EncounterSession
from tracker.store import keymap, settings, storage
from tracker.store.defaults import saves_folder
from tracker.terminal import hangup, partial_renders, shared_lines, textual_internals
from tracker.terminal.safe_text import NO_CONTROL_CODES
from tracker.terminal.typed_keys import TypedKeys, typed
from tracker.widgets import scrolled_lines

if TYPE_CHECKING:
    from rules.replay import Timeline

# The speed patches on Textual's private code, checked now: if Textual is not the one they
# were written for, stderr says so while it is still the terminal's (a running app takes it).
partial_renders.install()  # a partial update renders only what it updates
shared_lines.install()  # a scrollbar is drawn once for every seat that shows it the same
scrolled_lines.check()  # a scrolled log frames only its new lines
textual_internals.install_settled_footer_keys()  # a footer's key is styled once, not thrice
textual_internals.install_kept_styles()  # a kept dialog shown again is not restyled whole
textual_internals.install_dimmed_styles()  # the screen behind a dialog dimmed style by style
textual_internals.install_kept_rows()  # a table's changed rows drawn again, not all
textual_internals.install_text_measure()  # a table's text cells measured by their lines
textual_internals.install_kept_focus_renders()  # a table's drawn cells kept across focus
textual_internals.install_lean_strips()  # a strip's caches made as first used
textual_internals.install_shared_css()  # every app in the process shares its parsed CSS


# How long a notification stays unless told: long enough to read it at an unhurried pace,
# so a short one is out of the way sooner than Textual's five seconds.
SECONDS_TO_READ = (3.0, 10.0)  # at the least, at the most
CHARACTERS_A_SECOND = 15
TOASTS = "#textual-toastrack"  # a screen's notifications (Textual's own widget, by its id)


def reading_time(message: str, title: str = "") -> float:
    """Seconds a notification of this text stays on screen."""
    shortest, longest = SECONDS_TO_READ
    return min(longest, max(shortest, 1.5 + len(title + message) / CHARACTERS_A_SECOND))


def settle_memory() -> None:
    """Exempt what is loaded now (a long fight's many immutable states) from the collector.

    Otherwise every full collection rescans them all, which made a roll in a 20,000-entry
    fight stall for tens of milliseconds at random. The app lets go of them on exit.
    """
    gc.freeze()


QUITTING = "Quitting"
# The dialogs', the command line's and the replay's styles: read after the encounter's first
# frame (see ``TrackerApp.style_dialogs``), tracker.tcss (CSS_PATH) having what that shows.
DIALOGS_CSS = Path(__file__).with_name("dialogs.tcss")


class TrackerApp(App[None]):
    CSS_PATH: ClassVar[str | Path | None] = "tracker.tcss"  # a subclass names it by its path
    TITLE = "Combat Tracker"
    COMMANDS = App.COMMANDS | {ScreenActions}
    # A screen under a dialog or the prompt: its own notifications hide there (tracker.tcss).
    # Not Textual's SUSPENDED_SCREEN_CLASS: a class on the whole screen restyles every
    # widget on it each time a dialog opens or closes (``_mark_covered``).
    COVERED = "-covered"
    # Whether this app freezes the process's collector (see settle_memory); False where
    # several apps share a process and something else owns that (a served table's Heap).
    OWNS_MEMORY = True

    def __init__(
        self,
        session: EncounterSession | None,
        *,
        saves: Path | None = None,
        notes: Sequence[str] = (),
        warnings: Sequence[str] = (),
        replay: History | Timeline | None = None,
        dice: DiceSource | None = None,
        settings_file: Path | None = None,
        library: Path | None = None,
        difficulty: bool = False,
        keymap_file: Path | None = None,
    ) -> None:
        """``warnings``: shown in a dialog, to be read (``notes``: notifications).
        ``settings_file``: where the theme is remembered; None (tests) remembers nothing.
        ``library``: the folder of the user's stat blocks; None: no library. ``difficulty``:
        the encounter's difficulty is worked out as it opens and notified (a new one).
        ``keymap_file``: the user's own keys (``tracker.store.keymap``); None (tests) has none."""
        super().__init__()
        self.difficulty_at_start = difficulty
        self.library = library
        self.session = session
        self.saves = saves if saves is not None else saves_folder()
        self.notes = list(notes)
        self.warnings = list(warnings)
        # Why the encounter's last changes are not in its file, when the user quit past a
        # failed save (and where they went instead, if anywhere); launch says it on exit.
        self.left_unsaved: str | None = None
        self.settings_file = settings_file
        self.settings = settings.Settings()
        if settings_file is not None:
            self.settings, problem = settings.load(settings_file)
            if problem:
                self.notes.append(problem)
        # The user's keys, as Textual rebinds them and as ? and the palette show them.
        self.user_keys: dict[str, str] = {}
        if keymap_file is not None:
            self.user_keys, problem = keymap.load(keymap_file)
            if problem:
                self.notes.append(problem)
            self.set_keymap(self.user_keys)
        self.replay = replay
        self.dice = dice or (session.dice if session else SeededDice(0))
        self.typed_keys = TypedKeys(self, super().on_event)
        # Whether the app ends (saving) once its terminal goes away: set by the command that
        # runs it in a terminal (tracker.launch), never in tests or on a served table.
        self.watch_terminal = False
        # Whether the roll dialog is built while the user reads the first frame, for the
        # first `r` to show at once (``EncounterScreen``): set with ``watch_terminal``, and
        # for a served table's GM. Not in tests (their speed would pick the path a test
        # takes) nor for a seat (30 seats joining would each build one on the one loop).
        self.builds_ahead = False
        self._terminal_gone = False
        self.without_terminal = False  # to run in a terminal, it had none: it never ran

    async def run_async(self, *args: Any, **kwargs: Any) -> None:
        """Textual's, unless the app is to run in a terminal (``watch_terminal``, not
        headless) and stdin is none: then it does not start, and ``without_terminal`` says
        so (before Textual's driver takes a terminal that is not there). A headless run, or
        a Pilot in its place (the smoke test), needs none."""
        headless = bool(kwargs.get("headless", False))
        if self.watch_terminal and not headless and not hangup.has_terminal():
            self.without_terminal = True
            return None
        return await super().run_async(*args, **kwargs)

    def on_mount(self) -> None:
        if self.OWNS_MEMORY:
            settle_memory()
        if self.watch_terminal:
            hangup.watch(self, self.terminal_gone)
        chosen = self.settings.theme
        if chosen is not None and chosen in self.available_themes:
            self.theme = chosen
        elif chosen is not None:
            self.notes.append(f"Theme {chosen!r} is not known here; using the default")
        # Only a theme the user picks is written down, never the default at a first start.
        self.settings = settings.Settings(theme=self.theme)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.screen_change_signal.subscribe(self, self._mark_covered)
        # At once, as the screen is pushed: posted, it would come after the screen is styled.
        self.screen_change_signal.subscribe(self, self._style_screen, immediate=True)
        if self.replay is not None:
            from tracker.screens.replay_screen import ReplayScreen  # only replays need it

            self.push_screen(ReplayScreen(self.replay), self._after_standalone_replay)
        elif self.session is not None:
            screen = EncounterScreen(self.session, self.library, builds_ahead=self.builds_ahead)
            self.push_screen(screen)
            if self.difficulty_at_start:
                from tracker.widgets.difficulty_line import notify_difficulty

                self.call_after_refresh(notify_difficulty, screen, self.session.state)
        for note in self.notes:
            self.notify(note, markup=False, timeout=8)
        for warning in self.warnings:
            self.warn(warning)

    def _mark_covered(self, top: Screen[object]) -> None:
        """Each screen's toasts are hidden while another screen is over it."""
        for screen in self.screen_stack:
            for rack in screen.query_children(TOASTS):
                rack.set_class(screen is not top, self.COVERED)

    def style_dialogs(self) -> None:
        """Add dialogs.tcss to the stylesheet, once. A start parses tracker.tcss alone: the
        dialogs' rules cost it some 5 ms to parse, and every widget styled checks them. No
        widget on the encounter screen matches them, so nothing shown is restyled."""
        if not self.stylesheet.has_source(str(DIALOGS_CSS)):
            self.stylesheet.read(DIALOGS_CSS)
            self.stylesheet.parse()  # now, not as the first dialog is styled

    def _style_screen(self, top: Screen[object]) -> None:
        """Any other screen (a dialog, the replay) comes with the dialogs' styles: this runs
        as it is pushed, before its widgets are made and it is restyled as it shows."""
        if not isinstance(top, EncounterScreen) and type(top) is not Screen:  # Textual's own
            self.style_dialogs()

    def warn(self, text: str) -> None:
        """A damaged save: a dialog that stays until read, not a notification that goes."""
        from tracker.screens.notice import NoticeScreen

        self.push_screen(NoticeScreen("The save was damaged", text))

    def get_line_filters(self) -> Sequence[LineFilter]:
        return [*super().get_line_filters(), NO_CONTROL_CODES]

    async def on_event(self, event: events.Event) -> None:
        # A bracketed paste can carry any bytes (ESC among them) into whichever input has
        # focus: its text is made inert before any widget sees it. Lines stay: an input
        # takes the first.
        if isinstance(event, events.Paste):
            event.text = inert_document(event.text)
        if isinstance(event, events.InputEvent) and not event.is_forwarded and not self.sound():
            return  # a save refused: the app ends, and no key or click acts on it
        if typed(event):  # in the order typed, once the screen it was typed for is up
            await self.typed_keys.take(event)
        else:
            await super().on_event(event)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's notification, shown for as long as it takes to read unless told. A title
        leads the message's line (under a dialog, a notification has one line)."""
        if timeout is None:
            timeout = reading_time(message, title)
        if title:
            message = f"{escape(title) if markup else title}: {message}"
        super().notify(message, severity=severity, timeout=timeout, markup=markup)

    def _remember_theme(self, theme: Theme) -> None:
        """Keep the theme chosen (in the palette: "Change theme") for the next start."""
        if self.settings_file is None or theme.name == self.settings.theme:
            return
        self.settings = settings.Settings(theme=theme.name)
        error = settings.save(self.settings_file, self.settings)
        if error:
            self.notify(error, severity="warning", markup=False)

    def sound(self) -> bool:
        """Whether the fight may be played on: a save opened before its whole log was
        folded (``tracker.launch``: a long fight's first frame does not wait for it) is
        folded after its first frame, or at the first input if that comes sooner. One that
        does not fold ends the app at once, launch saying why (``EncounterSession.check``)."""
        if self.session is None or self.session.check() is None:
            return True
        self.exit(return_code=2)
        return False

    def on_encounter_screen_shown(self, shown: EncounterScreen.Shown) -> None:
        if not self.sound():
            return
        self.style_dialogs()  # after the first frame, before the first key opens one
        if shown.screen.builds_ahead:
            shown.screen.build_ahead("roll")  # styled as dialogs: the first `r` only shows it
        # Frozen again: the encounter's log (a long fight's tens of thousands of entries)
        # is made after the app mounted, and a full collection would rescan it all, a stall
        # of tens of milliseconds after a key, at random.
        if self.OWNS_MEMORY:
            settle_memory()
            gc.enable()  # off while the app started (tracker.cli.with_saves.play)

    def on_unmount(self) -> None:
        if self.OWNS_MEMORY:
            gc.unfreeze()

    def _after_standalone_replay(self, branch: History | None) -> None:
        if branch is None:
            self.exit()
        else:
            self.play_branch(branch)

    def on_encounter_screen_open_requested(self) -> None:
        from tracker.screens.open_save import OpenSaveScreen  # only when asked for

        self.push_screen(OpenSaveScreen(self.saves), self.open_path)

    def on_encounter_screen_branch_requested(
        self, message: EncounterScreen.BranchRequested
    ) -> None:
        self.play_branch(message.branch)

    def on_encounter_screen_new_encounter_requested(
        self, message: EncounterScreen.NewEncounterRequested
    ) -> None:
        self.play_new(message.history, "New encounter", "Not saved")

    def play_branch(self, branch: History) -> None:
        """Save a branch as a new encounter and play it in place of the current one."""
        self.play_new(branch, "Branched into", "Branch not saved")

    def play_new(self, history: History, saying: str, failed: str) -> None:
        """Save ``history`` as a new encounter and play it in place of the current one."""
        try:
            opened = storage.create(self.saves, history, f"{saying} {{path}}")
        except storage.SaveError as exc:
            self.notify(str(exc), title=failed, severity="error", markup=False)
            return
        self.open_encounter(opened)

    def open_path(self, path: Path | None) -> None:
        """Open a save chosen in the browser; a demo opens as a copy, a bad file is reported."""
        if path is None:
            return
        if self.session is not None and path == self.session.path:
            self.notify("That encounter is already open", markup=False)
            return
        try:
            if storage.is_demo(path):
                opened = storage.play_copy_of_demo(path, self.saves)
            else:
                opened = storage.open_save(path)
        except storage.SaveLocked as exc:
            self.offer_replay(exc)
            return
        except storage.SaveError as exc:
            self.notify(str(exc), title="Cannot open", severity="error", markup=False)
            return
        self.open_encounter(opened)

    def offer_replay(self, locked: storage.SaveLocked) -> None:
        """Another process writes that save: it can still be stepped through, read-only."""
        from tracker.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                loaded = storage.load(locked.path)
                timeline = storage.replayable(locked.path, loaded.history)
            except storage.SaveError as exc:
                self.notify(str(exc), title="Cannot open", severity="error", markup=False)
                return
            from tracker.screens.replay_screen import ReplayScreen

            self.push_screen(ReplayScreen(timeline), self._after_replay)
            if loaded.notice:
                self.warn(loaded.notice)

        question = f"{locked.path.name} {locked.problem}. Replay it read-only?"
        self.push_screen(ConfirmScreen(question), answered)

    def _after_replay(self, branch: History | None) -> None:
        if branch is not None:
            self.play_branch(branch)

    def open_encounter(self, opened: storage.Opened, note: str = "") -> None:
        """Close the current session (saving it) and play another encounter; if the current
        one cannot be saved, the user chooses first, as when quitting."""

        def stay() -> None:  # the other encounter is not opened after all
            if opened.lock is not None:
                opened.lock.release()

        self.leave_saving(
            lambda: self._play(opened, note), "Opening another encounter", on_back=stay
        )

    def _play(self, opened: storage.Opened, note: str) -> None:
        if self.session is not None:
            self.session.let_go()  # saved, or left unsaved by the user's choice
        self.clear_notifications()  # the last encounter's: they do not belong over this one
        self.session, error = EncounterSession.resume(opened, self.dice)
        if self.OWNS_MEMORY:
            settle_memory()
        screen = EncounterScreen(self.session, self.library, builds_ahead=self.builds_ahead)
        if isinstance(self.screen, EncounterScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        for line in (note, "" if opened.repaired else opened.note, error):
            if line:
                self.notify(line, markup=False, timeout=8)
        if opened.repaired:
            self.warn(opened.note)

    # --- quitting ---

    def terminal_gone(self) -> None:
        """No terminal left and nobody to ask: the encounter is saved and the app ends (the
        journal already holds every change, so a failed save loses nothing)."""
        if self._terminal_gone:
            return
        self._terminal_gone = True
        if self.session is not None:
            self.session.save()
        self.exit()

    async def action_quit(self) -> None:
        self.quit_saving()

    def quit_saving(self) -> None:
        """Quit once the encounter is saved (see ``leave_saving``)."""
        self.leave_saving(self.exit, QUITTING)

    def leave_saving(
        self,
        then: Callable[[], None],
        leaving: str,
        on_back: Callable[[], None] | None = None,
    ) -> None:
        """``then`` once the encounter is saved; if it cannot be, the user chooses what to
        do (``leaving`` says what would lose the changes): changes are never dropped
        without a word. Esc calls ``on_back``."""
        error = self.session.save() if self.session is not None else None
        if error is None:
            then()
            return
        from tracker.screens.unsaved import Answer, UnsavedScreen

        def answered(answer: Answer | None) -> None:
            if answer == "retry":
                self.leave_saving(then, leaving, on_back)
            elif answer == "quit":
                what = "quit" if leaving == QUITTING else "opened another encounter"
                then()
                self.left_unsaved_because(f"{what} without saving: {error}", leaving)
            elif answer == "elsewhere":
                self.ask_where_to_save(error, then=then, leaving=leaving, on_back=on_back)
            elif on_back is not None:
                on_back()

        self.push_screen(UnsavedScreen(error, leaving), answered)

    def left_unsaved_because(self, line: str, leaving: str) -> None:
        """Said on stderr (and exit status 1) after quitting; at once when moving on."""
        if leaving == QUITTING:
            self.left_unsaved = line
        else:
            self.notify(line, title="Not saved", severity="warning", markup=False, timeout=10)

    def ask_where_to_save(
        self,
        error: str,
        suggested: Path | None = None,
        *,
        then: Callable[[], None] | None = None,
        leaving: str = QUITTING,
        on_back: Callable[[], None] | None = None,
    ) -> None:
        from tracker.screens.save_elsewhere import SaveElsewhereScreen

        session = self.session
        assert session is not None and session.path is not None  # only a saving session fails
        go = then or self.exit
        own = session.path

        def chosen(path: Path | None) -> None:
            if path is None:
                self.leave_saving(go, leaving, on_back)  # back to the question
                return
            problem = None
            try:
                # A new save's own name is what is asked for; another's journal, lock... never.
                owned = storage.owned_by_a_save(path, (own,))
                if path.exists() or path.is_symlink():
                    # The name, not the path: the prompt shows the path, and a one-line
                    # notification would cut the reason off a long one.
                    problem = f"{path.name} is already there; choose a new file"
                elif owned is not None and owned.kind != "save":
                    problem = f"{path.name} {owned}; choose a new file"
                else:
                    storage.write(path, session.history)
            except storage.SaveError as exc:
                problem = str(exc)
            except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
                problem = f"{path}: cannot be saved there ({exc})"
            if problem is not None:
                self.notify(problem, title="Not saved", severity="error", markup=False)
                self.ask_where_to_save(error, path, then=go, leaving=leaving, on_back=on_back)
                return
            go()
            self.left_unsaved_because(f"{error}; saved to {path} instead", leaving)

        suggested = suggested or Path.home() / session.path.name
        self.push_screen(SaveElsewhereScreen(suggested), chosen)
