"""LiveHack's demo crowded at 160x48: its columns whole, the out-of-fight word, the Solo column."""

from __future__ import annotations

import re
from pathlib import Path

from rules.systems.livehack.demo import STEM
from tests.app.test_layout import LARGE, crowd, demo_app
from tests.screen import screen_text
from tracker.widgets.combatants import CombatantsPane


async def test_at_160x48_the_columns_are_whole(tmp_path: Path) -> None:
    app = demo_app(STEM, tmp_path)
    async with app.run_test(size=LARGE) as pilot:
        await crowd(pilot, STEM)
        text = screen_text(app)
        assert "Goblin Boss ✗ incapacitated" in text  # out of the fight: the word, not the name
        assert "Prone, Entangled in a weighted net" in text
        assert re.search(r"Goblin Sneak +⚙ roll  foes", text)  # the Solo column, padded as ever
        pane = app.screen.query_one(CombatantsPane)
        assert pane.cell_padding == 1 and not pane.border_subtitle
