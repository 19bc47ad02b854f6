"""The `:` prompt at the foot of the screen: completion, a usage hint and ↑/↓ history.

What a typed line means is `tracker.line_commands`'s job; this module is its screen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from rules.bounds import TEXT
from rules.commands import RollDice
from rules.errors import Rejected
from rules.notation import answer
from tracker.dialog_flow import must_settle
from tracker.line_commands import command_history
from tracker.line_commands.completion import Completion, complete
from tracker.line_commands.example import example_line
from tracker.line_commands.outcomes import Context, Execute, Redo, Say, ScreenAction, Undo
from tracker.line_commands.resolve import hint, logged_conditions, resolve
from tracker.session import EncounterSession
from tracker.store.library import Library

Complete = Callable[[str], Completion]
Hint = Callable[[str], str]
# What is left of a line once its slow part is done off the loop (a roll's odds), or None.
Later = Callable[[], Awaitable[None]]
Submit = Callable[[str], Later | None]
# How long a line's odds may take in a thread (their work is bounded well inside it): past
# it, the line is refused rather than left waiting on a starved machine.
DEADLINE = 10.0
SHOWN = 8  # completions listed under the prompt


class LineSuggester(Suggester):
    """The first completion as grey text after the cursor; → takes it (Textual's Input)."""

    def __init__(self, complete: Complete) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.complete = complete

    async def get_suggestion(self, value: str) -> str | None:
        found = self.complete(value)
        typed = value[found.start :]
        for option in found.options:
            if len(option) > len(typed):
                return value + option[len(typed) :]
        return None


class CommandLineScreen(ModalScreen[None]):
    """Enter runs the line (a refusal stays on screen to be fixed), Esc closes, Tab completes."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="command_prompt.close"),
        Binding("tab", "complete", "Complete", priority=True, id="command_prompt.complete"),
        Binding("up", "history(-1)", "Older line", priority=True, id="command_prompt.history_back"),
        Binding(
            "down", "history(1)", "Newer line", priority=True, id="command_prompt.history_forward"
        ),
    ]

    def __init__(
        self,
        submit: Submit,
        complete: Complete,
        hint: Hint,
        history_file: Path | None,
        example: str = "next · undo 3",
    ) -> None:
        """``example``: the lines the empty prompt shows (``example_line``: this fight's)."""
        super().__init__()
        self.example = example
        self.submit = submit
        self.complete = complete
        self.hint = hint
        self.history_file = history_file
        self.lines = command_history.load(history_file)
        self.position = len(self.lines)  # len(lines): the line being typed, not a past one
        self.draft = ""
        self.cycle: list[str] = []  # the lines Tab steps through, while it is pressed
        self.working = False  # a line's odds are being worked out in a thread

    def compose(self) -> ComposeResult:
        with Vertical(id="command-line"):
            yield Static("", id="command-options")
            yield Static("", id="command-hint")
            yield Input(
                placeholder=self.example,
                suggester=LineSuggester(self.complete),
                max_length=TEXT,  # a flood typed in is cut as it comes, not worked on
                id="command-input",
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self.show_help("")

    @property
    def input(self) -> Input:
        return self.query_one("#command-input", Input)

    def show_help(self, value: str, error: str = "") -> None:
        hint = self.query_one("#command-hint", Static)
        if error:
            hint.update(Text("✗ " + error, style="bold red"))
        else:
            hint.update(Text(self.hint(value), style="dim"))
        options = self.complete(value).options
        more = f" … +{len(options) - SHOWN}" if len(options) > SHOWN else ""
        self.query_one("#command-options", Static).update(
            Text("  ".join(options[:SHOWN]) + more, style="italic")
        )

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value not in self.cycle:
            self.cycle = []
        self.show_help(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if not line:
            self.dismiss(None)
            return
        self.lines = command_history.remember(self.lines, line, self.history_file)
        self.position = len(self.lines)
        try:
            later = self.submit(line)
        except Rejected as exc:
            self.show_help(line, exc.message)
            return
        if later is None:
            self.dismiss(None)
            return
        self.query_one("#command-hint", Static).update(Text("working out the odds…", style="dim"))
        self.working = True
        self.run_worker(self._finish(line, later), group="line", exclusive=True)

    async def _finish(self, line: str, later: Later) -> None:
        """The rest of a line whose slow part runs in a thread: the table goes on meanwhile."""
        try:
            await later()
        except Rejected as exc:
            self.show_help(line, exc.message)
            return
        finally:
            self.working = False
        self.dismiss(None)

    def action_complete(self) -> None:
        """Tab: the first completion; pressed again, the next one."""
        value = self.input.value
        if value in self.cycle:
            following = self.cycle[(self.cycle.index(value) + 1) % len(self.cycle)]
        else:
            self.cycle = [line + " " for line in self.complete(value).lines(value)]
            if not self.cycle:
                return
            following = self.cycle[0]
        self.input.value = following
        self.input.cursor_position = len(following)

    def action_history(self, step: int) -> None:
        if not self.lines:
            return
        if self.position == len(self.lines):
            self.draft = self.input.value
        self.position = max(0, min(len(self.lines), self.position + step))
        value = self.draft if self.position == len(self.lines) else self.lines[self.position]
        self.input.value = value
        self.input.cursor_position = len(value)

    def action_close(self) -> None:
        self.dismiss(None)


def prompt_for(
    screen: Screen[Any],
    session: EncounterSession,
    palette: Callable[[], list[tuple[str, str, str]]],
    selected: str | None,
    settle_first: Callable[[str, Callable[[], None]], None] | None = None,
    library: Library | None = None,
) -> CommandLineScreen:
    """The prompt, wired to an encounter screen: lines run through its session, and screen
    actions (``:replay``...) on the screen. A line that would leave a result unapplied (a
    new roll, the end of a turn) runs through ``settle_first``, which asks about it first."""
    # Read once per prompt: nothing changes the encounter while the prompt is open.
    known = logged_conditions(session.history.recent_events())
    cached: list[Context] = []

    def context() -> Context:
        if not cached or cached[0].state is not session.state:
            cached[:] = [
                Context(
                    state=session.state,
                    system=session.system,
                    palette=palette(),
                    selected=selected,
                    known_conditions=known,
                    library=library,
                    allows=session.allows,
                    mine=session.acts_for(),
                )
            ]
        return cached[0]

    def run_later(outcome: Execute) -> None:
        try:
            session.execute(outcome.command, outcome.label, outcome.moves)
        except Rejected as exc:
            screen.notify(exc.message, severity="warning", markup=False)

    def execute(outcome: Execute) -> None:
        if (
            outcome.leaves
            and settle_first is not None
            and must_settle(session.system, session.state, outcome.action, outcome.command)
        ):
            # Asked once the prompt has gone: the question sits on the encounter.
            screen.call_later(settle_first, outcome.leaves, lambda: run_later(outcome))
        else:
            session.execute(outcome.command, outcome.label, outcome.moves)

    def submit(line: str) -> Later | None:
        outcome = resolve(line, context())
        match outcome:
            case Execute(command=RollDice(notation=notation)) if not answer.ready(notation):
                # Odds that take more than a moment are worked out in a thread, so the
                # app and every seat of a served table go on; the roll is then at once.
                async def later() -> None:
                    try:
                        await asyncio.wait_for(asyncio.to_thread(_worked_out, notation), DEADLINE)
                    except TimeoutError:
                        raise Rejected(
                            f"the odds of {notation} took too long to work out: "
                            "roll fewer or smaller dice"
                        ) from None
                    execute(outcome)

                return later
            case Execute():
                execute(outcome)
            case Undo() | Redo():
                step = session.undo if isinstance(outcome, Undo) else session.redo
                word = "Undid" if isinstance(outcome, Undo) else "Redid"
                done = []
                for _ in range(outcome.steps):
                    try:
                        done.append(step().label)
                    except Rejected:
                        if not done:
                            raise
                        break
                more = "" if len(done) == outcome.steps else f" (no more of {outcome.steps})"
                screen.notify(f"{word} {len(done)}: {', '.join(done)}{more}", markup=False)
            case ScreenAction():
                name, _, argument = outcome.action.partition("(")
                if not session.allows(name, argument.strip("()'\"")):
                    raise Rejected("Only the GM can do that")  # a seat's role, as its key
                # After the prompt has gone, so a dialog it opens sits on the encounter.
                screen.call_later(screen.run_action, outcome.action)
            case Say():
                screen.notify(outcome.text, markup=False, timeout=10)
        return None

    return CommandLineScreen(
        submit,
        lambda text: complete(text, context()),
        lambda text: hint(text, context()),
        # The GM's lines stay the GM's: a player's up arrow must not read them.
        command_history.history_path(session.path) if session.allows("save") else None,
        example_line(context()),
    )


def _worked_out(notation: str) -> None:
    """Work out a line's odds (kept by ``answer``), or its refusal, which the roll then says."""
    with suppress(Rejected):
        answer.work_out(notation)
