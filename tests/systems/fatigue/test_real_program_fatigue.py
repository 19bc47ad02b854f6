"""Fatigue's roll dialog in the real program (tmux, 80x24): a burst typed into its Weapon field
as the dialog opens lands whole (moved from tests/e2e/test_real_program.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.e2e.test_real_program import start
from tests.e2e.tmux import Tmux, tmux

__all__ = ["tmux"]  # the fixture, for this module's test

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to drive"
)


def test_a_burst_typed_into_a_dialog_as_it_opens_lands_whole(tmux: Tmux, tmp_path: Path) -> None:
    # On a busy machine a dialog takes its time to build: the first key typed behind the one
    # that opens it (`p` of `pistol`) once went to the dialog before its field had focus.
    start(tmux, tmp_path, "fatigue", 1, (80, 24))
    tmux.keys("d")  # the demo opens on a result waiting: applied, `r` opens the roll dialog
    tmux.wait_for("r Roll")
    tmux.settle()
    tmux.burst("r", "C-u", "pistol")  # C-u: the weapon field's default out of the way
    screen = tmux.wait_for("istol")  # never shows at all if a key went elsewhere
    weapon = next(line for line in screen.splitlines() if "Weapon " in line)
    assert weapon.split("Weapon")[1].split()[0] == "pistol", screen
