"""Beer Run's dialogs at 80x24: notices keep clear of building a pool and of the header."""

from __future__ import annotations

from pathlib import Path

from rules.systems.beerrun.demo import STEM
from tests.app.test_layout import demo_app, notices_clear_of_a_dialog


async def test_notifications_keep_clear_of_building_a_pool_and_the_header(tmp_path: Path) -> None:
    await notices_clear_of_a_dialog(demo_app(STEM, tmp_path), ("s", "down", "down", "enter"))
