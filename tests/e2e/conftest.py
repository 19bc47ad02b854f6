"""The real terminal for the end-to-end tests, killed after each test even when it fails."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.tmux import Tmux


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    terminal = Tmux()
    try:
        yield terminal
    finally:
        terminal.kill()
