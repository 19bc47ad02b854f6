"""Where the fight turned (the replay's ``W``): the party's chance to win event by event as a
chart, and the three rolls that swung it most; ``1``-``3`` jump the replay to one (then ``b``
branches from it).

The forecasts run in a thread worker (their runs in worker processes,
``tracker.headless.forecast_pool``), with a progress bar; the screen answers keys throughout, and
``Esc`` stops them and closes.
"""

from __future__ import annotations

import secrets
import threading

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar, Static
from textual.worker import get_current_worker

from rules.errors import Rejected
from rules.logline import side_possessive
from rules.odds import whole_percent
from rules.replay import Timeline
from rules.swings import FIRM, QUICK, Swings, swings
from tracker.headless import forecast_pool
from tracker.headless import swings_runs as shown

RUNS = QUICK  # fights a point before a roll (the points around the likeliest swings: more)


class SwingsScreen(ModalScreen[int | None]):
    """Dismisses with the event to jump to (a swing's roll), or None."""

    BINDINGS = [
        Binding("escape,W", "close", "Close (stops the forecasts)", id="swings.close"),
        *(
            Binding(str(n), f"jump({n})", f"Jump to swing {n}", id=f"swings.jump_{n}")
            for n in (1, 2, 3)
        ),
    ]

    def __init__(self, timeline: Timeline, party: str, jobs: int | None = None) -> None:
        super().__init__()
        self.timeline = timeline
        self.party = party
        self.seed = secrets.randbits(32)
        self.jobs = jobs or forecast_pool.default_jobs()
        self.cancel = threading.Event()
        self.found: Swings | None = None
        self.processes: forecast_pool.Workers | None = None  # ``workers`` is Textual's

    def compose(self) -> ComposeResult:
        with Vertical(id="swings-dialog"):
            yield Label(Text("Where the fight turned · working…", style="bold"), id="swings-title")
            yield ProgressBar(total=1, show_eta=False, id="swings-progress")
            yield Static(id="swings-chart", markup=False)
            yield Label(Text("1-3 jump to a swing (then b branches) · Esc close"), id="swings-keys")

    def on_mount(self) -> None:
        self.processes = forecast_pool.Workers(self.jobs)
        self.compute()

    @work(thread=True, exclusive=True, group="swings")
    def compute(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.advanced, done, total)

        chances = shown.chances_over(self.party, self.seed, self.processes, self.cancel)
        many = shown.many_over(self.party, self.seed, self.processes, self.cancel)
        try:
            firm = RUNS * FIRM // QUICK
            found = swings(
                self.timeline, self.party, chances, progress, quick=RUNS, firm=firm, many=many
            )
        except forecast_pool.Cancelled:
            return
        except Rejected as exc:  # the rules cannot play this fight
            if not worker.is_cancelled:
                self.app.call_from_thread(self.refused, exc.message)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.finished, found)

    def advanced(self, done: int, total: int) -> None:
        self.query_one("#swings-progress", ProgressBar).update(total=total, progress=done)

    def refused(self, why: str) -> None:
        self.query_one("#swings-progress", ProgressBar).display = False
        self.query_one("#swings-title", Label).update(Text(f"No swings: {why}", style="bold"))

    def finished(self, found: Swings) -> None:
        self.found = found
        self.query_one("#swings-progress", ProgressBar).display = False
        whose = side_possessive(self.party)
        title = f"Where the fight turned · the {whose} chance, seed {self.seed}"
        self.query_one("#swings-title", Label).update(Text(title, style="bold"))
        width = max(30, self.size.width - 6)
        lines = shown.chart(found, width)
        lines.append("")
        if not found.swings:
            lines.append("No roll moved the chance.")
        for number, swing in enumerate(found.swings, 1):  # two lines each: the change, the roll
            lines.append(
                f"{number}. Round {swing.round}, event {swing.position + 1} took the "
                f"{_cut(found.party, 20)} from {whole_percent(swing.before.p)} to "
                f"{whole_percent(swing.after.p)}:"
            )
            lines.append(_cut(f"   {swing.line}", width))
        self.query_one("#swings-chart", Static).update(Text("\n".join(lines)))

    def action_jump(self, number: int) -> None:
        if self.found is None or number > len(self.found.swings):
            self.notify(f"No swing {number} (yet)", severity="warning")
            return
        self.dismiss(self.found.swings[number - 1].position)

    def action_close(self) -> None:
        self.cancel.set()
        self.workers.cancel_group(self, "swings")
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.cancel.set()
        if self.processes is not None:
            self.processes.close()


def _cut(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"
