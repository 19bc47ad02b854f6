"""Balance... (``B``): the fight tuned to the party's chance to win asked for (``rules.tune``):
foes of its kinds added or removed, then their hit points scaled, each step shown as the
forecast measures it. Nothing changes until Accept, and then as one command (one undo step).

The search runs in a thread worker (the forecasts' runs in worker processes,
``tracker.headless.forecast_pool``), on a copy of the state as it was when the dialog opened; the
screen answers keys throughout, and ``Esc`` stops it and closes.
"""

from __future__ import annotations

import secrets
import threading

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, ProgressBar, Static
from textual.worker import get_current_worker

from rules.commands import Commands
from rules.encounter import AnyEncounter
from rules.errors import Rejected
from rules.logline import side_wins
from rules.odds import whole_percent
from rules.tune import Step, Tuning, kinds_of, scales, tune
from tracker.headless import forecast_pool
from tracker.headless import tune_runs as shown

RUNS = shown.RUNS  # fights a step, when the target is near (fewer when it is far)
DEFAULT_TARGET = "75%"


def read_target(text: str) -> float:
    """ "80%" or "80" as 0.8; ``Rejected`` in one line for anything else."""
    word = text.strip().removesuffix("%").strip()
    try:
        value = float(word)
    except ValueError:
        raise Rejected(f"{text[:20]!r} is not a chance like 80%") from None
    if not 0 <= value <= 100:
        raise Rejected(f"{text[:20]!r} is not from 0% to 100%")
    return value / 100


class BalanceScreen(ModalScreen[tuple[Commands, str] | None]):
    """Dismisses with the accepted change and its line, or None."""

    BINDINGS = [Binding("escape", "close", "Close (stops the tune)", id="balance.close")]

    def __init__(self, state: AnyEncounter, party: str, jobs: int | None = None) -> None:
        super().__init__()
        self.state = state
        self.party = party
        self.seed = secrets.randbits(32)
        self.jobs = jobs or forecast_pool.default_jobs()
        self.cancel = threading.Event()
        self.running = False
        self.tuning: Tuning | None = None
        self.measured: list[Step] = []
        self.processes: forecast_pool.Workers | None = None  # ``workers`` is Textual's
        self.kinds = kinds_of(state, party)  # the foes a tune adds, removes or scales

    def compose(self) -> ComposeResult:
        with Vertical(id="balance-dialog"):
            yield Label(Text("Balance the fight", style="bold"), id="balance-title")
            with Horizontal(id="balance-ask"):
                yield Label(Text(f"The {self.party} should win: "))
                yield Input(DEFAULT_TARGET, id="balance-target", max_length=8)
            yield ProgressBar(total=RUNS, show_eta=False, id="balance-progress")
            yield Static(id="balance-steps", markup=False)
            with Horizontal(id="balance-buttons"):
                yield Button("Accept", id="balance-accept", variant="primary", disabled=True)
                yield Button("Cancel", id="balance-cancel")

    def on_mount(self) -> None:
        self.query_one("#balance-progress", ProgressBar).display = False
        scaled = ", then scale their hit points," if scales(self.state.system, self.kinds) else ""
        self.query_one("#balance-steps", Static).update(
            Text(
                f"Enter: add or remove foes of the fight's kinds{scaled} until the forecast "
                "gives the party this chance. Nothing changes until Accept."
            )
        )

    @on(Input.Submitted, "#balance-target")
    def asked(self, event: Input.Submitted) -> None:
        if self.running:
            self.notify("A tune is already running", severity="warning")
            return
        try:
            target = read_target(event.value)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        self.running = True
        self.tuning = None
        self.measured = []
        self.cancel.clear()
        self.query_one("#balance-accept", Button).disabled = True
        self.query_one("#balance-progress", ProgressBar).display = True
        if self.processes is None:
            self.processes = forecast_pool.Workers(self.jobs)
        title = f"Balance: the {self.party} to win {whole_percent(target)} · tuning…"
        self.query_one("#balance-title", Label).update(Text(title, style="bold"))
        self.compute(target)

    @work(thread=True, exclusive=True, group="balance")
    def compute(self, target: float) -> None:
        worker = get_current_worker()

        def told(done: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.advanced, done)

        estimate = shown.estimator(
            self.party, target, self.seed, self.processes, runs=RUNS, cancel=self.cancel, told=told
        )

        def measured(step: Step) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.stepped, step)

        try:
            dice = shown.scratch_dice(self.seed)
            tuning = tune(self.state, self.party, target, estimate, dice, told=measured)
        except forecast_pool.Cancelled:
            return
        except Rejected as exc:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.refused, exc.message)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.finished, tuning)

    def advanced(self, done: int) -> None:
        self.query_one("#balance-progress", ProgressBar).update(total=RUNS, progress=done)

    def stepped(self, step: Step) -> None:
        self.measured.append(step)
        width = max(40, self.size.width - 6)
        lines = [shown.step_line(n, s, width) for n, s in enumerate(self.measured, 1)]
        self.query_one("#balance-steps", Static).update(Text("\n".join(lines[-14:])))

    def refused(self, why: str) -> None:
        self.running = False
        self.query_one("#balance-progress", ProgressBar).display = False
        self.query_one("#balance-title", Label).update(Text(f"No tune: {why}", style="bold"))
        self.notify(why, title="No tune", severity="warning", markup=False)

    def finished(self, tuning: Tuning) -> None:
        self.running = False
        self.tuning = tuning
        self.query_one("#balance-progress", ProgressBar).display = False
        width = max(40, self.size.width - 6)
        lines = shown.as_lines(tuning, width)
        if tuning.command is None:
            lines.append("Nothing to change.")
        self.query_one("#balance-steps", Static).update(Text("\n".join(lines[-14:])))
        # The title says how it ended in a few words (the steps end with the whole line: it
        # was the title, cut mid-word at 80 columns).
        ended = "settled" if tuning.reached else "the nearest"
        wins = f"the {side_wins(self.party)} {whole_percent(tuning.chance.p)}"
        title = f"Balance: {ended}, {wins} (asked {whole_percent(tuning.target)})"
        self.query_one("#balance-title", Label).update(Text(title[: width + 4], style="bold"))
        accept = self.query_one("#balance-accept", Button)
        accept.disabled = tuning.command is None
        if not accept.disabled:
            accept.focus()

    @on(Button.Pressed, "#balance-accept")
    def accepted(self) -> None:
        if self.tuning is not None and self.tuning.command is not None:
            self.dismiss((self.tuning.command, f"balance: {self.tuning.line}"))

    @on(Button.Pressed, "#balance-cancel")
    def action_close(self) -> None:
        self.cancel.set()
        self.workers.cancel_group(self, "balance")
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.cancel.set()
        if self.processes is not None:
            self.processes.close()
