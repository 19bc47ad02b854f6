"""The app of one seat at a served table: the tracker, as the seat's role may use it."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, cast

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import SystemCommand
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.driver import Driver
from textual.screen import Screen

from rules import passing
from rules.encounter import AnyEncounter
from rules.history import History
from tracker.app import TrackerApp
from tracker.screens.confirm import ConfirmScreen
from tracker.screens.encounter_screen import EncounterScreen
from tracker.screens.help import key_label
from tracker.serve.driver import Channel, ChannelDriver, drawn
from tracker.serve.limits import Fair
from tracker.serve.seats import Seat, SeatSession, Table
from tracker.store import storage
from tracker.terminal.fit import Part
from tracker.widgets.encounter_header import NEEDED, USUAL, EncounterHeader


class TableCommands(Provider):
    """The GM's table commands in the palette."""

    COMMANDS = (
        ("Seats: who is connected, assign combatants, kick", "seats", "w"),
        ("Turn alerts on/off for this seat", "alerts", "b"),
    )

    def _allowed(self) -> Iterable[tuple[str, str, str]]:
        app = self.app
        for title, action, key in self.COMMANDS:
            if app.check_action(action, ()):
                yield title, action, key

    async def discover(self) -> Hits:
        for title, action, key in self._allowed():
            yield DiscoveryHit(title, lambda a=action: self.app.run_action(a), help=f"key: {key}")

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, action, _ in self._allowed():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), lambda a=action: self.app.run_action(a))


NAMED = 6  # seats named in the GM's question on quitting (the rest counted)
GM_INPUT = (events.Key, events.MouseDown, events.Paste)
# Seconds an exit waits at most for what is being mounted (see ``TableApp.exit``): an app
# that never draws again still ends.
EXIT_AT_MOST = 5.0


