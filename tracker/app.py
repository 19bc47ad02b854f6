"""The Textual application: an encounter to play, or a saved fight to replay."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import App, CSSPathType
from textual.notifications import SeverityLevel
from textual.theme import Theme

from rules.dice import DiceSource, SeededDice
from rules.history import History
from tracker import partial_renders, settings, storage
from tracker.defaults import saves_folder
from tracker.palette import ScreenActions
from tracker.screens.encounter import EncounterScreen
from tracker.session import EncounterSession
from tracker.widgets import scrolled_lines

# The speed patches on Textual's private code, checked now: if Textual is not the one they
# were written for, stderr says so while it is still the terminal's (a running app takes it).
partial_renders.install()  # a partial update renders only what it updates
scrolled_lines.check()  # a scrolled log frames only its new lines


# How long a notification stays unless told: long enough to read it at an unhurried pace,
# so a short one is out of the way sooner than Textual's five seconds.
SECONDS_TO_READ = (3.0, 10.0)  # at the least, at the most
CHARACTERS_A_SECOND = 15


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


class TrackerApp(App[None]):
    CSS_PATH: ClassVar[CSSPathType | None] = "tracker.tcss"
    TITLE = "Combat Tracker"
    COMMANDS = App.COMMANDS | {ScreenActions}
    # A screen under a dialog or the prompt: its own notifications hide there (tracker.tcss).
    SUSPENDED_SCREEN_CLASS = "-suspended"
    # Whether this app freezes the process's collector (see settle_memory); False where
    # several apps share a process and something else owns that (a served table's Heap).
    OWNS_MEMORY = True

    def __init__(
        self,
        session: EncounterSession | None,
        *,
        saves: Path | None = None,
        notes: Sequence[str] = (),
        replay: History | None = None,
        dice: DiceSource | None = None,
        settings_file: Path | None = None,
    ) -> None:
        """``settings_file``: where the theme is remembered; None (tests) remembers nothing."""
        super().__init__()
        self.session = session
        self.saves = saves if saves is not None else saves_folder()
        self.notes = list(notes)
        self.settings_file = settings_file
        self.settings = settings.Settings()
        if settings_file is not None:
            self.settings, problem = settings.load(settings_file)
            if problem:
                self.notes.append(problem)
        self.replay = replay
        self.dice = dice or (session.dice if session else SeededDice(0))

    def on_mount(self) -> None:
        if self.OWNS_MEMORY:
            settle_memory()
        chosen = self.settings.theme
        if chosen is not None and chosen in self.available_themes:
            self.theme = chosen
        elif chosen is not None:
            self.notes.append(f"Theme {chosen!r} is not known here; using the default")
        # Only a theme the user picks is written down, never the default at a first start.
        self.settings = settings.Settings(theme=self.theme)
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        if self.replay is not None:
            from tracker.screens.replay import ReplayScreen  # only replays need it

            self.push_screen(ReplayScreen(self.replay), self._after_standalone_replay)
        elif self.session is not None:
            self.push_screen(EncounterScreen(self.session))
        for note in self.notes:
            self.notify(note, markup=False, timeout=8)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's notification, shown for as long as it takes to read unless told."""
        if timeout is None:
            timeout = reading_time(message, title)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def _remember_theme(self, theme: Theme) -> None:
        """Keep the theme chosen (in the palette: "Change theme") for the next start."""
        if self.settings_file is None or theme.name == self.settings.theme:
            return
        self.settings = settings.Settings(theme=theme.name)
        error = settings.save(self.settings_file, self.settings)
        if error:
            self.notify(error, severity="warning", markup=False)

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

    def play_branch(self, branch: History) -> None:
        """Save a branch as a new encounter and play it in place of the current one."""
        path = storage.free_path(self.saves, branch.state.name)
        try:
            storage.write(path, branch)
        except storage.SaveError as exc:
            self.notify(str(exc), title="Branch not saved", severity="error", markup=False)
            return
        self.open_encounter(storage.Opened(branch, path), f"Branched into {path}")

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
        except storage.SaveError as exc:
            self.notify(str(exc), title="Cannot open", severity="error", markup=False)
            return
        self.open_encounter(opened)

    def open_encounter(self, opened: storage.Opened, note: str = "") -> None:
        """Close the current session (saving it) and play another encounter."""
        if self.session is not None:
            error = self.session.close()
            if error:
                self.notify(error, title="Not saved", severity="error", markup=False)
        self.session, error = EncounterSession.resume(opened, self.dice)
        if self.OWNS_MEMORY:
            settle_memory()
        screen = EncounterScreen(self.session)
        if isinstance(self.screen, EncounterScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        for line in (note, opened.note, error):
            if line:
                self.notify(line, markup=False, timeout=8)
