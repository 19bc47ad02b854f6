"""What one seat may cost the table: its terminal's size, how much it may type, and how
many commands (rolls) it may give.

Every seat is drawn on the one loop that draws all the others, so a seat's size and input
are bounded here: a window larger than any real terminal is drawn at ``MAX_SIZE``; input
is let through at a rate no person types at, the excess dropped, and a seat that keeps
flooding is closed; a player's commands pass a few at once, then about one a second.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from textual import events

# A 4K screen at a small font is about 380x110 cells. Beyond this size a seat's frames
# would cost the loop (and the memory) of many seats.
MAX_SIZE = (320, 120)
MIN_SIZE = (20, 6)  # below this, nothing the app draws can be read anyway
DEFAULT_SIZE = (80, 24)  # a client that says 0 (unknown)

# A person types a few keys a second; key repeat is 30 a second; a mouse moved fast in
# "any motion" mode reports about 100 a second. Pastes arrive as one event.
EVENTS_PER_SECOND = 120.0
EVENT_BURST = 240.0
BYTES_PER_SECOND = 16 * 1024.0
BYTE_BURST = 64 * 1024.0  # the longest paste let through at once
PARSE_STEP = 2048  # characters parsed in one go, so that other seats draw in between
# Dropped beyond these, over a seat's life, it is flooding: it is closed.
FLOOD_BYTES = 64 * 1024
FLOOD_EVENTS = 1000
# A seat's commands (a roll, any change to the fight): each is worked out on the loop every
# seat shares (a dice line's exact odds up to about half a second, rules/notation/exact.py),
# logged and drawn on every seat. A player gives a few at once, then about one a second, as
# at a real table; beyond that a command is refused in one line before any of its work.
COMMANDS_PER_SECOND = 1.0
COMMAND_BURST = 5.0
TOO_FAST = "Too many rolls and commands at once: wait a moment, then try again"
# Hands an event to a seat's app; returns what to wait on until its work is drawn, if anything.
Deliver = Callable[[], "asyncio.Future[None] | None"]
FLOODED = "Closed: this seat sent far more input than anyone types (a flood of keys?)."
# Told to a seat (once in ``CUT_TOLD_EVERY`` seconds) whose input was cut short: a paste
# beyond ``BYTE_BURST``, or more typed at once than the seat's budget lets through.
CUT = (
    f"Your paste was too long: its first {int(BYTE_BURST) // 1024} KB were kept, the rest dropped."
)
CUT_TOLD_EVERY = 5.0
# A terminal's bracketed paste: what is between these is one paste.
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
# Characters of a paste beyond the burst that are dropped uncounted (the browser's message
# bound too): a person pastes the whole of a long text at once. Beyond, they count.
MAX_PASTE = 1024 * 1024


def open_paste(text: str, was_open: bool) -> bool:
    """Whether a paste is open (started, not ended) after ``text``, one was before it or not."""
    start, end = text.rfind(PASTE_START), text.rfind(PASTE_END)
    return was_open if start == end else start > end  # (equal: both -1, neither there)


def end_paste(text: str, is_open: bool) -> str:
    """``text``, cut short, with the end of the paste it leaves open put back: else all
    typed after it would be read as more of the paste."""
    return text + PASTE_END if is_open else text


def clamp_size(width: int, height: int) -> tuple[int, int]:
    """A terminal size the table draws: 0 means unknown, the rest within bounds."""
    width = width or DEFAULT_SIZE[0]
    height = height or DEFAULT_SIZE[1]
    return (
        min(max(width, MIN_SIZE[0]), MAX_SIZE[0]),
        min(max(height, MIN_SIZE[1]), MAX_SIZE[1]),
    )


@dataclass
class Bucket:
    """A token bucket: ``rate`` a second, at most ``burst`` saved up."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    _at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = self.burst
        self._at = self.clock()

    def take(self, wanted: int) -> int:
        """How many of ``wanted`` may pass now (they are spent)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._at) * self.rate)
        self._at = now
        granted = min(wanted, int(self.tokens))
        self.tokens -= granted
        return granted

    def take_all(self, wanted: int) -> bool:
        """Whether all of ``wanted`` may pass now (then they are spent), or none."""
        self.take(0)  # refilled up to now
        if self.tokens < wanted:
            return False
        self.tokens -= wanted
        return True


def command_limit() -> Bucket:
    """A seat's budget of commands (``COMMANDS_PER_SECOND``)."""
    return Bucket(COMMANDS_PER_SECOND, COMMAND_BURST)


