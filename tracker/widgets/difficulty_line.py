"""A fight's difficulty as it is prepared (the ``D`` dialog, the library dialog, a new
encounter): the lines of ``rules.difficulty.lines``, worked out in a thread worker on the
forecast's worker processes, with a progress bar once it takes more than half a second.

``show(state)`` starts a run and stops the one before it (its worker is cancelled and its
spans not begun are dropped), so a fight changed while its last difficulty was being worked
out shows the new one only. The screen never waits: the line says "working it out" until the
worker's lines arrive. ``status`` says where it is ("idle", "running", "done", "refused") and
``said`` what it shows, for the screen that holds it and for tests to wait on.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from rules import difficulty
from rules.encounter import AnyEncounter
from rules.errors import Rejected
from tracker.headless import forecast_pool
from tracker.headless.difficulty_runs import RUNS, SEED, run_difficulty

REVEAL_AFTER = 0.5  # seconds a run goes on before its progress bar is shown


class DifficultyLine(Vertical):
    """The difficulty lines of the last fight shown, and a progress bar while one runs."""

    class Done(Message):
        """A run finished: its lines (posted to the screen)."""

        def __init__(self, said: tuple[str, ...]) -> None:
            super().__init__()
            self.said = said

    def __init__(
        self,
        jobs: int | None = None,
        id: str | None = None,
        then: Callable[[tuple[str, ...]], object] | None = None,
    ) -> None:
        """``then``: told the lines of each run that finishes (besides the ``Done`` message)."""
        super().__init__(id=id)
        self.then = then
        self.jobs = jobs or forecast_pool.default_jobs()
        self.processes: forecast_pool.Workers | None = None  # ``workers`` is Textual's
        self.cancel = threading.Event()
        self.run_number = 0  # a finished run older than the last started is dropped
        self.status = "idle"
        self.said: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(Text("Difficulty: …", style="dim"), classes="difficulty-text", markup=False)
        yield ProgressBar(total=RUNS, show_eta=False, classes="difficulty-progress")

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False

    def show(self, state: AnyEncounter, seed: int = SEED) -> None:
        """Work out the difficulty of ``state`` (stopping any run before it)."""
        self.stop()
        self.run_number += 1
        unready = difficulty.unready(state)
        if unready:
            self.finished(self.run_number, (unready,), "done")
            return
        self.cancel = threading.Event()
        self.status = "running"
        self.query_one(".difficulty-text", Static).update(
            Text("Difficulty: working it out…", style="dim")
        )
        self.query_one(ProgressBar).update(total=RUNS, progress=0)
        if self.processes is None:
            self.processes = forecast_pool.Workers(self.jobs)
        number = self.run_number
        self.set_timer(REVEAL_AFTER, lambda: self.reveal(number))
        self.compute(state, seed, self.cancel, number)

    def stop(self) -> None:
        self.cancel.set()
        self.workers.cancel_group(self, "difficulty")

    def reveal(self, number: int) -> None:
        if number == self.run_number and self.status == "running":
            self.query_one(ProgressBar).display = True

    @work(thread=True, exclusive=True, group="difficulty")
    def compute(self, state: AnyEncounter, seed: int, cancel: threading.Event, number: int) -> None:
        worker = get_current_worker()

        def progress(done: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.advanced, number, done)

        try:
            result = run_difficulty(state, seed, RUNS, self.processes, progress, cancel)
            said, status = difficulty.lines(state, result), "done"
        except forecast_pool.Cancelled:
            return
        except Rejected as exc:  # the rules cannot play this fight out
            said, status = (f"Difficulty: {exc.message}",), "refused"
        if not worker.is_cancelled:
            self.app.call_from_thread(self.finished, number, said, status)

    def advanced(self, number: int, done: int) -> None:
        if number == self.run_number:
            self.query_one(ProgressBar).update(progress=done)

    def finished(self, number: int, said: tuple[str, ...], status: str) -> None:
        if number != self.run_number:
            return
        self.status, self.said = status, said
        self.query_one(ProgressBar).display = False
        text = Text(said[0], style="bold")
        for line in said[1:]:
            text.append("\n" + line)
        self.query_one(".difficulty-text", Static).update(text)
        self.post_message(self.Done(said))
        if self.then is not None:
            self.then(said)

    def on_unmount(self) -> None:
        self.cancel.set()
        if self.processes is not None:
            self.processes.close()


def notify_difficulty(screen: Screen[object], state: AnyEncounter) -> None:
    """The difficulty of a fight just made (``tracker new``) as a notification on ``screen``,
    worked out by a hidden line that goes once it has said it (or with the screen, stopping
    its run). A fight without a party and foes yet says nothing."""
    if difficulty.unready(state):
        return

    def said(lines: tuple[str, ...]) -> None:
        screen.notify("\n".join(lines), title="Difficulty", timeout=30, markup=False)
        line.remove()

    line = DifficultyLine(id="difficulty-notice", then=said)
    line.display = False
    screen.mount(line)
    screen.call_after_refresh(line.show, state)
