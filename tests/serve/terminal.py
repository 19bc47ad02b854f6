"""The terminal a test's seat draws on: the output a seat was sent, fed to a VT emulator
(pyte) only when a test looks, and the screen drawn once for each change. Tests poll what a
seat shows every few milliseconds; emulating every frame as it came, and drawing the screen
at every poll, cost the serve tests a good part of their time."""

from __future__ import annotations

import pyte


class Terminal:
    def __init__(self, size: tuple[int, int]) -> None:
        self.output = ""  # every character the seat was sent
        self._screen = pyte.Screen(*size)
        self._stream = pyte.Stream(self._screen)
        self._unfed = 0  # characters at the end of ``output`` not fed to the screen yet
        self._shown: str | None = None  # ``text()``, until more output comes

    def receive(self, data: str) -> None:
        self.output += data
        self._unfed += len(data)

    def text(self) -> str:
        """What the screen shows now, line by line."""
        if self._unfed:
            self._stream.feed(self.output[-self._unfed :])
            self._unfed = 0
            self._shown = None
        if self._shown is None:
            self._shown = "\n".join(line.rstrip() for line in self._screen.display)
        return self._shown

    def resize(self, width: int, height: int) -> None:
        self.text()  # what came before is drawn at the old size
        self._screen.resize(height, width)
        self._shown = None