@dataclass
class InputLimit:
    """One seat's input budget: bytes before they are parsed, events after."""

    clock: Callable[[], float] = time.monotonic
    bytes: Bucket = field(init=False)
    events: Bucket = field(init=False)
    dropped_bytes: int = 0
    dropped_events: int = 0

    def __post_init__(self) -> None:
        self.bytes = Bucket(BYTES_PER_SECOND, BYTE_BURST, self.clock)
        self.events = Bucket(EVENTS_PER_SECOND, EVENT_BURST, self.clock)

    def admit_text(self, data: str) -> str:
        """The part of ``data`` that may be parsed now."""
        granted = self.bytes.take(len(data))
        self.dropped_bytes += len(data) - granted
        return data[:granted]

    def admit_event(self) -> bool:
        if self.events.take(1):
            return True
        self.dropped_events += 1
        return False

    def admit_paste(self, data: str) -> tuple[str, bool]:
        """One paste, whole (a browser's message): its first ``BYTE_BURST`` characters as
        ``admit_text`` lets them through, and whether any of it was cut. What lies beyond
        the burst is cut whatever the budget, and not counted: one long paste is a
        person's, told in a line. Many at once are counted as ``admit_text`` counts them,
        and flood."""
        text = self.admit_text(data[: int(BYTE_BURST)])
        if len(text) == len(data):
            return text, False
        return end_paste(text, open_paste(text, False)), True

    def admit_bytes(self, size: int) -> bool:
        """``size`` bytes read for something that is not text typed (a browser's other
        packets, or what it sent that is no packet), whole or not at all."""
        if self.bytes.take_all(size):
            return True
        self.dropped_bytes += size
        return False

    @property
    def flooding(self) -> bool:
        return self.dropped_bytes > FLOOD_BYTES or self.dropped_events > FLOOD_EVENTS


@dataclass
class Pastes:
    """An SSH seat's input as a stream, paste by paste: a paste cut short by the seat's
    budget (``InputLimit.admit_text``) is ended where it was cut, as a browser's is, and
    the rest of it is skipped up to its own end, uncounted up to ``MAX_PASTE``
    characters (then counted as dropped: a paste that never ends is a flood)."""

    limit: InputLimit
    open: bool = False  # a paste let through has started and not ended
    skipping: bool = False  # the rest of a cut paste is being skipped
    skipped: int = 0
    _tail: str = ""  # the end of what was skipped: a paste's end may come in two parts

    def admit(self, data: str) -> tuple[str, bool]:
        """What of ``data`` may be parsed now, and whether any was cut."""
        data = self._skip(data)
        text = self.limit.admit_text(data)
        if len(text) == len(data):
            self.open = open_paste(text, self.open)
            return text, False
        is_open = open_paste(text, self.open)
        self.open = False
        if is_open:  # the rest of this paste is skipped, not dropped: uncounted
            rest = data[len(text) :]
            end = rest.find(PASTE_END)
            skipped = rest if end < 0 else rest[: end + len(PASTE_END)]
            self.limit.dropped_bytes -= min(len(skipped), MAX_PASTE)  # (beyond: counted)
            self.skipping, self.skipped, self._tail = end < 0, len(skipped), ""
        return end_paste(text, is_open), True

    def _skip(self, data: str) -> str:
        if not self.skipping or not data:
            return data
        seen = self._tail + data
        found = seen.find(PASTE_END)
        if found >= 0:
            self.skipping = False
            return seen[found + len(PASTE_END) :]
        self._tail = seen[-(len(PASTE_END) - 1) :]
        self.skipped += len(data)
        self._count(len(data))
        return ""

    def _count(self, size: int) -> None:
        """Of ``size`` more skipped, what goes beyond ``MAX_PASTE`` counts as dropped."""
        self.limit.dropped_bytes += max(0, min(size, self.skipped - MAX_PASTE))


# The table's input budget (``Fair``).
QUEUE = 64  # events a seat may have waiting; beyond, its newest are dropped
SHARE = 0.5  # of the loop's time, at most, for the work the seats' input causes
MIN_PAUSE = 0.005  # seconds after each event handed out: at most 200 a second, table-wide
MAX_PAUSE = 1.0
DRAWN_WITHIN = 2.0  # seconds the pump waits at most for an event's work to be drawn
HOLD_AT_MOST = 3.0  # seconds a GM's key or a seat sitting down holds the seats' input
QUIET = 2.0  # seconds without input or a newcomer before the table counts as quiet


