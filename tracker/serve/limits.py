"""What one seat may cost the table: its terminal's size, and how much it may type.

Every seat is drawn on the one loop that draws all the others, so a seat's size and input
are bounded here: a window larger than any real terminal is drawn at ``MAX_SIZE``; input
is let through at a rate no person types at, the excess dropped, and a seat that keeps
flooding is closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

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
FLOODED = "Closed: this seat sent far more input than anyone types (a flood of keys?)."


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

    def admit_packet(self, size: int) -> bool:
        """One message of ``size`` bytes from a browser seat, whole or not at all (its
        text is then bounded again by the seat's driver, like an SSH seat's)."""
        if self.events.take_all(1) and self.bytes.take_all(size):
            return True
        self.dropped_events += 1
        self.dropped_bytes += size
        return False

    @property
    def flooding(self) -> bool:
        return self.dropped_bytes > FLOOD_BYTES or self.dropped_events > FLOOD_EVENTS
