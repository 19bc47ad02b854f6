"""The forecast (``F``): the fight played out many times from where it stands, by solo policy,
with its win chances, length and each combatant's risk; and "what if" on a scratch copy.

The forecast runs in a thread worker (the runs themselves in worker processes:
``tracker.headless.forecast_pool``, started at the first forecast and kept warm for the what-ifs
until the screen closes), with a progress bar; ``Esc`` stops it and closes. The what-if
copy is changed with the rules' own commands (a policy, a copy of a combatant, a removal),
folded into a scratch state: the session, its history and its file are never touched. Each
new forecast is shown beside the one before it, on the same seed, so what differs is the
change and not the dice.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar, Static
from textual.worker import get_current_worker

from rules.commands import AddCombatant, RemoveCombatant, SetPolicy
from rules.dice import ANY_FACE
from rules.encounter import AnyEncounter, Combatant
from rules.engine import apply, decide
from rules.errors import Rejected
from rules.forecast import DEFAULT_ROUNDS, Report, unready
from rules.registry import get_system
from rules.solo import policy_of
from tracker.headless import forecast_pool

RUNS = 1000  # fights per forecast in the app


class ForecastScreen(ModalScreen[None]):
    """←/→ choose a combatant of the copy; p, a, x change it; Enter forecasts it; Esc closes."""

    BINDINGS = [
        Binding("escape", "close", "Close (stops a forecast)", id="forecast.close"),
        Binding(
            "left", "select(-1)", "Previous combatant", show=False, id="forecast.select_previous"
        ),
        Binding("right", "select(1)", "Next combatant", show=False, id="forecast.select_next"),
        Binding("p", "policy", "Change policy", id="forecast.policy"),
        Binding("a", "add", "Add a copy", id="forecast.add"),
        Binding("x", "remove", "Remove", id="forecast.remove"),
        Binding("enter", "run", "Forecast the copy", id="forecast.run"),
    ]

    def __init__(self, state: AnyEncounter, jobs: int | None = None) -> None:
        super().__init__()
        self.real = state
        self.scratch = state
        self.seed = secrets.randbits(32)
        self.jobs = jobs or forecast_pool.default_jobs()
        self.changes: list[str] = []
        self.selected = 0
        self.shown: list[tuple[str, Report]] = []  # the last two forecasts, oldest first
        self.cancel = threading.Event()
        self.running = False
        self.processes: forecast_pool.Workers | None = None  # ``workers`` is Textual's

    def compose(self) -> ComposeResult:
        with Vertical(id="forecast-dialog"):
            yield Label(Text("Forecast", style="bold"), id="forecast-title")
            yield ProgressBar(total=RUNS, show_eta=False, id="forecast-progress")
            with Horizontal(id="forecast-panels"):
                yield Static(id="forecast-before", markup=False)
                yield Static(id="forecast-after", markup=False)
            yield Static(id="forecast-whatif", markup=False)
            yield Label(
                Text("←/→ who · p policy · a add a copy · x remove · Enter run · Esc close"),
                id="forecast-keys",
            )

    def on_mount(self) -> None:
        self.draw_whatif()
        self.start("Now")

    # --- running ---

    def start(self, label: str) -> None:
        if self.running:
            self.notify("A forecast is already running", severity="warning")
            return
        why = unready(self.scratch)
        if why:  # one side, or nobody: refused before any worker starts or any fight is played
            self.refused(why)
            return
        self.running = True
        self.cancel.clear()
        bar = self.query_one("#forecast-progress", ProgressBar)
        bar.update(total=RUNS, progress=0)
        bar.display = True
        if self.processes is None:
            self.processes = forecast_pool.Workers(self.jobs)
        title = f"Forecast: {RUNS:,} fights by solo policy, seed {self.seed} · running…"
        self.query_one("#forecast-title", Label).update(Text(title, style="bold"))
        self.compute(self.scratch, label)

    @work(thread=True, exclusive=True, group="forecast")
    def compute(self, state: AnyEncounter, label: str) -> None:
        worker = get_current_worker()

        def progress(done: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self.advanced, done)

        try:
            result = forecast_pool.run_forecast(
                state, RUNS, self.seed, DEFAULT_ROUNDS, self.processes, progress, self.cancel
            )
        except forecast_pool.Cancelled:
            return
        except Rejected as exc:  # the rules cannot play this fight (a fighter with no dice)
            if not worker.is_cancelled:
                self.app.call_from_thread(self.refused, exc.message)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self.finished, label, result)

    def refused(self, why: str) -> None:
        self.running = False
        self.query_one("#forecast-progress", ProgressBar).display = False
        title = Text(f"No forecast: {why}", style="bold")
        self.query_one("#forecast-title", Label).update(title)
        self.notify(why, title="No forecast", severity="warning", markup=False)

    def advanced(self, done: int) -> None:
        self.query_one("#forecast-progress", ProgressBar).update(progress=done)

    def finished(self, label: str, result: Report) -> None:
        self.running = False
        self.shown = [*self.shown[-1:], (label, result)]
        self.query_one("#forecast-progress", ProgressBar).display = False
        title = f"Forecast: {RUNS:,} fights by solo policy, seed {self.seed}"
        self.query_one("#forecast-title", Label).update(Text(title, style="bold"))
        self.draw_panels()

    def draw_panels(self) -> None:
        before = self.query_one("#forecast-before", Static)
        after = self.query_one("#forecast-after", Static)
        width = max(20, (self.size.width - 4) // 2 - 1)
        texts = [self.panel(label, result, width) for label, result in self.shown]
        if len(texts) == 1:
            texts.append(Text("What if: change the copy below, then Enter.", style="dim"))
        before.update(texts[0])
        after.update(texts[1])

    def panel(self, label: str, result: Report, width: int) -> Text:
        text = Text(label + "\n", style="bold")  # a long what-if wraps
        text.append("\n".join(forecast_pool.panel_lines(result, width)))
        if result.refused:
            text.append(f"\n{result.refused} runs: a policy was refused", style="italic")
        return text

    # --- what if ---

    def draw_whatif(self) -> None:
        people = self.scratch.combatants
        text = Text("What if: ", style="bold")
        if people:
            self.selected %= len(people)
            who = people[self.selected]
            text.append(f"◀ {who.name} ({who.side}, {self.policy_title(who)}) ▶")
        else:
            text.append("nobody left")
        changed = "; ".join(self.changes[-3:]) if self.changes else "nothing changed yet"
        text.append(f"\n{changed}", style="dim")
        self.query_one("#forecast-whatif", Static).update(text)

    def policy_title(self, who: Combatant[Any]) -> str:
        chosen = policy_of(self.scratch, who)
        policies = get_system(self.scratch.system).solo_policies
        return next((p.title for p in policies if p.id == chosen), chosen or "no policy")

    def action_select(self, step: int) -> None:
        if self.scratch.combatants:
            self.selected = (self.selected + step) % len(self.scratch.combatants)
        self.draw_whatif()

    def change(self, command: Any, what: str) -> None:
        """A command on the scratch copy alone, folded by the rules as any other."""
        try:
            events = decide(self.scratch, command, ANY_FACE)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return
        for event in events:
            self.scratch = apply(self.scratch, event)
        self.changes.append(what)
        self.draw_whatif()

    def action_policy(self) -> None:
        people = self.scratch.combatants
        policies = [p.id for p in get_system(self.scratch.system).solo_policies]
        if not people or not policies:
            return
        who = people[self.selected]
        now = policy_of(self.scratch, who)
        following = policies[(policies.index(now) + 1) % len(policies)]
        title = next(
            p.title for p in get_system(self.scratch.system).solo_policies if p.id == following
        )
        self.change(SetPolicy(who.id, following), f"{who.name}: {title}")

    def action_add(self) -> None:
        people = self.scratch.combatants
        if not people:
            return
        who = people[self.selected]
        command = AddCombatant(name=who.name, side=who.side, sheet=who.sheet)
        self.change(command, f"+ another {who.name}")

    def action_remove(self) -> None:
        people = self.scratch.combatants
        if not people:
            return
        who = people[self.selected]
        self.change(RemoveCombatant(who.id), f"no {who.name}")

    def action_run(self) -> None:
        label = "What if: " + ", ".join(self.changes) if self.changes else "Again"
        self.start(label)

    def action_close(self) -> None:
        self.cancel.set()
        self.workers.cancel_group(self, "forecast")
        self.dismiss(None)

    def on_unmount(self) -> None:
        if self.processes is not None:
            self.processes.close()
