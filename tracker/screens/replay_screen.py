"""Replay: step through a saved fight, read-only, and branch a new encounter from any point."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer

from rules.history import History
from rules.replay import Timeline
from tracker.widgets.encounter_view import EncounterView
from tracker.widgets.key_bar import KeyBar
from tracker.widgets.timeline_bar import Place, TimelineBar

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
LOG_WINDOW = 200  # entries shown up to the current one
# Kept in a narrow footer before the others: stepping, playing, and the ways out.
KEEP_IN_FOOTER = ("step(1)", "step(-1)", "play", "branch", "close")


class ReplayScreen(Screen[History | None]):
    """Dismisses with the history of a branch, or None when closed."""

    # Priority: the read-only panes (the combatants table) must not take these keys.
    BINDINGS = [
        Binding("right", "step(1)", "Next event", priority=True, id="replay.next_event"),
        Binding("left", "step(-1)", "Previous event", priority=True, id="replay.previous_event"),
        Binding(
            "right_square_bracket", "turn(1)", "Next turn", priority=True, id="replay.next_turn"
        ),
        Binding(
            "left_square_bracket",
            "turn(-1)",
            "Previous turn",
            priority=True,
            id="replay.previous_turn",
        ),
        Binding(
            "right_curly_bracket", "round(1)", "Next round", priority=True, id="replay.next_round"
        ),
        Binding(
            "left_curly_bracket",
            "round(-1)",
            "Previous round",
            priority=True,
            id="replay.previous_round",
        ),
        Binding(
            "home", "jump_to(0)", "First event", show=False, priority=True, id="replay.first_event"
        ),
        Binding(
            "end", "jump_to(-1)", "Last event", show=False, priority=True, id="replay.last_event"
        ),
        Binding("g", "go", "Go to typed number", show=False, priority=True, id="replay.go"),
        # Digits too, so "12g" typed fast is read in order (g is handled as it arrives).
        *(
            Binding(
                str(d),
                f"digit({d})",
                "Type an event number",
                show=False,
                priority=True,
                id=f"replay.digit_{d}",
            )
            for d in range(10)
        ),
        Binding("space", "play", "Play/pause", priority=True, id="replay.play"),
        Binding(
            "plus,equals_sign", "speed(1)", "Faster", show=False, priority=True, id="replay.faster"
        ),
        Binding("minus", "speed(-1)", "Slower", show=False, priority=True, id="replay.slower"),
        Binding("b", "branch", "Branch from here", priority=True, id="replay.branch"),
        # Not in the footer (its keys are full at 80 columns): in the help and the palette.
        Binding(
            "W", "swings", "Where the fight turned", show=False, priority=True, id="replay.swings"
        ),
        Binding("question_mark", "help", "Help", show=False, priority=True, id="replay.help"),
        Binding("escape,q", "close", "Close replay", priority=True, id="replay.close"),
    ]

    position: reactive[int] = reactive(0, init=False)

    def __init__(self, replay: History | Timeline) -> None:
        """``replay``: a history, or its timeline made already (a save's, whose fold was its
        check: ``storage.replayable``)."""
        super().__init__()
        self.timeline = replay if isinstance(replay, Timeline) else Timeline(replay)
        self.playing = False
        self.speed_index = 2
        self.typed = ""
        self._timer: Timer | None = None
        # Held, not looked up: drawn in on_mount, where a query finds nothing if the app
        # exits as this screen is mounted (see EncounterView).
        self.panes = EncounterView(log_title="Roll log (replay)", read_only=True)
        self.bar = TimelineBar(id="timeline")

    def compose(self) -> ComposeResult:
        yield self.panes
        yield self.bar
        yield KeyBar(first=KEEP_IN_FOOTER)

    def on_mount(self) -> None:
        self.position = self.timeline.last
        self.watch_position(self.position)

    def watch_position(self, position: int) -> None:
        self.panes.show(self.timeline.state_at(position))
        start = max(0, position - LOG_WINDOW + 1)
        shown = [
            (self.timeline.events[i], self.timeline.before(i)) for i in range(start, position + 1)
        ]
        self.panes.roll_log.show(shown, mark_last=True)
        self._show_bar()

    def _show_bar(self) -> None:
        state = self.timeline.state_at(self.position)
        self.bar.show(
            Place(
                position=self.position,
                total=len(self.timeline),
                round=state.round,
                playing=self.playing,
                speed=SPEEDS[self.speed_index],
                typed=self.typed,
            )
        )

    # --- moving -------------------------------------------------------------------------------

    def _go(self, position: int) -> None:
        self.position = max(0, min(position, self.timeline.last))

    def action_step(self, delta: int) -> None:
        self._go(self.position + delta)

    def action_turn(self, direction: int) -> None:
        t = self.timeline
        self._go(t.next_turn(self.position) if direction > 0 else t.previous_turn(self.position))

    def action_round(self, direction: int) -> None:
        t = self.timeline
        self._go(t.next_round(self.position) if direction > 0 else t.previous_round(self.position))

    def action_jump_to(self, position: int) -> None:
        self._go(self.timeline.last if position < 0 else position)

    def action_digit(self, digit: int) -> None:
        self.typed = (self.typed + str(digit))[-7:]
        self._show_bar()

    def action_go(self) -> None:
        if self.typed:
            self._go(int(self.typed) - 1)
            self.typed = ""
            self._show_bar()
        else:
            self.notify("Type an event number first, then g", severity="warning")

    # --- playing --------------------------------------------------------------------------------

    def action_play(self) -> None:
        self.playing = not self.playing
        if self.playing and self.position >= self.timeline.last:
            self.position = 0
        self._restart_timer()
        self._show_bar()

    def action_speed(self, delta: int) -> None:
        self.speed_index = max(0, min(self.speed_index + delta, len(SPEEDS) - 1))
        self._restart_timer()
        self._show_bar()

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playing:
            self._timer = self.set_interval(1 / SPEEDS[self.speed_index], self._tick)

    def _tick(self) -> None:
        if self.position >= self.timeline.last:
            self.playing = False
            self._restart_timer()
            self._show_bar()
            return
        self.position += 1

    # --- leaving ----------------------------------------------------------------------------------

    def action_swings(self) -> None:
        """The party's chance event by event, and the rolls that swung it (``1``-``3`` come
        back here at one)."""
        from rules.errors import Rejected
        from tracker.screens.swings_screen import SwingsScreen
        from tracker.store.prepare import party_side

        self.playing = False
        self._restart_timer()
        try:
            party = party_side(self.timeline.final)
        except Rejected as exc:
            self.notify(exc.message, severity="warning", markup=False)
            return

        def jump(position: int | None) -> None:
            if position is not None:
                self._go(position)

        self.app.push_screen(SwingsScreen(self.timeline, party), jump)

    def action_branch(self) -> None:
        self.dismiss(self.timeline.branch(self.position))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        from tracker.screens.help import show_help

        intro = (
            "Replay is read-only. Type a number then g to jump to that event; "
            "W shows where the fight turned."
        )
        show_help(self.app, self.BINDINGS, intro)