class TableApp(TrackerApp):
    """A seat's app: the GM's local terminal, or a remote seat on an SSH channel."""

    # Relative paths are read from the subclass's folder: point at the tracker's own styles.
    CSS_PATH = Path(__file__).parent.parent / "tracker.tcss"
    COMMANDS = TrackerApp.COMMANDS | {TableCommands}
    BINDINGS = [
        Binding("w", "seats", "Seats and join links (the GM)", id="table.seats"),
        Binding("b", "alerts", "Turn alerts on/off (a player)", id="table.alerts"),
    ]
    # Seats share one process: tracker.serve.heap freezes it once seats settle, and a seat
    # leaving must not unfreeze everyone else's objects.
    OWNS_MEMORY = False

    def __init__(
        self,
        table: Table,
        seat: Seat,
        *,
        saves: Path,
        notes: Iterable[str] = (),
        library: Path | None = None,
    ) -> None:
        """``library``: the GM's stat blocks, for a GM's seat (only the GM adds; a player's
        seat never reads it: its names, its problems)."""
        self.table = table
        self.seat = seat
        super().__init__(
            SeatSession(table, seat),  # type: ignore[arg-type]  # a seat's session
            saves=saves,
            notes=list(notes),
            library=library if seat.role == "gm" else None,
        )
        seat.app = self
        self.channel_driver: ChannelDriver | None = None  # made by the app's run (draw_on)
        self._held: AbstractContextManager[None] | None = None  # batch_update while muted
        self._wants_muted = False  # as last asked (see ``mute``)
        self._unwatch: Callable[[], None] | None = table.watch(self._seats_changed)
        self._acts_for = table.viewer(seat).assigned  # as last told (see ``_seats_changed``)
        # The local GM's terminal (no ChannelDriver): each key holds the seats' input until
        # this app has drawn it, as an SSH GM's does (tracker.serve.limits.Fair).
        self.goes_first: Fair | None = None
        self._leaving: asyncio.TimerHandle | None = None  # an exit waiting (see ``exit``)

    def exit(
        self, result: Any = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """Exit once what is being mounted now is mounted and drawn.

        A seat's app (or a shared view's) is ended from outside, at any moment: its
        connection closed, its last watcher gone. Ended while a screen is being mounted (a
        seat that leaves as it sits down, under load), Textual takes the screen's widgets
        out of the tree before their on_mount runs, and those then fail on what is missing
        (``NoMatches``, a style not yet read): the seat, or the view, closed by an error.
        So the exit waits for the next refresh, which comes after any mount in progress
        (``EXIT_AT_MOST`` seconds at most)."""
        leave = functools.partial(super().exit, result, return_code, message)
        if self._leaving is not None:
            return  # already on its way
        if not self.call_after_refresh(self._leave, leave):
            leave()  # closing already: nothing is mounting
            return
        self._leaving = asyncio.get_running_loop().call_later(EXIT_AT_MOST, self._leave, leave)

    def _leave(self, leave: Callable[[], None]) -> None:
        if self._leaving is not None:
            self._leaving.cancel()
        leave()

    def on_encounter_screen_shown(self, shown: EncounterScreen.Shown) -> None:
        # (TrackerApp's own handler runs too: Textual calls each class's.)
        self._work_out_players_view()

    def on_encounter_changed(self) -> None:
        self._work_out_players_view()  # a combatant hidden, an undo far back: again

    def _work_out_players_view(self) -> None:
        if self.seat.role == "gm" and not self.table.view_kept:
            self.run_worker(self._players_view(), group="players-view", exclusive=True)

    async def _players_view(self) -> None:
        """Players' view of the fight, worked out on a thread as the table opens, and again
        when the table lets it go: on a long fight the next player to sit down would
        otherwise hold every seat for a second while it is."""
        work = self.table.view_work()
        if work is not None:
            keep = await asyncio.to_thread(work)
            keep()  # on the loop: kept unless the fight changed meanwhile

    async def on_event(self, event: events.Event) -> None:
        if self.goes_first is not None and isinstance(event, GM_INPUT):
            self.goes_first.hold(drawn(self))
        await super().on_event(event)

    async def on_key(self, event: events.Key) -> None:
        """A key of the encounter the seat's role is not offered says so, rather than doing
        nothing (a player's ``a``: adding is the GM's)."""
        screen = self.screen
        if self.seat.role == "gm" or not isinstance(screen, EncounterScreen):
            return
        if event.key in screen.active_bindings:
            return  # offered: its binding ran
        for binding in screen.BINDINGS:
            if not isinstance(binding, Binding) or event.key not in binding.key.split(","):
                continue
            name, _, argument = binding.action.partition("(")
            if not screen.session.allows(name, argument.strip("()'\"")):
                what = f"{key_label(event.key)} ({binding.description})"
                self.notify(f"Only the GM can use {what}", severity="warning", markup=False)
            return

    def draw_on(self, channel: Channel, **options: Any) -> None:
        """Run on ``channel`` (a seat's, or a shared view's fan-out), with a ChannelDriver
        made with ``options`` and kept as ``channel_driver`` (Textual keeps its own private)."""

        def make(app: TableApp, **textuals: Any) -> ChannelDriver:
            self.channel_driver = ChannelDriver(app, channel=channel, **options, **textuals)
            return self.channel_driver

        # Textual only calls its driver class, with the app and its own settings.
        self.driver_class = cast("type[Driver]", make)

    # --- drawn by a shared view, or on its own (tracker/serve/views.py) ---
    #
    # Asked for from outside the app: an SSH connection's callback (a first key), the loop's
    # (a window change), another app's (the GM assigns combatants, a view ends). Textual
    # finds its app through the context it runs in, and there is none there, or another
    # seat's: the work is done as a callback, in the app's own context. Keys that follow
    # are queued after it, so they reach a screen already caught up.

    def mute(self) -> None:
        """A shared view draws this seat: draw nothing, and skip changes until ``unmute``."""
        self._wants_muted = True
        self.seat.muted = True
        if self.channel_driver is not None:
            self.channel_driver.muted = True
        self.call_later(self._apply_muting)

    def unmute(self) -> None:
        """Draw the seat from now on: caught up, and the whole screen at once."""
        self._wants_muted = False
        self.call_later(self._apply_muting)

    def _apply_muting(self) -> None:
        """Muted or drawn as last asked (a mute and an unmute may both be waiting)."""
        if self._wants_muted:
            if self._held is None:
                self._held = self.batch_update()
                self._held.__enter__()
            return
        if not self.seat.muted:
            return  # drawn already
        self.seat.muted = False
        if self.channel_driver is not None:
            self.channel_driver.unmute()
        if self._held is not None:
            held, self._held = self._held, None
            held.__exit__(None, None, None)
        session = self.session
        if isinstance(session, SeatSession) and session.behind:
            session.behind = False
            for screen in self.screen_stack:
                if isinstance(screen, EncounterScreen):
                    screen.reload()
        self.refresh(layout=True)

    def _seats_changed(self, news: str) -> None:
        """The GM hears who joins and leaves the table; every seat's header is drawn again
        (the seats in, a setting)."""
        if self.return_code is not None and self._unwatch is not None:  # the seat has gone
            self._unwatch()
            self._unwatch = None
            return
        if news and self.seat.role == "gm":
            self.call_later(self.notify, news, markup=False, timeout=10)
        assigned = self.table.viewer(self.seat).assigned
        if assigned != self._acts_for:
            self._acts_for = assigned
            self.call_later(self._assigned, assigned)
        self.call_later(self._table_changed)

    def _assigned(self, assigned: frozenset[str]) -> None:
        """A player is told whom the GM gave them, and their rows are marked "(you)"."""
        state = self.table.sight(self.table.viewer(self.seat)).state  # no GM-only name
        names = [c.name for c in state.combatants if c.id in assigned]
        said = ", ".join(names) if names else "nobody now"
        self.notify(f"You play {said}", markup=False)
        for screen in self.screen_stack:
            if isinstance(screen, EncounterScreen):
                screen.seat_changed()

    def _table_changed(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(EncounterHeader):
                header.refresh_table()

    def table_line(self, state: AnyEncounter) -> Part | None:
        """The header's line for this seat (``EncounterHeader``): the GM's, that the table
        is served and how many seats are in (it gives way first when the header is full); a
        player's, their turn or that it comes next (never cut)."""
        viewer = self.table.viewer(self.seat)
        if viewer.is_gm:
            seats = sum(1 for seat in self.table.seats.values() if seat.remote)
            said = f"⇄ served, {seats} seat{'' if seats == 1 else 's'} in"
            return Part(Text(said, style="dim"), USUAL)
        if viewer.role != "player" or self.table.session.stopped():
            return None  # over (unless the GM plays on): nobody's turn comes
        found = passing.news(state, viewer.assigned)
        if found is None:
            return None
        what, who = found
        if what == "up next":
            return Part(Text.assemble(("Up next: ", "bold"), (who.name, "bold")), NEEDED)
        if what == "your roll":
            turn = "bold reverse"
            return Part(Text.assemble(("★ Your roll: ", turn), (who.name, turn), " (d)"), NEEDED)
        ends = " (n ends it)" if self.table.settings.players_pass else ""
        turn = "bold reverse"
        return Part(Text.assemble(("★ Your turn: ", turn), (who.name, turn), ends), NEEDED)

    def action_alerts(self) -> None:
        """A player's own say over the turn alerts (the bell and the desktop notification)."""
        seat = self.seat
        seat.alerts = not seat.alerts
        said = "on" if seat.alerts else "off"
        if seat.alerts and not self.table.settings.alerts:
            said += ", but the GM has turned them off for the table"
        self.notify(f"Turn alerts {said} for this seat (b)", markup=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "seats":
            return self.seat.role == "gm"
        if action == "alerts":
            return self.seat.role == "player"
        return True

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        # A remote seat must not write files on the server (an SVG screenshot).
        for command in super().get_system_commands(screen):
            if not (self.seat.remote and command.title == "Screenshot"):
                yield command

    async def action_quit(self) -> None:
        """The GM's own terminal ends the table for every seat: asked first while any is in
        (a remote seat's q ends its own seat alone)."""
        seats = [seat for seat in self.table.seats.values() if seat.remote]
        if self.seat.remote or not seats:
            await super().action_quit()
            return
        count = f"{len(seats)} seat{'' if len(seats) == 1 else 's'}"
        names = ", ".join(seat.name for seat in seats[:NAMED])
        if len(seats) > NAMED:
            names += f" and {len(seats) - NAMED} more"
        question = f"Quit and close the table? {count} will be closed ({names})."

        def answered(close: bool | None) -> None:
            if close:
                self.quit_saving()

        self.push_screen(ConfirmScreen(question), answered)

    def action_seats(self) -> None:
        from tracker.serve.seats_screen import SeatsScreen

        if self.seat.role == "gm":
            self.push_screen(SeatsScreen(self.table))

    # The served encounter stays the one served: every way to another one ends here, before
    # any file is written (the seat's session is the table's, which it cannot let go of).
    def play_branch(self, branch: History) -> None:
        self.notify("While serving, a branch cannot replace the served encounter", markup=False)

    def play_new(self, history: History, saying: str, failed: str) -> None:
        self.notify(
            "While serving, a new encounter cannot replace the served encounter", markup=False
        )

    def open_path(self, path: Path | None) -> None:
        if path is not None:
            self.notify("While serving, another encounter cannot be opened", markup=False)

    def open_encounter(self, opened: storage.Opened, note: str = "") -> None:
        if opened.lock is not None:
            opened.lock.release()
        self.notify("While serving, another encounter cannot be opened", markup=False)
