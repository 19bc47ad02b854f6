"""The real terminal for the end-to-end tests (the fixture lives in tests/e2e/tmux.py)."""

from tests.e2e.tmux import tmux

__all__ = ["tmux"]
