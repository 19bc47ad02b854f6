"""A report written from the app (``:export NAME``) never lands on a save's own files
(issue #46): a copy an open kept aside, or another name of the save's lock file."""

from __future__ import annotations

import os
from pathlib import Path

from tests.app.support import until
from tests.screen import screen_text
from tracker.screens.command_prompt import CommandLineScreen
from tracker.store import storage

from .test_app_command_line import type_line
from .test_app_table_tools import SMALL, make_app

DAMAGED = "warren.fight.damaged-20260101-120000"


async def test_a_report_never_replaces_a_copy_kept_aside_or_a_lock(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    (tmp_path / DAMAGED).write_bytes(b"the damaged save, kept")
    storage.SaveLock.take(tmp_path / "warren.fight").release()  # its lock file stays
    os.link(tmp_path / ".warren.fight.lock", tmp_path / "pid.md")
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await type_line(pilot, f"export {DAMAGED}")
        assert isinstance(app.screen, CommandLineScreen)  # the prompt stays, to fix the name
        assert "that is a save's name" in screen_text(app)
        await pilot.press("escape")
        await type_line(pilot, "export pid.md")
        refused = "pid.md is the lock"  # "file of warren.fight" wraps to the next line
        await until(pilot, lambda: refused in screen_text(app), "the refusal")
    assert (tmp_path / DAMAGED).read_bytes() == b"the damaged save, kept"
    assert os.path.samefile(tmp_path / "pid.md", tmp_path / ".warren.fight.lock")
