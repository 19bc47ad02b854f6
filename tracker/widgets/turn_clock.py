"""The turn clock beside the header: the time in this turn, or what is left of the GM's limit.

One small widget, redrawn alone once a second (never the header or the screen). Past the
limit it only warns: its colour changes and one notification says so; no turn is forced.
It is not shown until a turn's start is known (an older save, a replay, a turn a player may
not see); once shown it stays, ``⏱ -:--`` for such a turn, so turns do not lay the screen
out again.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer
from textual.widgets import Static

from rules.table_options import clock_text

TICK = 1.0  # seconds between redraws
UNKNOWN = "⏱ -:--"  # a turn whose start is not known, once the clock is shown


def clock_line(elapsed: float, limit: int) -> str:
    """ "⏱ 0:42", or with a limit "⏱ 1:18 left" / "⏱ 0:05 over"."""
    spent = int(max(0.0, elapsed))
    if not limit:
        return f"⏱ {clock_text(spent)}"
    if spent <= limit:
        return f"⏱ {clock_text(limit - spent)} left"
    return f"⏱ {clock_text(spent - limit)} over"


class TurnClock(Static):
    DEFAULT_CSS = """
    TurnClock { width: auto; height: 1; padding: 0 1; display: none; }
    TurnClock.-over { text-style: bold reverse; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._start: float | None = None
        self._limit = 0
        self._now: Callable[[], float | None] | None = None
        self._who = ""
        self._warned: float | None = None  # the start of the turn already warned about
        self._timer: Timer | None = None
        self._shown = ""

    def follow(
        self, start: float | None, limit: int, now: Callable[[], float | None], who: str = ""
    ) -> None:
        """Count from ``start`` (None: unknown, not shown yet or ``UNKNOWN``), against
        ``limit`` seconds (0: none), by the clock ``now``; ``who``: whose turn, for the
        warning."""
        self._start, self._limit, self._now, self._who = start, limit, now, who
        if start is None:
            self._stop()
            if self.display:
                self._show(UNKNOWN)
                self.set_class(False, "-over")
            return
        if self._timer is None:
            self._timer = self.set_interval(TICK, self.tick)
        self.display = True
        self.tick()

    def tick(self) -> None:
        now = self._now() if self._now is not None else None
        if self._start is None or now is None:
            return
        elapsed = now - self._start
        over = bool(self._limit) and elapsed > self._limit
        self._show(clock_line(elapsed, self._limit))
        self.set_class(over, "-over")
        if over and self._warned != self._start:
            self._warned = self._start
            whose = f"{self._who}'s turn" if self._who else "This turn"
            self.app.notify(
                f"{whose} is past its limit of {clock_text(self._limit)}",
                title="Turn clock",
                severity="warning",
                markup=False,
            )

    def _show(self, line: str) -> None:
        if line != self._shown:
            # Laid out again only when its width changes: a tick redraws this widget alone.
            self.update(line, layout=len(line) != len(self._shown))
            self._shown = line

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
