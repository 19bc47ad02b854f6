"""The terminal a test's seat draws on: the output a seat was sent, fed to a VT emulator
(pyte) only when a test looks, and the screen drawn once for each change. Tests poll what a
seat shows every few milliseconds; emulating every frame as it came, and drawing the screen
at every poll, cost the serve tests a good part of their time."""

from __future__ import annotations

import pyte

# The emulator's largest size: beyond any seat the server draws (tracker.serve.limits), and
# small enough to draw at once when a test asks for a huge window (99999 x 99999).
LARGEST = (400, 200)


def bounded(width: int, height: int) -> tuple[int, int]:
    return min(max(width, 1), LARGEST[0]), min(max(height, 1), LARGEST[1])


class Terminal:
    def __init__(self, size: tuple[int, int]) -> None:
        self.output = ""  # every character the seat was sent
        self._screen = pyte.Screen(*bounded(*size))
        self._stream = pyte.Stream(self._screen)
        self._unfed = 0  # characters at the end of ``output`` not fed to the screen yet
        self._shown: str | None = None  # ``text()``, until more output comes

    def receive(self, data: str) -> None:
        self.output += data
        self._unfed += len(data)

    def _feed(self) -> None:
        if self._unfed:
            self._stream.feed(self.output[-self._unfed :])
            self._unfed = 0
            self._shown = None

    def text(self) -> str:
        """What the screen shows now, line by line."""
        self._feed()
        if self._shown is None:
            self._shown = "\n".join(line.rstrip() for line in self._screen.display)
        return self._shown

    def resize(self, width: int, height: int) -> None:
        self._feed()  # what came before lands at the old size
        width, height = bounded(width, height)
        self._screen.resize(height, width)
        self._shown = None