class Fair:
    """The table's input budget: the seats' events handed out in turn, at the loop's pace.

    Every seat's app runs on the one loop that also runs the GM's, and a seat's own limit
    (``InputLimit``) cannot stop forty seats, each inside theirs, from taking the whole loop
    between them: one key may cost a seat's app a new screen, its layout and its frame. So
    every seat's input but the GM's is queued here (``QUEUE`` events a seat, a mouse move
    replacing the one before it), and a pump hands out one event at a time, taking the
    seats that wait in turn. It then waits until that event's work is drawn (``deliver``
    returns what to wait on) and pauses as long again (``SHARE``): the seats' input takes
    at most half the loop between them, each seat as much as the others. A quiet table's
    keys pass at once. The GM's keys are never queued, and each holds the pump (``hold``)
    until the GM's screen is drawn, as a player who has logged in does until their first
    frame: the GM and a newcomer go first.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.pause = MIN_PAUSE
        self.dropped = 0
        self.held = 0  # holds not released yet: the pump waits
        self.holds = 0  # ever given
        self.hold_at_most = HOLD_AT_MOST
        self._last = -QUIET  # when input last came, or a seat sat down
        self._queues: dict[object, list[tuple[object, Deliver]]] = {}
        self._wake: asyncio.Event | None = None
        self._pump: asyncio.Task[None] | None = None

    def submit(self, seat: object, event: object, deliver: Deliver) -> None:
        """Queue ``deliver`` (which hands ``event`` to ``seat``'s app) for its turn."""
        self._last = self.clock()
        queue = self._queues.setdefault(seat, [])
        if queue and isinstance(event, events.MouseMove) and type(queue[-1][0]) is type(event):
            queue[-1] = (event, deliver)  # only where the mouse is now matters
        elif len(queue) >= QUEUE:
            self.dropped += 1
        else:
            queue.append((event, deliver))
        if self._pump is None or self._pump.done():
            self._wake = asyncio.Event()
            self._pump = asyncio.create_task(self._run())
        self._poke()

    def hold(
        self, until: asyncio.Future[None] | None = None, at_most: float | None = None
    ) -> Callable[[], None]:
        """Hold the seats' input until ``until`` is done, or the returned release is called
        (at most ``at_most`` seconds either way, by default ``hold_at_most``)."""
        self._last = self.clock()
        self.held += 1
        self.holds += 1
        released = False
        loop = asyncio.get_running_loop()

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self.held -= 1
                timer.cancel()
                self._poke()

        timer = loop.call_later(self.hold_at_most if at_most is None else at_most, release)
        if until is not None:
            until.add_done_callback(lambda _: release())
        return release

    def busy(self) -> bool:
        """Input came, or a seat sat down, in the last ``QUIET`` seconds."""
        return self.clock() - self._last < QUIET or bool(self._queues)

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def forget(self, seat: object) -> None:
        """``seat`` is gone (or takes no more input): its waiting events are dropped."""
        self._queues.pop(seat, None)

    def waiting(self) -> int:
        """Events waiting their turn, over all the seats."""
        return sum(len(queue) for queue in self._queues.values())

    def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
        self._queues.clear()

    def take(self) -> Deliver | None:
        """The next seat's next event (the seats in turn), or None if none waits."""
        for seat, queue in self._queues.items():
            _, deliver = queue.pop(0)
            del self._queues[seat]
            if queue:
                self._queues[seat] = queue  # to the back of the line
            return deliver
        return None

    def pace(self, took: float) -> float:
        """The pause after an event whose work took ``took`` seconds to be drawn."""
        self.pause = min(MAX_PAUSE, max(MIN_PAUSE, took * (1 - SHARE) / SHARE))
        return self.pause

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            deliver = None if self.held else self.take()
            if deliver is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            began = self.clock()
            try:
                drawn = deliver()
            except Exception as exc:  # one seat's failing event stops no other seat's input
                loop = asyncio.get_running_loop()  # (the table says it in one line)
                loop.call_exception_handler({"message": "a seat's input", "exception": exc})
                continue
            if drawn is not None:
                await asyncio.wait({drawn}, timeout=DRAWN_WITHIN)
            await asyncio.sleep(self.pace(self.clock() - began))
